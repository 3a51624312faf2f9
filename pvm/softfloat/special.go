package softfloat

import (
	"math/big"
	"sync"
)

// The functions CPython 3.11's math module adds beyond the C99 elementary
// ones: cbrt, exp2, remainder, erf, erfc, gamma and lgamma. Like libm.go
// they follow C99 Annex F for special values and otherwise round a
// big.Float evaluation once to binary64:
//
//   - Remainder is exact (IEEE 754 remainder is always representable) and
//     computed on integers.
//   - Exp2 is Pow(2, x), so correctly rounded with its exact cases.
//   - Cbrt, Erf, Erfc, Gamma and Lgamma evaluate at spWP bits (about 250
//     bits beyond binary64, more where a subtraction cancels) and round
//     once: the result is the correctly rounded one unless the exact value
//     lies within about 2**-250 ulp of a rounding midpoint. Gamma of an
//     integer is computed as an exact factorial, so its ties round to even.
//
// CPython takes cbrt, erf, erfc from the platform libm and computes gamma
// and lgamma with its own Lanczos approximation; those are within a few
// ulps. testdata/special_cpython.txt records CPython's results on a sample
// and TestSpecialAgainstCPython bounds every difference.

// spWP is the working precision of the special functions in bits.
const spWP = 320

// Exp2 returns 2**x.
func Exp2(x F64) F64 { return Pow(FromInt64(2), x) }

// Remainder returns the IEEE 754 remainder x - n*y, where n is x/y rounded
// to the nearest integer (ties to even): NaN for an infinite x or a zero y,
// x for an infinite y. A zero result has the sign of x.
func Remainder(x, y F64) F64 {
	switch {
	case x.IsNaN() || y.IsNaN():
		return NaN
	case x.IsInf() || y.IsZero():
		return NaN
	case y.IsInf():
		return x
	}
	// Both finite: as integers in units of 2**-1074, exact.
	X, Y := scaledInt(x), scaledInt(y)
	Y.Abs(Y)
	ax := new(big.Int).Abs(X)
	q, r := new(big.Int).QuoRem(ax, Y, new(big.Int))
	twice := new(big.Int).Lsh(r, 1)
	if c := twice.Cmp(Y); c > 0 || (c == 0 && q.Bit(0) == 1) {
		r.Sub(r, Y)
	}
	if x.sign() {
		r.Neg(r)
	}
	if r.Sign() == 0 {
		return Copysign(Zero, x)
	}
	f := new(big.Float).SetPrec(1200).SetInt(r)
	f.SetMantExp(f, -1074)
	return fromBF(f)
}

// scaledInt returns x * 2**1074 as an integer (exact for every finite x).
func scaledInt(x F64) *big.Int {
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e = 1
	} else {
		sig |= hidden
	}
	n := new(big.Int).SetUint64(sig)
	n.Lsh(n, uint(e-1))
	if x.sign() {
		n.Neg(n)
	}
	return n
}

// Cbrt returns the real cube root of x (cbrt(-8) = -2).
func Cbrt(x F64) F64 {
	if !x.IsFinite() || x.IsZero() {
		return x
	}
	a := toBF(Abs(x), spWP)
	// Newton from above, y <- y - (y**3 - a) / (3 y**2), converges
	// monotonically once y >= cbrt(a); 2**ceil((e+1)/3) is such a start.
	e := a.MantExp(nil)
	y := newF(spWP).SetMantExp(bfInt(1, spWP), (e+3)/3+1)
	t, u := newF(spWP), newF(spWP)
	three := bfInt(3, spWP)
	for i := 0; i < 200; i++ {
		t.Mul(y, y)
		u.Mul(t, y)
		u.Sub(u, a)
		if u.Sign() <= 0 {
			break
		}
		t.Mul(t, three)
		u.Quo(u, t)
		if u.Sign() == 0 || u.MantExp(nil)-y.MantExp(nil) < -spWP+2 {
			y.Sub(y, u)
			break
		}
		y.Sub(y, u)
	}
	r := fromBF(y)
	if x.sign() {
		r = Neg(r)
	}
	return r
}

