package softfloat

import "math/bits"

// F64 is an IEEE-754 binary64 value held as its bit pattern: bit 63 is the
// sign, bits 62..52 the biased exponent (bias 1023), bits 51..0 the fraction.
// It is the same layout as Go's float64, so math.Float64bits and
// math.Float64frombits convert losslessly and no arithmetic happens.
type F64 uint64

// Named values.
const (
	// Zero is +0.0.
	Zero F64 = 0
	// NegZero is -0.0.
	NegZero F64 = 1 << 63
	// One is 1.0.
	One F64 = 0x3FF0000000000000
	// Inf is +inf.
	Inf F64 = 0x7FF0000000000000
	// NegInf is -inf.
	NegInf F64 = 0xFFF0000000000000
	// NaN is the quiet NaN every operation returns when its result is not a
	// number. Python only observes NaN-ness, so payloads are not propagated.
	NaN F64 = 0x7FF8000000000000
	// MaxFinite is the largest finite value, (2-2**-52) * 2**1023.
	MaxFinite F64 = 0x7FEFFFFFFFFFFFFF
)

const (
	signMask = 1 << 63
	fracMask = 1<<52 - 1
	hidden   = 1 << 52
	expMax   = 0x7FF
	bias     = 1023
)

func (x F64) exp() int     { return int(x>>52) & expMax }
func (x F64) frac() uint64 { return uint64(x) & fracMask }
func (x F64) sign() bool   { return x&signMask != 0 }

// IsNaN reports whether x is a NaN.
func (x F64) IsNaN() bool { return x&^signMask > Inf }

// IsInf reports whether x is +inf or -inf.
func (x F64) IsInf() bool { return x&^signMask == Inf }

// IsFinite reports whether x is neither infinite nor NaN.
func (x F64) IsFinite() bool { return x&^signMask < Inf }

// IsZero reports whether x is +0 or -0.
func (x F64) IsZero() bool { return x&^signMask == 0 }

// Signbit reports whether the sign bit of x is set (true for -0 and for
// negative NaNs).
func (x F64) Signbit() bool { return x.sign() }

// Neg returns -x (flips the sign bit; exact).
func Neg(x F64) F64 { return x ^ signMask }

// Abs returns |x| (clears the sign bit; exact).
func Abs(x F64) F64 { return x &^ signMask }

// Copysign returns x with the sign of s.
func Copysign(x, s F64) F64 { return x&^signMask | s&signMask }

func pack(sign bool, exp int, sig uint64) F64 {
	var s F64
	if sign {
		s = signMask
	}
	// Addition, not OR: a significand that carries into bit 52 bumps the
	// exponent, which is how rounding up to the next binade works.
	return s + F64(uint64(exp)<<52) + F64(sig)
}

func nanOrInf(sign bool) F64 {
	if sign {
		return NegInf
	}
	return Inf
}

// shiftRightJam shifts a right by dist, OR-ing every bit shifted out into
// bit 0 (the sticky bit) so that rounding still sees the inexactness.
func shiftRightJam(a uint64, dist int) uint64 {
	if dist <= 0 {
		return a
	}
	if dist < 63 {
		r := a >> uint(dist)
		if a<<uint(64-dist) != 0 {
			r |= 1
		}
		return r
	}
	if a != 0 {
		return 1
	}
	return 0
}

// roundPack rounds sig to 53 bits, nearest even, and packs the result.
// sig has its leading one at bit 62 (or lower for results that will be
// subnormal) and ten rounding bits below the 53 kept bits; exp is the biased
// exponent minus one, so that pack's carry from the hidden bit restores it.
// This is SoftFloat 3e's softfloat_roundPackToF64 for round-to-nearest-even.
func roundPack(sign bool, exp int, sig uint64) F64 {
	const roundIncrement = 0x200
	roundBits := sig & 0x3FF
	if exp < 0 || exp >= 0x7FD {
		if exp < 0 {
			sig = shiftRightJam(sig, -exp)
			exp = 0
			roundBits = sig & 0x3FF
		} else if exp > 0x7FD || sig+roundIncrement >= 1<<63 {
			return nanOrInf(sign)
		}
	}
	sig = (sig + roundIncrement) >> 10
	if roundBits == 0x200 {
		sig &^= 1 // a tie: round to even
	}
	if sig == 0 {
		exp = 0
	}
	return pack(sign, exp, sig)
}

// roundNormal is roundPack for 0 <= exp < 0x7FD, where nothing can
// underflow or overflow: the same rounding, small enough to inline into
// the arithmetic (callers test the range and call roundPack otherwise).
func roundNormal(sign bool, exp int, sig uint64) F64 {
	r := (sig + 0x200) >> 10
	if sig&0x3FF == 0x200 {
		r &^= 1 // a tie: round to even
	}
	if r == 0 {
		exp = 0
	}
	return pack(sign, exp, r)
}

// normRoundPack normalises sig so its leading one is at bit 62, then rounds.
func normRoundPack(sign bool, exp int, sig uint64) F64 {
	shift := bits.LeadingZeros64(sig) - 1
	exp -= shift
	if shift >= 10 && uint(exp) < 0x7FD {
		if sig == 0 {
			exp = 0
		}
		return pack(sign, exp, sig<<uint(shift-10))
	}
	return roundPack(sign, exp, sig<<uint(shift))
}

// normSubnormal returns the exponent and significand of a subnormal
// fraction sig (non-zero) normalised so that bit 52 is set.
func normSubnormal(sig uint64) (int, uint64) {
	shift := bits.LeadingZeros64(sig) - 11
	return 1 - shift, sig << uint(shift)
}

// Nextafter returns the next representable value after x towards y (y if
// they are equal, NaN if either is NaN).
func Nextafter(x, y F64) F64 {
	switch {
	case x.IsNaN() || y.IsNaN():
		return NaN
	case Eq(x, y):
		return y
	case x.IsZero():
		return Copysign(1, y) // the smallest subnormal with y's sign
	case Lt(x, y) == !x.sign():
		return x + 1 // away from zero
	}
	return x - 1
}

// Ulp returns the value of the least significant bit of |x| (math.ulp):
// NaN for NaN, inf for infinities.
func Ulp(x F64) F64 {
	x = Abs(x)
	switch {
	case x.IsNaN() || x.IsInf():
		return x
	case x == MaxFinite:
		return Sub(x, x-1)
	}
	return Sub(x+1, x)
}
