package compile

import "math"

// mathFloatBits is math.Float64bits, the bit pattern constKey keys a
// float constant by (so 0.0 and -0.0 differ).
func mathFloatBits(f float64) uint64 { return math.Float64bits(f) }