// Erf returns the error function 2/sqrt(pi) * integral_0^x e**(-t**2) dt.
func Erf(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x.IsInf():
		return Copysign(One, x)
	case x.IsZero():
		return x
	}
	ax := Abs(x)
	var r *big.Float
	if Lt(ax, FromInt64(6)) {
		r = erfSeries(toBF(ax, spWP), spWP)
	} else {
		// erf = 1 - erfc, and erfc(6) < 2**-54: 1 dominates.
		c := erfcBig(toBF(ax, spWP), spWP)
		r = newF(spWP).Sub(bfInt(1, spWP), c)
	}
	if x.sign() {
		r.Neg(r)
	}
	return fromBF(r)
}

// Erfc returns the complementary error function 1 - erf(x), accurate when
// it is tiny.
func Erfc(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x == Inf:
		return Zero
	case x == NegInf:
		return FromInt64(2)
	case x.IsZero():
		return One
	}
	ax := Abs(x)
	if !x.sign() && !Lt(ax, FromInt64(28)) {
		// erfc(28) < 2**-1135: below half the least subnormal.
		return Zero
	}
	if x.sign() && !Lt(ax, FromInt64(10)) {
		// 2 - erfc(10) with erfc(10) < 2**-150: rounds to 2.
		return FromInt64(2)
	}
	c := erfcBig(toBF(ax, spWP), spWP)
	if x.sign() {
		c.Sub(bfInt(2, spWP), c)
	}
	return fromBF(c)
}

// erfcBig returns erfc(a) for a > 0 to prec bits of relative precision.
func erfcBig(a *big.Float, prec uint) *big.Float {
	if a.Cmp(bfInt(8, prec)) < 0 {
		// 1 - erf(a) cancels about a**2 * 1.45 < 93 bits: carry them.
		p := prec + 100
		e := erfSeries(newF(p).Set(a), p)
		return e.Sub(bfInt(1, p), e).SetPrec(prec)
	}
	return erfcCF(a, prec)
}

// erfSeries returns erf(a) for 0 < a < 6 as 2a/sqrt(pi) e**(-a**2)
// sum (2a**2)**n / (1*3*...*(2n+1)), whose terms are all positive, so no
// digit cancels.
func erfSeries(a *big.Float, prec uint) *big.Float {
	p := prec + 16
	a2 := newF(p).Mul(a, a)
	two := newF(p).Add(a2, a2) // 2a^2
	sum := bfInt(1, p)
	term := bfInt(1, p)
	for n := int64(1); n < 4000; n++ {
		term.Mul(term, two)
		term.Quo(term, bfInt(2*n+1, p))
		sum.Add(sum, term)
		if small(term, sum, p) {
			break
		}
	}
	e := expBFSlow(newF(p).Neg(a2), p)
	sum.Mul(sum, e)
	sum.Mul(sum, a)
	sum.Mul(sum, twoOverSqrtPi(p))
	return sum
}

// erfcCF returns erfc(a) for a >= 8 from Laplace's continued fraction
// erfc(a) = e**(-a**2)/sqrt(pi) * 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))),
// evaluated backwards from a depth that bounds its truncation error below
// 2**-(prec+8).
func erfcCF(a *big.Float, prec uint) *big.Float {
	af, _ := a.Int64()
	return erfcCFDepth(a, prec, erfcDepth(af, prec))
}

// erfcDepth is the continued fraction's depth for erfc(a), a >= 5 (a
// truncated to an integer), at prec bits: the truncation error falls
// roughly like exp(-2 a sqrt(2 depth)), so the depth grows with the square
// of prec/a (TestErfcDepth checks it against four times the depth).
func erfcDepth(a int64, prec uint) int64 {
	q := int64(prec)/a + 1
	return q*q/5 + 40
}

func erfcCFDepth(a *big.Float, prec uint, depth int64) *big.Float {
	p := prec + 32
	aa := newF(p).Set(a)
	f := newF(p).Set(aa)
	t := newF(p)
	for k := depth; k >= 1; k-- {
		// f <- a + (k/2) / f
		t.Quo(bfInt(k, p), f)
		t.SetMantExp(t, -1)
		f.Add(aa, t)
	}
	a2 := newF(p).Mul(aa, aa)
	e := expBFSlow(a2.Neg(a2), p)
	e.Quo(e, f)
	e.Mul(e, twoOverSqrtPi(p))
	return e.SetMantExp(e, -1).SetPrec(prec)
}

