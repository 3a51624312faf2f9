package softfloat

import (
	"math/big"
	"sync"
)

// The elementary functions (libm.go) evaluate in big.Float, whose mantissa
// is a slice of machine words operated on by integer instructions only, and
// round once to binary64 at the end. wp is the working precision in bits:
// about 100 bits beyond binary64, so the final rounding is wrong only if the
// exact value lies within 2**-100 ulp of a rounding boundary, and exact
// boundary cases are handled separately where they can occur (Pow).
const wp = 160

// maxTerms bounds every series loop; with the argument reductions below no
// series needs more than about 60 terms at wp bits.
const maxTerms = 400

func newF(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// toBF returns x (finite) exactly as a big.Float of precision prec (>= 53).
func toBF(x F64, prec uint) *big.Float {
	f := newF(prec)
	if x.IsZero() {
		if x.sign() {
			f.Neg(f)
		}
		return f
	}
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e = 1
	} else {
		sig |= hidden
	}
	f.SetUint64(sig)
	f.SetMantExp(f, e-1075)
	if x.sign() {
		f.Neg(f)
	}
	return f
}

// fromBF rounds f to the nearest binary64 (ties to even; ±inf beyond the
// range, a signed zero below it). big.Float.Float64 assembles the result's
// bits from the integer mantissa; it does no float arithmetic.
func fromBF(f *big.Float) F64 {
	v, _ := f.Float64()
	return FromFloat64(v)
}

// half returns 0.5 at precision prec.
func half(prec uint) *big.Float { return newF(prec).SetMantExp(bfInt(1, prec), -1) }

func bfInt(i int64, prec uint) *big.Float { return newF(prec).SetInt64(i) }

var (
	constOnce sync.Once
	bigPi     *big.Float // pi to piPrec bits
	bigLn2    *big.Float // ln 2 to 2*wp bits
	bigLn10   *big.Float // ln 10 to 2*wp bits

	bigInvLn2    *big.Float // 1/ln 2 to 2*wp bits
	bigTwoOverPi *big.Float // 2/pi to piPrec bits
)

// piPrec covers the reduction of the largest binary64 (2**1024) modulo
// pi/2 with wp bits to spare.
const piPrec = 1100 + 2*wp

func constants() {
	constOnce.Do(func() {
		// Machin: pi = 16 atan(1/5) - 4 atan(1/239).
		p := uint(piPrec + 64)
		a := atanInv(5, p)
		b := atanInv(239, p)
		a.Mul(a, bfInt(16, p))
		b.Mul(b, bfInt(4, p))
		bigPi = a.Sub(a, b).SetPrec(piPrec)
		// ln 2 = 2 atanh(1/3); ln 10 = 3 ln 2 + 2 atanh(1/9) (ln(10/8) =
		// 2 atanh((10-8)/(10+8))).
		q := uint(2*wp + 64)
		l2 := atanhInv(3, q)
		l2.Mul(l2, bfInt(2, q))
		l10 := atanhInv(9, q)
		l10.Mul(l10, bfInt(2, q))
		l10.Add(l10, newF(q).Mul(l2, bfInt(3, q)))
		bigLn2 = l2.SetPrec(2 * wp)
		bigLn10 = l10.SetPrec(2 * wp)
		bigInvLn2 = newF(2*wp).Quo(bfInt(1, 2*wp), bigLn2)
		bigTwoOverPi = newF(piPrec).Quo(bfInt(2, piPrec), bigPi)
	})
}

// atanInv returns atan(1/n) = sum (-1)^k / ((2k+1) n^(2k+1)).
func atanInv(n int64, prec uint) *big.Float {
	return invSeries(n, prec, true)
}

// atanhInv returns atanh(1/n) = sum 1 / ((2k+1) n^(2k+1)).
func atanhInv(n int64, prec uint) *big.Float {
	return invSeries(n, prec, false)
}

func invSeries(n int64, prec uint, alternate bool) *big.Float {
	sum := newF(prec)
	pow := newF(prec).Quo(bfInt(1, prec), bfInt(n, prec)) // 1/n^(2k+1)
	n2 := bfInt(n*n, prec)
	t := newF(prec)
	for k := int64(0); k < 4000; k++ {
		t.Quo(pow, bfInt(2*k+1, prec))
		if alternate && k&1 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Sign() == 0 || t.MantExp(nil)-sum.MantExp(nil) < -int(prec)-4 {
			break
		}
		pow.Quo(pow, n2)
	}
	return sum
}

