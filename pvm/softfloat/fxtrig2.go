package softfloat

import (
	"math/bits"
	"sync"
)

// A 128-bit fixed-point route for sin and cos. trigFast evaluates the
// reduced argument's sine and cosine in 192-bit fixed point (fx, about
// 2**-150 absolute error): two Horner polynomials of eleven terms and the
// angle-addition products, 26 multiplications of 9 limb products each.
// Once the argument is reduced (in fx, exactly as before), this route
// evaluates the same formulas in 128-bit fixed point (fx2: 124 fraction
// bits) with seven terms a polynomial: 19 multiplications of 4 limb
// products, about 2**-118 absolute error.
//
// It must return exactly what trigFast's fx route returns, which is that
// route's approximation rounded to binary64. So it answers only when its
// result is at least 2**-8 in magnitude and farther than 2**-31 ulp from a
// rounding midpoint: both approximations are then within 2**-58 ulp of the
// true value, no midpoint lies between either of them and the true value,
// and both round to the same binary64 number. Otherwise (about one call in
// 2**30, plus results below 2**-8) the fx route runs as before.

const fx2Frac = 124

// noFx2 turns this route off so that tests can compare it with the fx
// route. Only tests set it.
var noFx2 bool

// fx2 is a 128-bit two's-complement fixed-point number, value n /
// 2**fx2Frac (|value| < 8).
type fx2 struct{ lo, hi uint64 }

func (a fx2) isNeg() bool { return a.hi>>63 != 0 }

func fx2Neg(a fx2) fx2 {
	var c uint64
	a.lo, c = bits.Add64(^a.lo, 1, 0)
	a.hi, _ = bits.Add64(^a.hi, 0, c)
	return a
}

func fx2Abs(a fx2) fx2 {
	if a.isNeg() {
		return fx2Neg(a)
	}
	return a
}

func fx2Add(a, b fx2) fx2 {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi, _ = bits.Add64(a.hi, b.hi, c)
	return a
}

func fx2Sub(a, b fx2) fx2 {
	var c uint64
	a.lo, c = bits.Sub64(a.lo, b.lo, 0)
	a.hi, _ = bits.Sub64(a.hi, b.hi, c)
	return a
}

// fx2Mul returns a*b, the magnitude truncated to fx2Frac fraction bits.
func fx2Mul(a, b fx2) fx2 {
	neg := a.isNeg() != b.isNeg()
	a, b = fx2Abs(a), fx2Abs(b)
	// The 256-bit product p3:p2:p1:p0; the result is bits [124, 252).
	h4, _ := bits.Mul64(a.lo, b.lo)
	h2, l2 := bits.Mul64(a.hi, b.lo)
	h3, l3 := bits.Mul64(a.lo, b.hi)
	h1, l1 := bits.Mul64(a.hi, b.hi)
	p1, c := bits.Add64(h4, l2, 0)
	p2, c2 := bits.Add64(h2, l1, c)
	p3 := h1 + c2
	p1, c = bits.Add64(p1, l3, 0)
	p2, c2 = bits.Add64(p2, h3, c)
	p3 += c2
	const s = fx2Frac - 64
	r := fx2{p1>>s | p2<<(64-s), p2>>s | p3<<(64-s)}
	if neg {
		return fx2Neg(r)
	}
	return r
}

// fx2FromFx truncates a (|a| < 8) to fx2 (toward minus infinity).
func fx2FromFx(a fx) fx2 {
	const s = fxFrac - fx2Frac
	return fx2{a.a0>>s | a.a1<<(64-s), a.a1>>s | a.a2<<(64-s)}
}

// fxFromFx2 widens a exactly.
func fxFromFx2(a fx2) fx {
	const s = fxFrac - fx2Frac
	top := uint64(0)
	if a.isNeg() {
		top = ^uint64(0)
	}
	return fx{a.lo << s, a.hi<<s | a.lo>>(64-s), top<<s | a.hi>>(64-s)}
}

var (
	fx2Once          sync.Once
	fx2SinC          [7]fx2 // (-1)**k/(2k+1)!
	fx2CosC          [7]fx2 // (-1)**k/(2k)!
	fx2SinT, fx2CosT [52]fx2
)

func fx2Tables() {
	fxTables()
	fx2Once.Do(func() {
		for k := range fx2SinC {
			fx2SinC[k], fx2CosC[k] = fx2FromFx(fxSinC[k]), fx2FromFx(fxCosC[k])
		}
		for j := range fx2SinT {
			fx2SinT[j], fx2CosT[j] = fx2FromFx(fxSinT[j]), fx2FromFx(fxCosT[j])
		}
	})
}

func horner2(x fx2, c []fx2) fx2 {
	p := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		p = fx2Add(fx2Mul(p, x), c[i])
	}
	return p
}

// trig2 is sin (fn 0) or cos (fn 1) of the reduced argument r (|r| <=
// pi/4 + 2**-40) and quadrant k, as trigFast computes them, or ok=false
// when trigFast's fx route must decide (see above).
func trig2(r fx, k int64, fn int) (F64, bool) {
	fx2Tables()
	a := fxAbs(r)
	j := fxRound64(a)
	d := fx2FromFx(fxSub(a, fxSixtyFourths(j))) // |d| <= 2**-7
	d2 := fx2Mul(d, d)
	// Terms to d**13/13! and d**12/12!: the next are below 2**-130.
	s := fx2Mul(horner2(d2, fx2SinC[:]), d)
	c := horner2(d2, fx2CosC[:])
	var v fx2
	if (k&1 == 0) == (fn == 0) { // the sine of r
		v = fx2Add(fx2Mul(fx2SinT[j], c), fx2Mul(fx2CosT[j], s))
		if r.isNeg() {
			v = fx2Neg(v)
		}
	} else { // the cosine of r
		v = fx2Sub(fx2Mul(fx2CosT[j], c), fx2Mul(fx2SinT[j], s))
	}
	// Quadrant signs as in trigFast: sin takes s, c, -s, -c and cos takes
	// c, -s, -c, s for k&3 = 0, 1, 2, 3.
	if (fn == 0 && k&2 != 0) || (fn == 1 && (k+1)&2 != 0) {
		v = fx2Neg(v)
	}
	w := fxFromFx2(v)
	if fxAbs(w).bitLen() < fxFrac-7 { // |v| < 2**-8
		return 0, false
	}
	return fxToF64Far(w, 0)
}
