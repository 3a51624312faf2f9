package softfloat

import (
	"math/big"
	"math/bits"
)

// The elementary functions below follow C99 Annex F for special values
// (which is what CPython's math module builds its checks on) and otherwise
// return the binary64 nearest to the exact result, computed at wp bits in
// big.Float (see mp.go). A NaN result from a non-NaN argument is a domain
// error and an infinite result from a finite argument is a pole or an
// overflow; the caller (pvm/modules/math.go) turns those into Python's
// ValueError and OverflowError as CPython's math_1 does.

// Exp returns e**x.
func Exp(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x == Inf:
		return Inf
	case x == NegInf:
		return Zero
	case x.IsZero():
		return One
	}
	if a := ilog2(x); a >= 11 { // |x| >= 2048: certainly out of range
		if x.sign() {
			return Zero
		}
		return Inf
	}
	if r, ok := expFast(x); ok {
		return r
	}
	return fromBF(expBF(toBF(x, 64), wp))
}

// Expm1 returns e**x - 1, accurate for x near 0.
func Expm1(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x == Inf:
		return Inf
	case x == NegInf:
		return Neg(One)
	case x.IsZero():
		return x
	}
	if a := ilog2(x); a >= 11 {
		if x.sign() {
			return Neg(One)
		}
		return Inf
	}
	if r, ok := expm1Fast(x); ok {
		return r
	}
	return fromBF(expm1BF(toBF(x, 64), wp))
}

func expm1BF(x *big.Float, prec uint) *big.Float {
	if x.MantExp(nil) <= 0 { // |x| < 1
		return expm1Small(newF(prec+16).Set(x), prec+16)
	}
	e := expBF(x, prec+16)
	return e.Sub(e, bfInt(1, prec+16))
}

// Log returns the natural logarithm of x: -inf for ±0, NaN for x < 0.
func Log(x F64) F64 { return logTo(x, nil, nil) }

// Log2 returns the base-2 logarithm of x (exact for powers of two).
func Log2(x F64) F64 {
	fxTables()
	return logTo(x, bigLn2, &fxInvLn2)
}

// Log10 returns the base-10 logarithm of x (exact for powers of ten).
func Log10(x F64) F64 {
	fxTables()
	return logTo(x, bigLn10, &fxInvLn10)
}

func logTo(x F64, lnBase *big.Float, fxScale *fx) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x.IsZero():
		return NegInf
	case x.sign():
		return NaN
	case x == Inf:
		return Inf
	case x == One:
		return Zero
	}
	if r, ok := logFast(x, fxScale); ok {
		return r
	}
	l := logBF(toBF(x, 64), wp)
	if lnBase != nil {
		l.Quo(l, lnBase)
	}
	return fromBF(l)
}

// Log1p returns ln(1+x), accurate for x near 0: -inf for -1, NaN below.
func Log1p(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x == Inf:
		return Inf
	case x.IsZero():
		return x
	}
	if r, ok := log1pFast(x); ok {
		return r
	}
	m1 := Neg(One)
	if Lt(x, m1) {
		return NaN
	}
	if x == m1 {
		return NegInf
	}
	return fromBF(log1pBF(toBF(x, 64), wp))
}

// isInt reports whether a finite y is an integer, and whether it is odd.
func isInt(y F64) (integral, odd bool) {
	if !y.IsFinite() {
		return false, false
	}
	if Trunc(y) != y {
		return false, false
	}
	return true, isOdd(y)
}

// Pow returns x**y with C99's special cases: pow(x, ±0) = 1 and pow(1, y)
// = 1 even for NaN, pow(±0, y<0) = ±inf (a pole), pow(x<0, non-integer) =
// NaN, and overflow to ±inf.
func Pow(x, y F64) F64 {
	switch {
	case y.IsZero() || x == One:
		return One
	case x.IsNaN() || y.IsNaN():
		return NaN
	}
	yInt, yOdd := isInt(y)
	switch {
	case x.IsZero():
		switch {
		case y.sign() && yOdd:
			return Copysign(Inf, x)
		case y.sign():
			return Inf
		case yOdd:
			return x
		}
		return Zero
	case y.IsInf():
		ax := Abs(x)
		switch {
		case ax == One:
			return One
		case Lt(ax, One) == y.sign():
			return Inf
		}
		return Zero
	case x.IsInf():
		if y.sign() {
			if x.sign() && yOdd {
				return NegZero
			}
			return Zero
		}
		if x.sign() && yOdd {
			return NegInf
		}
		return Inf
	}
	neg := false
	if x.sign() {
		if !yInt {
			return NaN
		}
		neg = yOdd
		x = Abs(x)
	}
	r := powPos(x, y, yInt)
	if neg {
		r = Neg(r)
	}
	return r
}

