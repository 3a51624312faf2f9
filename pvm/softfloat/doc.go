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
//
// # Elementary functions
//
// Exp, Expm1, Log, Log2, Log10, Log1p, Pow, Sin, Cos, Tan, Asin, Acos, Atan,
// Atan2, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh and Hypot return the binary64
// nearest to the exact result (C99 Annex F special values). Two evaluations
// compute the same correctly rounded value:
//
//   - fx.go: a 192-bit two's-complement fixed-point fast path (168
//     fraction bits, math/bits multiplications, no allocation) with
//     table-driven argument reduction and short Horner series; about 110
//     bits beyond binary64 reach the final rounding (roundPack). It covers
//     arguments of ordinary size (roughly 2**-26 to 2**20, results not
//     within 2**-40 of zero, no exact ties) in 0.15-0.5 us and declines
//     the rest. Fast reports whether it applies, so the PVM can meter the
//     two evaluations differently.
//   - mp.go and mpfast.go: big.Float at 160-192 bits, with full-range
//     trigonometric reduction (pi to 1,420 bits), for everything the fast
//     path declines. mp.go's plain series also build the tables.
//
// TestFastPathsMatchBig checks that the two agree bit for bit. Pow treats
// exact cases exactly: squares, square roots, inverses, powers of two and
// integer powers below 64 are single roundings of exact values, and a
// result that is exactly a binary64 midpoint (e.g. 134217727.0**2) is
// detected (powTie) and rounded to even.
//
// Cbrt, Exp2, Remainder, Erf, Erfc, Gamma and Lgamma (special.go, CPython
// 3.11's additions) are correctly rounded the same way: Remainder exactly on
// integers, Exp2 as Pow(2, x), the others in big.Float at 320 bits.
// TestSpecialAgainstCPython checks 3,970 arguments against the correctly
// rounded values (mpmath, 600 bits) and bounds CPython's distance from them.
//
// CPython calls the platform libm, which is not correctly rounded
// everywhere. On glibc 2.36 (the reference machine) exp, log, pow, sin,
// cos, tan, atan, asin, acos and atan2 differ from ours in well under 1% of
// random arguments; expm1, log1p, log10, sinh, cosh, tanh, asinh, acosh and
// atanh are fdlibm ports there and differ by one ulp in about 3-15% of
// random arguments (testdata/libm_cpython.txt records the sample and
// TestLibmAgainstCPython bounds every difference by one ulp). glibc's pow
// also rounds some exact ties away from even (3.0**34, 10.0**23). Newer
// glibc releases replace these functions with correctly rounded ones
// (CORE-MATH), which agree with ours. Being correctly rounded is the only
// libm behaviour that does not depend on the platform, which is what a
// consensus VM needs.
package softfloat