var (
	spOnce      sync.Once
	spTwoSqrtPi *big.Float // 2/sqrt(pi)
	spPi        *big.Float // pi at spWP+64 bits
	spLnSqrt2Pi *big.Float // ln(2 pi)/2
	spBernoulli []*big.Float
)

// spNumBernoulli is the number of Stirling terms: with z >= spStirlingMin
// the last term is below 2**-330 of the sum.
const (
	spNumBernoulli = 60
	spStirlingMin  = 40
)

func spConstants() {
	spOnce.Do(func() {
		constants()
		p := uint(spWP + 64)
		spPi = newF(p).Set(bigPi)
		sq := newF(p).Sqrt(spPi)
		spTwoSqrtPi = newF(p).Quo(bfInt(2, p), sq)
		twoPi := newF(p).Add(spPi, spPi)
		l := logBFSlow(twoPi, p)
		spLnSqrt2Pi = l.SetMantExp(l, -1)
		// Stirling coefficients B_2k / (2k (2k-1)) from the Bernoulli
		// numbers (Akiyama-Tanigawa, exact rationals).
		n := 2 * spNumBernoulli
		b := bernoulli(n)
		for k := 1; k <= spNumBernoulli; k++ {
			c := new(big.Rat).Quo(b[2*k], big.NewRat(int64(2*k*(2*k-1)), 1))
			spBernoulli = append(spBernoulli, newF(p).SetRat(c))
		}
	})
}

// bernoulli returns B_0..B_n (B_1 = +1/2 convention; only even ones used).
func bernoulli(n int) []*big.Rat {
	out := make([]*big.Rat, n+1)
	a := make([]*big.Rat, n+1)
	for m := 0; m <= n; m++ {
		a[m] = big.NewRat(1, int64(m+1))
		for j := m; j >= 1; j-- {
			d := new(big.Rat).Sub(a[j-1], a[j])
			a[j-1] = d.Mul(d, big.NewRat(int64(j), 1))
		}
		out[m] = new(big.Rat).Set(a[0])
	}
	return out
}

func twoOverSqrtPi(prec uint) *big.Float {
	spConstants()
	return newF(prec).Set(spTwoSqrtPi)
}

// lnGammaPos returns ln Gamma(z) for z > 0 at precision p: Stirling's series
// at z + n >= spStirlingMin, less ln(z (z+1) ... (z+n-1)).
func lnGammaPos(z *big.Float, p uint) *big.Float {
	spConstants()
	w := newF(p).Set(z)
	prod := bfInt(1, p)
	for w.Cmp(bfInt(spStirlingMin, p)) < 0 {
		prod.Mul(prod, w)
		w.Add(w, bfInt(1, p))
	}
	// (w - 1/2) ln w - w + ln(2 pi)/2 + sum c_k / w**(2k-1)
	lw := logBFSlow(w, p)
	r := newF(p).Sub(w, half(p))
	r.Mul(r, lw)
	r.Sub(r, w)
	r.Add(r, spLnSqrt2Pi)
	inv := newF(p).Quo(bfInt(1, p), w)
	inv2 := newF(p).Mul(inv, inv)
	pw := newF(p).Set(inv)
	t := newF(p)
	for _, c := range spBernoulli {
		t.Mul(c, pw)
		r.Add(r, t)
		if small(t, r, p) {
			break
		}
		pw.Mul(pw, inv2)
	}
	if prod.Cmp(bfInt(1, p)) != 0 {
		r.Sub(r, logBFSlow(prod, p))
	}
	return r
}