// powPos is x**y for finite x > 0, x != 1, finite y != 0.
func powPos(x, y F64, yInt bool) F64 {
	// Single correctly rounded operations first.
	switch y {
	case One:
		return x
	case F64(0x4000000000000000): // 2
		return Mul(x, x)
	case F64(0xBFF0000000000000): // -1
		return Div(One, x)
	case F64(0x3FE0000000000000): // 0.5
		return Sqrt(x)
	}
	if yInt {
		if x.frac() == 0 && x.exp() != 0 {
			// A power of two: 2**(e*y), exact or correctly rounded by
			// Ldexp; |e*y| beyond 4000 is far out of range either way.
			e := int64(x.exp() - bias)
			n, _ := ToInt64(y)
			if ilog2(y) >= 20 {
				n = 1 << 20
				if y.sign() {
					n = -n
				}
			}
			p := e * n
			if p > 4000 {
				p = 4000
			} else if p < -4000 {
				p = -4000
			}
			return Ldexp(One, int(p))
		}
		if ilog2(y) < 6 { // |y| < 64: the exact power, rounded once
			n, _ := ToInt64(y)
			return powIntExact(x, n)
		}
	}
	if r, ok := powFast(x, y); ok {
		return r
	}
	lx := logBF(toBF(x, 64), wp+32)
	l := lx.Mul(lx, toBF(y, wp+32))
	if l.MantExp(nil) > 11 { // |y log x| >= 2048
		if l.Sign() > 0 {
			return Inf
		}
		return Zero
	}
	r := expBF(l, wp)
	if t, ok := powTie(x, y, r); ok {
		return t
	}
	return fromBF(r)
}

// powIntExact returns x**n for |n| < 64, n not 0: the exact integer power of
// the significand, rounded once (a reciprocal for n < 0, which cannot be a
// rounding tie because 1/x**n is not dyadic unless x is a power of two).
func powIntExact(x F64, n int64) F64 {
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e = 1
	} else {
		sig |= hidden
	}
	tz := bits.TrailingZeros64(sig)
	sig >>= uint(tz)
	e2 := int64(e - 1075 + tz) // x = sig * 2**e2, sig odd
	neg := n < 0
	if neg {
		n = -n
	}
	a := new(big.Int).Exp(new(big.Int).SetUint64(sig), big.NewInt(n), nil)
	f := newF(uint(max(a.BitLen(), 64))).SetInt(a)
	if e2*n > 1<<30 || e2*n < -(1<<30) {
		panic("unreachable: |x**n| exponent out of big.Float range")
	}
	f.SetMantExp(f, int(e2*n))
	if neg {
		f = newF(wp).Quo(bfInt(1, wp), f)
	}
	return fromBF(f)
}

