// Package softfloat is IEEE-754 binary64 arithmetic done with integer
// instructions only, so that every float a PVM program can observe has the
// same bits on every CPU (CIP-3 §2.2 "Floating-Point Determinism").
//
// # Contract
//
// F64 holds the bit pattern of a binary64 value. Add, Sub, Mul, Div, Sqrt
// and the conversions round to nearest, ties to even, with subnormals,
// signed zeros and infinities as IEEE-754 specifies; Fmod, Trunc, Floor,
// Ceil, Frexp and comparisons are exact. Every operation that produces a
// NaN produces the one quiet NaN (NaN): Python only observes NaN-ness, so
// payloads are not propagated. There are no exception flags and no other
// rounding modes. The algorithms follow John Hauser's Berkeley SoftFloat 3e
// (round-pack with ten guard bits and a sticky bit), with a 128-bit
// digit-by-digit square root and long division by math/bits.Div64.
//
// This package must never compute a result with Go's float64 operators or
// with package math's functions: Go may fuse x*y+z into one rounding on
// arm64, ppc64 and s390x, and math's functions differ across architectures
// (assembly versions). The tests compare against the hardware only as an
// oracle. Go's float64 appears here only as storage (math.Float64bits and
// math.Float64frombits move bits, they do not compute).
//
// # Decimal conversion
//
// Format delegates to strconv.FormatFloat. That is safe: strconv's
// genericFtoa (Go 1.26: internal/strconv/ftoa.go) starts from the bit
// pattern (float64bits, an unsafe reinterpretation) and splits it into
// integer mantissa and exponent; the shortest mode runs Dragonbox
// (ftoadbox.go) on those integers with 64×64→128-bit multiplications,
// fixed precision up to 18 digits runs fixedFtoa (ftoafixed.go, integer),
// and longer precisions run bigFtoa's multiprecision decimal (decimal.go,
// integer). No path performs a float64 operation, so the digits are a
// function of the bits alone. Python's repr picks the same shortest
// round-trip digits (David Gay's dtoa mode 0); the tests check that against
// python3 output committed in testdata.
//
// Parse is our own. strconv.ParseFloat's exact fast path (atof64exact)
// computes float64(mantissa) * 10**k and float64(mantissa) / 10**k with the
// FPU. Those are single IEEE operations on exactly representable values with
// no addition to fuse, so they are correctly rounded on every conforming
// CPU; but rather than depend on that argument, Parse does the same exact
// fast path with softfloat Mul and Div and rounds every other input from an
// exact big.Int ratio (FromBig, FromRat), truncating beyond 800 significant
// digits with a sticky digit, which cannot change the rounding because a
// decimal halfway point between two doubles has at most 767 digits.
package softfloat