// sinPiFrac returns |sin(pi x)| for a finite non-integer x, reducing x by
// its nearest integer exactly first.
func sinPiFrac(x *big.Float, p uint) *big.Float {
	spConstants()
	n := new(big.Int)
	rx := newF(p).Add(x, half(p))
	rx.Int(n) // trunc(x + 1/2)
	fl := newF(p).SetInt(n)
	if rx.Sign() < 0 && !rx.IsInt() {
		fl.Sub(fl, bfInt(1, p)) // floor(x + 1/2)
	}
	f := newF(p).Sub(x, fl) // in [-1/2, 1/2), exact
	f.Abs(f)
	r := newF(p).Mul(f, spPi)
	// r in [0, pi/2]: sin r = cos(pi/2 - r) where r > pi/4.
	qp := newF(p).SetMantExp(spPi, -2)
	if r.Cmp(qp) <= 0 {
		s, _ := sinCosSlow(r, p)
		return s
	}
	hp := newF(p).SetMantExp(spPi, -1)
	_, c := sinCosSlow(hp.Sub(hp, r), p)
	return c
}

// Gamma returns the gamma function: NaN (a domain error) at zero, the
// negative integers and -inf; +inf for +inf.
func Gamma(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x == Inf:
		return Inf
	case x == NegInf:
		return NaN
	case x.IsZero():
		return NaN
	}
	integral, _ := isInt(x)
	if integral && x.sign() {
		return NaN
	}
	if !Lt(FromInt64(172), x) && !x.sign() && integral {
		// (x-1)! exactly, rounded once (ties to even).
		n, _ := ToInt64(x)
		f := new(big.Int).MulRange(1, n-1)
		if n <= 1 {
			f.SetInt64(1)
		}
		return FromBig(f)
	}
	if !Lt(x, FromInt64(172)) {
		return Inf // overflow: Gamma(171.62...) is the largest finite
	}
	p := uint(spWP)
	if x.sign() {
		if Lt(x, FromInt64(-190)) {
			// |Gamma| < 2**-1100 beyond -190: underflows to a signed zero.
			if isOddFloor(x) {
				return NegZero
			}
			return Zero
		}
		// Reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)).
		bx := toBF(x, p)
		omx := newF(p).Sub(bfInt(1, p), bx)
		lg := lnGammaPos(omx, p)
		g := expBFSlow(lg, p)
		s := sinPiFrac(bx, p)
		g.Mul(g, s)
		r := newF(p).Quo(spPi, g)
		if isOddFloor(x) {
			r.Neg(r)
		}
		return fromBF(r)
	}
	bx := toBF(x, p)
	if x.exp() < 1023-60 {
		// x < 2**-60: Gamma(x) = 1/x - gamma_E + O(x); ln would lose the
		// leading bits of a huge value, so go through 1/x * Gamma(1+x).
		onep := newF(p).Add(bx, bfInt(1, p))
		g := expBFSlow(lnGammaPos(onep, p), p)
		return fromBF(g.Quo(g, bx))
	}
	return fromBF(expBFSlow(lnGammaPos(bx, p), p))
}

// isOddFloor reports whether floor(x) is odd, for a negative non-integer
// x: the sign of Gamma(x) is (-1)**ceil(-x), negative where floor(x) is odd.
func isOddFloor(x F64) bool {
	return isOdd(Floor(x))
}

// Lgamma returns ln |Gamma(x)|: +inf (a pole) at zero and the negative
// integers, +inf for ±inf, and exactly 0 at 1 and 2.
func Lgamma(x F64) F64 {
	switch {
	case x.IsNaN():
		return NaN
	case x.IsInf():
		return Inf
	case x.IsZero():
		return Inf
	case x == One || x == FromInt64(2):
		return Zero
	}
	integral, _ := isInt(x)
	if integral && x.sign() {
		return Inf
	}
	p := uint(spWP)
	bx := toBF(x, p)
	if x.sign() {
		// ln|Gamma(x)| = ln(pi / |sin(pi x)|) - ln Gamma(1 - x).
		omx := newF(p).Sub(bfInt(1, p), bx)
		lg := lnGammaPos(omx, p)
		s := sinPiFrac(bx, p)
		l := logBFSlow(newF(p).Quo(spPi, s), p)
		return fromBF(l.Sub(l, lg))
	}
	if x.exp() < 1023-60 {
		// Tiny x: ln Gamma(1+x) - ln x, without forming 1/x's lost bits.
		onep := newF(p).Add(bx, bfInt(1, p))
		l := lnGammaPos(onep, p)
		return fromBF(l.Sub(l, logBFSlow(bx, p)))
	}
	return fromBF(lnGammaPos(bx, p))
}