// powTie catches the one case where rounding an approximation of x**y is
// not enough: the exact power is a binary64 midpoint. That needs y = p/2**k
// with k <= 5 (for k >= 6 the odd part of x would have to be a 64th power
// within 53 bits, i.e. 1, and then x**y is a power of two); it then checks
// M**(2**k) == x**p exactly for the candidate midpoint M.
func powTie(x, y F64, r *big.Float) (F64, bool) {
	// Round r to 54 bits; a midpoint has its 54th bit set.
	m := newF(54).Set(r)
	mant := new(big.Int)
	mf := newF(54)
	mexp := m.MantExp(mf)
	mf.SetMantExp(mf, 54)
	mf.Int(mant)
	if mant.Bit(0) == 0 {
		return 0, false
	}
	diff := newF(wp).Sub(r, m)
	if diff.Sign() != 0 && diff.MantExp(nil)-mexp > -wp+24 {
		return 0, false
	}
	// y = p / 2**k.
	k := 0
	for Trunc(y) != y {
		y = Ldexp(y, 1)
		k++
		if k > 5 {
			return 0, false
		}
	}
	p, ok := ToInt64(y)
	if !ok || p <= 0 || p > 4096 {
		return 0, false
	}
	// Compare odd parts and exponents: x = a * 2**i, M = b * 2**j.
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e = 1
	} else {
		sig |= hidden
	}
	tz := bits.TrailingZeros64(sig)
	a, i := new(big.Int).SetUint64(sig>>uint(tz)), int64(e-1075+tz)
	b, j := mant, int64(mexp-54)
	tzb := b.TrailingZeroBits()
	b.Rsh(b, tzb)
	j += int64(tzb)
	if j<<uint(k) != i*p {
		return 0, false
	}
	lhs := new(big.Int).Exp(b, big.NewInt(1<<uint(k)), nil)
	if lhs.BitLen() > 64*1024 {
		return 0, false
	}
	if lhs.Cmp(new(big.Int).Exp(a, big.NewInt(p), nil)) != 0 {
		return 0, false
	}
	return fromBF(m), true // m is exactly the midpoint: ties to even
}

// Sin returns the sine of x (NaN for infinities).
func Sin(x F64) F64 { return trig(x, 0) }

// Cos returns the cosine of x (NaN for infinities).
func Cos(x F64) F64 { return trig(x, 1) }

// Tan returns the tangent of x (NaN for infinities).
func Tan(x F64) F64 { return trig(x, 2) }

func trig(x F64, fn int) F64 {
	if !x.IsFinite() {
		return NaN
	}
	if x.IsZero() {
		if fn == 1 {
			return One
		}
		return x
	}
	if r, ok := trigFast(x, fn); ok {
		return r
	}
	r, k := reduceHalfPi(toBF(x, 64), wp)
	s, c := sinCosSeries(r, wp)
	switch fn {
	case 0:
		switch k {
		case 1:
			return fromBF(c)
		case 2:
			return fromBF(s.Neg(s))
		case 3:
			return fromBF(c.Neg(c))
		}
		return fromBF(s)
	case 1:
		switch k {
		case 1:
			return fromBF(s.Neg(s))
		case 2:
			return fromBF(c.Neg(c))
		case 3:
			return fromBF(s)
		}
		return fromBF(c)
	}
	if k&1 == 1 {
		c.Neg(c)
		return fromBF(c.Quo(c, s))
	}
	return fromBF(s.Quo(s, c))
}

// Atan returns the arctangent of x in [-pi/2, pi/2].
func Atan(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x.IsZero():
		return x
	case x.IsInf():
		return Copysign(halfPiF64(), x)
	}
	if r, ok := atanFast(x); ok {
		return r
	}
	return fromBF(atanBF(toBF(x, 64), wp))
}

func halfPiF64() F64 {
	constants()
	return fromBF(newF(wp).SetMantExp(bigPi, -1))
}

// Pi is the binary64 nearest to pi.
func Pi() F64 {
	constants()
	return fromBF(bigPi)
}

// E is the binary64 nearest to e.
func E() F64 { return Exp(One) }

// Asin returns the arcsine of x (NaN for |x| > 1).
func Asin(x F64) F64 {
	switch {
	case x.IsNaN() || Lt(One, Abs(x)):
		return NaN
	case x.IsZero():
		return x
	case Abs(x) == One:
		return Copysign(halfPiF64(), x)
	}
	if r, ok := asinAcosFast(x, false); ok {
		return r
	}
	// asin x = atan(x / sqrt((1-x)(1+x))); 1-x and 1+x are exact.
	p := uint(wp + 32)
	b := toBF(x, p)
	one := bfInt(1, p)
	d := newF(p).Sub(one, b)
	d.Mul(d, newF(p).Add(one, b))
	d.Sqrt(d)
	return fromBF(atanBF(d.Quo(b, d), wp))
}