// small reports whether term is negligible next to sum at precision prec.
func small(term, sum *big.Float, prec uint) bool {
	return term.Sign() == 0 || (sum.Sign() != 0 && term.MantExp(nil)-sum.MantExp(nil) < -int(prec)-4)
}

// expm1SmallSlow returns e**r - 1 for |r| <= 1: r is divided by 2**8, the
// series sum r^n/n! (n >= 1) is summed, and e(2+e) undoes each halving. The
// relative error stays near 2**-prec because no step cancels.
func expm1SmallSlow(r *big.Float, prec uint) *big.Float {
	const halvings = 8
	x := newF(prec).SetMantExp(r, -halvings)
	sum := newF(prec).Set(x)
	term := newF(prec).Set(x)
	for n := int64(2); n < maxTerms; n++ {
		term.Mul(term, x)
		term.Quo(term, bfInt(n, prec))
		sum.Add(sum, term)
		if small(term, sum, prec) {
			break
		}
	}
	two := bfInt(2, prec)
	t := newF(prec)
	for i := 0; i < halvings; i++ {
		t.Add(sum, two)
		sum.Mul(sum, t)
	}
	return sum
}

// expBFSlow returns e**x for |x| <= 1200 as a big.Float of precision prec.
func expBFSlow(x *big.Float, prec uint) *big.Float {
	constants()
	p := prec + 16
	// k = round(x / ln2), r = x - k ln2 with |r| <= 0.35.
	q := newF(p).Quo(x, bigLn2)
	k := roundInt(q)
	r := newF(p).Mul(bigLn2, bfInt(k, p))
	r.Sub(newF(p).Set(x), r)
	e := expm1SmallSlow(r, p)
	e.Add(e, bfInt(1, p))
	return e.SetMantExp(e, int(k))
}

// roundInt rounds q to the nearest int64 (half away from zero; the choice
// only affects which reduction is used, not the result).
func roundInt(q *big.Float) int64 {
	h := half(q.Prec())
	if q.Sign() < 0 {
		h.Neg(h)
	}
	h.Add(h, q)
	i, _ := h.Int64()
	return i
}

// logBFSlow returns ln(x) for a finite x > 0 at precision prec.
func logBFSlow(x *big.Float, prec uint) *big.Float {
	constants()
	p := prec + 16
	m := newF(p)
	e := x.MantExp(m) // x = m * 2**e, m in [0.5, 1)
	// Bring m into [sqrt(1/2), sqrt(2)).
	if m.Cmp(sqrtHalf) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	res := log1pNearSlow(m.Sub(m, bfInt(1, p)), p)
	if e != 0 {
		res.Add(res, newF(p).Mul(bigLn2, bfInt(int64(e), p)))
	}
	return res
}

// sqrtHalf is 0.70710678118654757 (a binary64 just above sqrt(1/2)): only
// used to pick a reduction, so it need not be exact.
var sqrtHalf = newF(64).SetMantExp(newF(64).SetUint64(0x16A09E667F3BCD), -53)

// log1pNearSlow returns ln(1+u) for u in about [-0.3, 0.42], exactly represented,
// via 2 atanh(u / (2+u)). Four square roots first shrink the argument when
// |u| is large so that the series needs few terms.
func log1pNearSlow(u *big.Float, prec uint) *big.Float {
	p := prec + 8
	scale := 0
	if u.Sign() != 0 && u.MantExp(nil) > -6 {
		// 1+u -> (1+u)**(1/16): u' = sqrt(1+u) - 1 four times, computed
		// as u/(1+sqrt(1+u)) to avoid cancellation.
		one := bfInt(1, p)
		t := newF(p)
		for i := 0; i < 4; i++ {
			t.Add(one, u)
			t.Sqrt(t)
			t.Add(t, one)
			u = newF(p).Quo(u, t)
		}
		scale = 4
	}
	z := newF(p).Add(u, bfInt(2, p))
	z.Quo(u, z)
	z2 := newF(p).Mul(z, z)
	sum := newF(p).Set(z)
	pow := newF(p).Set(z)
	t := newF(p)
	for k := int64(1); k < maxTerms; k++ {
		pow.Mul(pow, z2)
		t.Quo(pow, bfInt(2*k+1, p))
		sum.Add(sum, t)
		if small(t, sum, p) {
			break
		}
	}
	return sum.SetMantExp(sum, 1+scale)
}

