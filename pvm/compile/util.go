package compile

import "math"

func mathFloatBits(f float64) uint64 { return math.Float64bits(f) }