// Acos returns the arccosine of x (NaN for |x| > 1).
func Acos(x F64) F64 {
	switch {
	case x.IsNaN() || Lt(One, Abs(x)):
		return NaN
	case x == One:
		return Zero
	case x == Neg(One):
		return Pi()
	}
	if r, ok := asinAcosFast(x, true); ok {
		return r
	}
	// acos x = 2 atan(sqrt((1-x)/(1+x))).
	p := uint(wp + 32)
	b := toBF(x, p)
	one := bfInt(1, p)
	q := newF(p).Sub(one, b)
	q.Quo(q, newF(p).Add(one, b))
	q.Sqrt(q)
	a := atanBF(q, wp)
	return fromBF(a.SetMantExp(a, 1))
}

// Atan2 returns the angle of the point (x, y), C99 special cases included.
func Atan2(y, x F64) F64 {
	constants()
	pi := Pi()
	switch {
	case x.IsNaN() || y.IsNaN():
		return NaN
	case y.IsZero():
		if x.sign() { // x < 0 or x is -0
			return Copysign(pi, y)
		}
		return y
	case y.IsInf():
		switch x {
		case Inf:
			return Copysign(fromBF(newF(wp).SetMantExp(bigPi, -2)), y)
		case NegInf:
			t := newF(wp).SetMantExp(bigPi, -2)
			t.Mul(t, bfInt(3, wp))
			return Copysign(fromBF(t), y)
		}
		return Copysign(halfPiF64(), y)
	case x.IsZero():
		return Copysign(halfPiF64(), y)
	case x == Inf:
		return y & signMask
	case x == NegInf:
		return Copysign(pi, y)
	}
	if r, ok := atan2Fast(y, x); ok {
		return r
	}
	p := uint(wp + 32)
	q := newF(p).Quo(toBF(Abs(y), p), toBF(Abs(x), p))
	a := atanBF(q, wp+16)
	if x.sign() {
		a.Sub(newF(wp+16).Set(bigPi), a)
	}
	if y.sign() {
		a.Neg(a)
	}
	return fromBF(a)
}

// Sinh returns the hyperbolic sine of x.
func Sinh(x F64) F64 {
	if x.IsNaN() || x.IsInf() || x.IsZero() {
		return x
	}
	if ilog2(x) >= 11 {
		return Copysign(Inf, x)
	}
	if r, ok := hyperFast(x, 0); ok {
		return r
	}
	p := uint(wp + 16)
	b := toBF(x, p)
	var s *big.Float
	if b.MantExp(nil) <= 0 { // |x| < 1: difference of expm1s, no cancellation
		s = expm1Small(newF(p).Set(b), p)
		s.Sub(s, expm1Small(newF(p).Neg(b), p))
	} else {
		s = expBF(b, p)
		s.Sub(s, expBF(newF(p).Neg(b), p))
	}
	return fromBF(s.SetMantExp(s, -1))
}

// Cosh returns the hyperbolic cosine of x.
func Cosh(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x.IsInf():
		return Inf
	case x.IsZero():
		return One
	}
	if ilog2(x) >= 11 {
		return Inf
	}
	if r, ok := hyperFast(x, 1); ok {
		return r
	}
	p := uint(wp + 16)
	b := toBF(x, p)
	s := expBF(b, p)
	s.Add(s, expBF(newF(p).Neg(b), p))
	return fromBF(s.SetMantExp(s, -1))
}

// Tanh returns the hyperbolic tangent of x.
func Tanh(x F64) F64 {
	switch {
	case x.IsNaN() || x.IsZero():
		return x
	case x.IsInf():
		return Copysign(One, x)
	}
	if ilog2(x) >= 6 { // |x| >= 64: tanh is 1 to far beyond 2**-53
		return Copysign(One, x)
	}
	if r, ok := hyperFast(x, 2); ok {
		return r
	}
	p := uint(wp + 16)
	b := toBF(x, p)
	b.SetMantExp(b, 1)
	e := expm1BF(b, p) // tanh x = expm1(2x) / (expm1(2x) + 2)
	d := newF(p).Add(e, bfInt(2, p))
	return fromBF(e.Quo(e, d))
}