// log1pBF returns ln(1+x) for finite x > -1.
func log1pBF(x *big.Float, prec uint) *big.Float {
	p := prec + 16
	if x.Sign() == 0 {
		return newF(p)
	}
	if e := x.MantExp(nil); e <= -2 { // |x| < 0.25: 1+x stays near 1
		return log1pNear(newF(p).Set(x), p)
	}
	// |x| >= 0.25: 1+x is exact for x < 0 and relatively exact to
	// 2**-p above, with no cancellation.
	s := newF(p).Add(x, bfInt(1, p))
	return logBF(s, p)
}

// reduceHalfPi returns r and k mod 4 with x = k*pi/2 + r, |r| <= pi/4,
// r to about prec bits of relative precision even for the largest x.
func reduceHalfPi(x *big.Float, prec uint) (*big.Float, int) {
	constants()
	ex := x.MantExp(nil)
	p := prec + 70 + uint(max(ex, 0))
	halfPi := newF(p).SetMantExp(bigPi, -1)
	q := newF(p).Mul(x, bigTwoOverPi)
	k := new(big.Int)
	qr := newF(p).Add(q, half(p))
	if q.Sign() < 0 {
		qr.Sub(q, half(p))
	}
	qr.Int(k)
	r := newF(p).Mul(halfPi, newF(p).SetInt(k))
	r.Sub(newF(p).Set(x), r)
	return r.SetPrec(prec + 16), int(new(big.Int).And(k, big.NewInt(3)).Int64())
}

// sinCosSlow returns sin(r) and cos(r) for |r| <= pi/4.
func sinCosSlow(r *big.Float, prec uint) (*big.Float, *big.Float) {
	p := prec + 16
	// Third the argument twice (|r| <= 0.088) and undo with the triple
	// angle formulas sin 3a = 3 sin a - 4 sin^3 a, cos 3a = 4 cos^3 a - 3 cos a.
	const thirds = 2
	a := newF(p).Quo(r, bfInt(9, p))
	s := newF(p).Set(a)
	c := bfInt(1, p)
	term := newF(p).Set(a) // a^n / n!
	for n := int64(2); n < maxTerms; n++ {
		term.Mul(term, a)
		term.Quo(term, bfInt(n, p))
		var dst *big.Float
		if n&1 == 1 {
			dst = s
		} else {
			dst = c
		}
		if (n/2)&1 == 1 {
			dst.Sub(dst, term)
		} else {
			dst.Add(dst, term)
		}
		if n > 4 && small(term, c, p+8) && small(term, s, p+8) {
			break
		}
	}
	three, four := bfInt(3, p), bfInt(4, p)
	t := newF(p)
	for i := 0; i < thirds; i++ {
		// sin 3a = sin a (3 - 4 sin^2 a)
		t.Mul(s, s)
		t.Mul(t, four)
		t.Sub(three, t)
		s.Mul(s, t)
		// cos 3a = cos a (4 cos^2 a - 3)
		t.Mul(c, c)
		t.Mul(t, four)
		t.Sub(t, three)
		c.Mul(c, t)
	}
	return s, c
}

// atanBFSlow returns atan(x) for finite x.
func atanBFSlow(x *big.Float, prec uint) *big.Float {
	constants()
	p := prec + 16
	neg := x.Sign() < 0
	a := newF(p).Abs(x)
	one := bfInt(1, p)
	inv := a.Cmp(one) > 0
	if inv {
		a.Quo(one, a)
	}
	// Halve the angle three times: atan a = 2 atan(a / (1 + sqrt(1 + a^2))).
	const halvings = 3
	t := newF(p)
	for i := 0; i < halvings; i++ {
		t.Mul(a, a)
		t.Add(t, one)
		t.Sqrt(t)
		t.Add(t, one)
		a.Quo(a, t)
	}
	a2 := newF(p).Mul(a, a)
	sum := newF(p).Set(a)
	pow := newF(p).Set(a)
	for k := int64(1); k < maxTerms; k++ {
		pow.Mul(pow, a2)
		t.Quo(pow, bfInt(2*k+1, p))
		if k&1 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if small(t, sum, p) {
			break
		}
	}
	sum.SetMantExp(sum, halvings)
	if inv {
		sum.Sub(newF(p).SetMantExp(bigPi, -1), sum)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}
