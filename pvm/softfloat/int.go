package softfloat

import (
	"errors"
	"math/big"
	"math/bits"
)

// ErrNaN and ErrInf are returned when a NaN or an infinity is converted to
// an integer.
var (
	ErrNaN = errors.New("cannot convert float NaN to integer")
	ErrInf = errors.New("cannot convert float infinity to integer")
)

// FromInt64 returns i rounded to nearest even.
func FromInt64(i int64) F64 {
	if i < 0 {
		return fromUint(true, uint64(-i)) // -MinInt64 wraps to 2**63, as wanted
	}
	return fromUint(false, uint64(i))
}

// FromUint64 returns u rounded to nearest even.
func FromUint64(u uint64) F64 { return fromUint(false, u) }

func fromUint(sign bool, u uint64) F64 {
	if u == 0 {
		return pack(sign, 0, 0)
	}
	if u&(1<<63) != 0 {
		// Leading one at bit 63: shift right one, keeping a sticky bit.
		return roundPack(sign, 0x43D, u>>1|u&1)
	}
	return normRoundPack(sign, 0x43C, u)
}

// FromBig returns b rounded to nearest even; ±inf if it is too large.
func FromBig(b *big.Int) F64 {
	if b.IsInt64() {
		return FromInt64(b.Int64())
	}
	n := b.BitLen()
	neg := b.Sign() < 0
	// Keep the top 63 bits and fold everything below into a sticky bit.
	shift := uint(n - 63)
	top := new(big.Int).Abs(b)
	sticky := top.TrailingZeroBits() < shift
	top.Rsh(top, shift)
	sig := top.Uint64()
	if sticky {
		sig |= 1
	}
	// sig has its leading one at bit 62 and stands for b / 2**shift.
	exp := 0x43C + int(shift)
	if exp >= 0x7FF {
		return nanOrInf(neg)
	}
	return roundPack(neg, exp, sig)
}

// FromRat returns num/den rounded to nearest even (den != 0); ±inf if the
// quotient is too large, a signed zero if it is too small.
func FromRat(num, den *big.Int) F64 {
	neg := (num.Sign() < 0) != (den.Sign() < 0)
	if num.Sign() == 0 {
		return pack(neg, 0, 0)
	}
	n := new(big.Int).Abs(num)
	d := new(big.Int).Abs(den)
	// Scale so the integer quotient has exactly 63 bits: q = n*2**s / d
	// with 2**62 <= q < 2**63, then the value is q * 2**-s.
	s := 63 - (n.BitLen() - d.BitLen())
	if s > 0 {
		n.Lsh(n, uint(s))
	} else if s < 0 {
		d.Lsh(d, uint(-s))
	}
	q, r := new(big.Int).QuoRem(n, d, new(big.Int))
	if q.BitLen() > 63 {
		// The guess was one too high; bring the quotient back to 63 bits.
		if q.Bit(0) == 1 {
			r.SetInt64(1)
		}
		q.Rsh(q, 1)
		s--
	}
	sig := q.Uint64()
	if r.Sign() != 0 {
		sig |= 1
	}
	// value = sig * 2**-s, sig's leading one at bit 62.
	exp := 0x43C - s
	if exp >= 0x7FF {
		return nanOrInf(neg)
	}
	if exp < -1100 {
		return pack(neg, 0, 0)
	}
	return roundPack(neg, exp, sig)
}

// Trunc returns x rounded toward zero to an integral value.
func Trunc(x F64) F64 {
	e := x.exp()
	if e >= bias+52 || e == expMax {
		return x // integral already, or inf/NaN
	}
	if e < bias {
		return x & signMask // |x| < 1
	}
	fracBits := uint(bias + 52 - e)
	return x &^ (1<<fracBits - 1)
}

// Floor returns the greatest integral value <= x.
func Floor(x F64) F64 {
	t := Trunc(x)
	if x.sign() && t != x && !x.IsNaN() {
		return Sub(t, One)
	}
	return t
}