// Asinh returns the inverse hyperbolic sine of x.
func Asinh(x F64) F64 {
	if x.IsNaN() || x.IsInf() || x.IsZero() {
		return x
	}
	if r, ok := asinhAcoshFast(x, false); ok {
		return r
	}
	// asinh |x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), all terms >= 0.
	p := uint(wp + 16)
	a := toBF(Abs(x), p)
	one := bfInt(1, p)
	t := newF(p).Mul(a, a)
	s := newF(p).Add(t, one)
	s.Sqrt(s)
	s.Add(s, one)
	t.Quo(t, s)
	t.Add(t, a)
	r := log1pBF(t, wp)
	if x.sign() {
		r.Neg(r)
	}
	return fromBF(r)
}

// Acosh returns the inverse hyperbolic cosine of x (NaN for x < 1).
func Acosh(x F64) F64 {
	switch {
	case x.IsNaN() || Lt(x, One):
		return NaN
	case x == Inf:
		return Inf
	case x == One:
		return Zero
	}
	if r, ok := asinhAcoshFast(x, true); ok {
		return r
	}
	// acosh x = log1p((x-1) + sqrt((x-1)(x+1))).
	p := uint(wp + 16)
	b := toBF(x, p)
	one := bfInt(1, p)
	xm1 := newF(p).Sub(b, one)
	s := newF(p).Add(b, one)
	s.Mul(s, xm1)
	s.Sqrt(s)
	s.Add(s, xm1)
	return fromBF(log1pBF(s, wp))
}

// Atanh returns the inverse hyperbolic tangent of x: ±inf at ±1, NaN
// beyond.
func Atanh(x F64) F64 {
	switch {
	case x.IsNaN() || x.IsZero():
		return x
	case Lt(One, Abs(x)):
		return NaN
	case Abs(x) == One:
		return Copysign(Inf, x)
	}
	if r, ok := atanhFast(x); ok {
		return r
	}
	// atanh |x| = log1p(2|x| / (1-|x|)) / 2.
	p := uint(wp + 16)
	a := toBF(Abs(x), p)
	d := newF(p).Sub(bfInt(1, p), a)
	u := newF(p).SetMantExp(a, 1)
	u.Quo(u, d)
	r := log1pBF(u, wp)
	r.SetMantExp(r, -1)
	if x.sign() {
		r.Neg(r)
	}
	return fromBF(r)
}

// Hypot returns sqrt(sum of squares) of xs, correctly rounded: +inf if any
// element is infinite (even with a NaN present), else NaN if any is NaN, and
// +inf if the exact result is beyond the binary64 range.
func Hypot(xs ...F64) F64 {
	nan := false
	for _, x := range xs {
		if x.IsInf() {
			return Inf
		}
		nan = nan || x.IsNaN()
	}
	if nan {
		return NaN
	}
	if r, ok := hypotFast(xs); ok {
		return r
	}
	// Squares are exact at 106 bits; the sum is exact at 4400 bits (the
	// squares span 2**-2148 .. 2**2048), so a result that is exactly a
	// binary64 midpoint is seen as one and rounds to even.
	sum := newF(4400)
	for _, x := range xs {
		b := toBF(x, 110)
		sum.Add(sum, b.Mul(b, b))
	}
	if sum.Sign() == 0 {
		return Zero
	}
	return fromBF(newF(wp).Sqrt(sum))
}

// PowNeedsLog reports whether Pow(x, y) for finite x > 0 and finite y takes
// the general exp(y log x) path (microseconds) rather than one of the exact
// shortcuts (a square, a square root, an inverse, a power of two, or an
// integer power below 64). The PVM meters the two differently.
func PowNeedsLog(x, y F64) bool {
	switch y {
	case One, F64(0x4000000000000000), F64(0xBFF0000000000000), F64(0x3FE0000000000000):
		return false
	}
	if yInt, _ := isInt(y); yInt {
		x = Abs(x)
		if (x.frac() == 0 && x.exp() != 0) || y.IsZero() || ilog2(y) < 6 {
			return false
		}
	}
	return !(x.IsZero() || !x.IsFinite() || !y.IsFinite() || y.IsZero() || Abs(x) == One)
}