// Ceil returns the least integral value >= x.
func Ceil(x F64) F64 {
	t := Trunc(x)
	if !x.sign() && t != x && !x.IsNaN() {
		return Add(t, One)
	}
	if t.IsZero() && x.sign() {
		return NegZero
	}
	return t
}

// RoundEven returns x rounded to the nearest integral value, ties to even
// (Python's round(x) for a float).
func RoundEven(x F64) F64 {
	e := x.exp()
	if e >= bias+52 || e == expMax {
		return x
	}
	if e < bias-1 {
		return x & signMask // |x| < 0.5
	}
	t := Trunc(x)
	diff := Abs(Sub(x, t)) // exact: both share the binade's ulp grid
	half := F64(0x3FE0000000000000)
	if Lt(half, diff) || (diff == half && isOdd(t)) {
		if x.sign() {
			return Sub(t, One)
		}
		return Add(t, One)
	}
	if t.IsZero() {
		return x & signMask
	}
	return t
}

// isOdd reports whether the integral value t is odd.
func isOdd(t F64) bool {
	e := t.exp()
	if e < bias || e > bias+52 {
		return false
	}
	return (t.frac()|hidden)>>uint(bias+52-e)&1 == 1
}

// ToInt64 truncates x toward zero; ok is false for NaN, infinities and
// values outside the int64 range.
func ToInt64(x F64) (int64, bool) {
	e := x.exp()
	if e == expMax {
		return 0, false
	}
	if e < bias {
		return 0, true
	}
	if e >= bias+63 {
		if x == F64(0xC3E0000000000000) { // -2**63
			return -1 << 63, true
		}
		return 0, false
	}
	m := x.frac() | hidden
	var u uint64
	if e >= bias+52 {
		u = m << uint(e-bias-52)
	} else {
		u = m >> uint(bias+52-e)
	}
	if x.sign() {
		return -int64(u), true
	}
	return int64(u), true
}

// ToBig truncates x toward zero to an integer. It returns ErrNaN or ErrInf
// for the values that have no integer.
func ToBig(x F64) (*big.Int, error) {
	if x.IsNaN() {
		return nil, ErrNaN
	}
	if x.IsInf() {
		return nil, ErrInf
	}
	if i, ok := ToInt64(x); ok {
		return big.NewInt(i), nil
	}
	e := x.exp()
	m := new(big.Int).SetUint64(x.frac() | hidden)
	m.Lsh(m, uint(e-bias-52)) // e >= bias+63 here
	if x.sign() {
		m.Neg(m)
	}
	return m, nil
}

// Frexp splits x into a fraction f with 0.5 <= |f| < 1 and an exponent e
// such that x = f * 2**e. Zeros, infinities and NaN come back unchanged with
// e = 0.
func Frexp(x F64) (F64, int) {
	if x.IsZero() || !x.IsFinite() {
		return x, 0
	}
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e, sig = normSubnormal(sig)
		sig &= fracMask
	}
	return x&signMask | F64(bias-1)<<52 | F64(sig), e - (bias - 1)
}

// Ldexp returns x * 2**n, correctly rounded (it rounds only when the result
// is subnormal), ±inf on overflow.
func Ldexp(x F64, n int) F64 {
	if x.IsZero() || !x.IsFinite() {
		return x
	}
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e, sig = normSubnormal(sig)
	}
	sig |= hidden
	if n > 5000 {
		n = 5000
	} else if n < -5000 {
		n = -5000
	}
	return roundPack(x.sign(), e+n-1, sig<<10)
}

// ilog2 is the floor of log2(|x|) for a finite non-zero x.
func ilog2(x F64) int {
	e, sig := x.exp(), x.frac()
	if e == 0 {
		return -bias - 51 + 63 - bits.LeadingZeros64(sig)
	}
	return e - bias
}
