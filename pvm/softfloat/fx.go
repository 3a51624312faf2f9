package softfloat

import (
	"math/big"
	"math/bits"
	"sync"
)

// Fixed-point fast paths for the elementary functions. A value is a 192-bit
// two's-complement integer in units of 2**-fxFrac: 23 integer bits, a sign
// and 168 fraction bits, added with math/bits.Add64 and multiplied with
// math/bits.Mul64 (integer instructions only, no allocation). Every path
// below keeps the absolute error near 2**-150 on results of magnitude at
// least 2**-40, so about 110 bits beyond binary64 reach the final rounding,
// which is done by roundPack. Arguments outside a path's range (tiny, huge,
// or a reduced argument too close to zero) return ok=false and the caller
// uses the big.Float implementation, which gives the same correctly rounded
// result more slowly; TestFastPathsMatchBig checks that the two agree.

const fxFrac = 168

// noFast turns the fast paths off so that tests can compare them with the
// big.Float evaluation. Only tests set it.
var noFast bool

// fx is a fixed-point number: the limbs (a0 least significant) of a
// two's-complement integer n, value n / 2**fxFrac. Three named fields, not
// an array, so that the compiler keeps them in registers.
type fx struct{ a0, a1, a2 uint64 }

func (a fx) isNeg() bool { return a.a2>>63 != 0 }

func fxNeg(a fx) fx {
	var c uint64
	a.a0, c = bits.Add64(^a.a0, 1, 0)
	a.a1, c = bits.Add64(^a.a1, 0, c)
	a.a2, _ = bits.Add64(^a.a2, 0, c)
	return a
}

func fxAbs(a fx) fx {
	if a.isNeg() {
		return fxNeg(a)
	}
	return a
}

// fxSign returns |a| with the sign neg.
func fxSign(a fx, neg bool) fx {
	a = fxAbs(a)
	if neg {
		return fxNeg(a)
	}
	return a
}

func fxAdd(a, b fx) fx {
	var c uint64
	a.a0, c = bits.Add64(a.a0, b.a0, 0)
	a.a1, c = bits.Add64(a.a1, b.a1, c)
	a.a2, _ = bits.Add64(a.a2, b.a2, c)
	return a
}

func fxSub(a, b fx) fx {
	var c uint64
	a.a0, c = bits.Sub64(a.a0, b.a0, 0)
	a.a1, c = bits.Sub64(a.a1, b.a1, c)
	a.a2, _ = bits.Sub64(a.a2, b.a2, c)
	return a
}

// fxLess reports a < b for non-negative a and b.
func fxLess(a, b fx) bool {
	if a.a2 != b.a2 {
		return a.a2 < b.a2
	}
	if a.a1 != b.a1 {
		return a.a1 < b.a1
	}
	return a.a0 < b.a0
}

// fxMul returns a*b, the magnitude truncated to fxFrac fraction bits.
func fxMul(a, b fx) fx {
	neg := a.isNeg() != b.isNeg()
	a, b = fxAbs(a), fxAbs(b)
	// Schoolbook 3x3 limbs into p0..p5, unrolled so the limbs stay in
	// registers.
	var p0, p1, p2, p3, p4, p5, c uint64
	h, l := bits.Mul64(a.a0, b.a0)
	p0, p1 = l, h
	h, l = bits.Mul64(a.a0, b.a1)
	p1, c = bits.Add64(p1, l, 0)
	p2, _ = bits.Add64(h, 0, c)
	h, l = bits.Mul64(a.a0, b.a2)
	p2, c = bits.Add64(p2, l, 0)
	p3, _ = bits.Add64(h, 0, c)
	h, l = bits.Mul64(a.a1, b.a0)
	p1, c = bits.Add64(p1, l, 0)
	p2, c = bits.Add64(p2, h, c)
	p3, c = bits.Add64(p3, 0, c)
	p4 = c
	h, l = bits.Mul64(a.a1, b.a1)
	p2, c = bits.Add64(p2, l, 0)
	p3, c = bits.Add64(p3, h, c)
	p4, _ = bits.Add64(p4, 0, c)
	h, l = bits.Mul64(a.a1, b.a2)
	p3, c = bits.Add64(p3, l, 0)
	p4, c = bits.Add64(p4, h, c)
	p5 = c
	h, l = bits.Mul64(a.a2, b.a0)
	p2, c = bits.Add64(p2, l, 0)
	p3, c = bits.Add64(p3, h, c)
	p4, c = bits.Add64(p4, 0, c)
	p5 += c
	h, l = bits.Mul64(a.a2, b.a1)
	p3, c = bits.Add64(p3, l, 0)
	p4, c = bits.Add64(p4, h, c)
	p5 += c
	h, l = bits.Mul64(a.a2, b.a2)
	p4, c = bits.Add64(p4, l, 0)
	p5 += h + c
	_ = p0
	// Keep bits [168, 360): limbs 2.. shifted right by 40.
	const s = fxFrac - 128
	r := fx{p2>>s | p3<<(64-s), p3>>s | p4<<(64-s), p4>>s | p5<<(64-s)}
	if neg {
		return fxNeg(r)
	}
	return r
}

// fxMulInt returns a*k for a small integer k.
func fxMulInt(a fx, k int64) fx {
	neg := a.isNeg() != (k < 0)
	a = fxAbs(a)
	u := uint64(k)
	if k < 0 {
		u = uint64(-k)
	}
	var r fx
	var carry uint64
	hi, lo := bits.Mul64(a.a0, u)
	r.a0, carry = lo, hi
	hi, lo = bits.Mul64(a.a1, u)
	var c uint64
	r.a1, c = bits.Add64(lo, carry, 0)
	carry = hi + c
	_, lo = bits.Mul64(a.a2, u)
	r.a2 = lo + carry
	if neg {
		return fxNeg(r)
	}
	return r
}

// fxShr shifts a non-negative a right by s bits, truncating.
func fxShr(a fx, s uint) fx {
	if s >= 192 {
		return fx{}
	}
	for s >= 64 {
		a = fx{a.a1, a.a2, 0}
		s -= 64
	}
	if s > 0 {
		a = fx{a.a0>>s | a.a1<<(64-s), a.a1>>s | a.a2<<(64-s), a.a2 >> s}
	}
	return a
}

// fxShl shifts a non-negative a left by s bits (the result must fit).
func fxShl(a fx, s uint) fx {
	for s >= 64 {
		a = fx{0, a.a0, a.a1}
		s -= 64
	}
	if s > 0 {
		a = fx{a.a0 << s, a.a1<<s | a.a0>>(64-s), a.a2<<s | a.a1>>(64-s)}
	}
	return a
}

// fxPow2 returns 2**e for -fxFrac <= e < 23.
func fxPow2(e int) fx {
	b := uint(e + fxFrac)
	switch b / 64 {
	case 0:
		return fx{1 << (b % 64), 0, 0}
	case 1:
		return fx{0, 1 << (b % 64), 0}
	}
	return fx{0, 0, 1 << (b % 64)}
}

// bitLen is the position of |a|'s leading one plus one.
func (a fx) bitLen() int {
	a = fxAbs(a)
	switch {
	case a.a2 != 0:
		return 128 + bits.Len64(a.a2)
	case a.a1 != 0:
		return 64 + bits.Len64(a.a1)
	}
	return bits.Len64(a.a0)
}

// fxFromF64 converts x exactly; ok is false when |x| >= 2**22 or x has
// bits below 2**-fxFrac.
func fxFromF64(x F64) (fx, bool) {
	if x.IsZero() {
		return fx{}, true
	}
	e, sig := x.exp(), x.frac()
	if e == 0 {
		return fx{}, false
	}
	sig |= hidden
	shift := e - 1075 + fxFrac // x = sig * 2**(shift - fxFrac)
	if shift < 0 || e-bias >= 22 {
		return fx{}, false
	}
	return fxSign(fxShl(fx{sig, 0, 0}, uint(shift)), x.sign()), true
}

// fxToF64 rounds a * 2**scale to binary64. nearMid reports that the
// fraction beyond the 54th significant bit is within about 2**-34 ulp of
// a binary64 midpoint, where only an exact evaluation can decide (Pow).
func fxToF64(a fx, scale int) (r F64, nearMid bool) {
	neg := a.isNeg()
	a = fxAbs(a)
	l := a.bitLen()
	if l == 0 {
		return pack(neg, 0, 0), false
	}
	// The top 64 bits and a sticky bit for the rest.
	top := fxShl(a, uint(192-l))
	sig := top.a2
	sticky := uint64(0)
	if top.a1|top.a0 != 0 {
		sticky = 1
	}
	// A midpoint has bit 10 of sig set and everything below it zero.
	low := sig & 0x7FF
	if (low == 0x400 && top.a1>>40 == 0) || (low == 0x3FF && top.a1>>40 == 1<<24-1) {
		nearMid = true
	}
	sig62 := sig>>1 | (sig&1 | sticky)
	exp := l - 1 + scale + 1022 - fxFrac
	if exp > 0x7FF {
		return nanOrInf(neg), false
	}
	if exp < -1100 {
		return pack(neg, 0, 0), false
	}
	return roundPack(neg, exp, sig62), nearMid
}

func fxFromBig(f *big.Float) fx {
	g := new(big.Float).SetPrec(f.Prec()+64).SetMantExp(f, fxFrac)
	i, _ := g.Int(nil)
	var b [24]byte
	new(big.Int).Abs(i).FillBytes(b[:])
	word := func(k int) uint64 {
		var w uint64
		for j := 0; j < 8; j++ {
			w = w<<8 | uint64(b[8*k+j])
		}
		return w
	}
	return fxSign(fx{word(2), word(1), word(0)}, i.Sign() < 0)
}

var (
	fxOnce                            sync.Once
	fxLn2, fxInvLn2, fxInvLn10, fxPi2 fx
	fxTwoOverPi                       fx
	fxInvFact                         [24]fx     // 1/n!
	fxSinC, fxCosC                    [12]fx     // (-1)**k/(2k+1)!, (-1)**k/(2k)!
	fxLog1pC                          [30]fx     // (-1)**(n+1)/n
	fxAtanC                           [14]fx     // (-1)**k/(2k+1)
	fxExpT                            [49]fx     // exp((j-24)/64)
	fxLogR                            [64]uint64 // significands of logR
	fxLogT                            [64]fx     // -ln logR[j]
	fxSinT, fxCosT                    [52]fx
	fxAtanT                           [65]fx
	fxOne                             = fxPow2(0)
	fxTwo                             = fxPow2(1)          // fxRecip's Newton constant
	fxThree                           = fxMulInt(fxOne, 3) // fxSqrt's Newton constant
)

func fxTables() {
	tables()
	fxOnce.Do(func() {
		fxLn2 = fxFromBig(bigLn2)
		fxInvLn2 = fxFromBig(bigInvLn2)
		fxInvLn10 = fxFromBig(newF(2*wp).Quo(bfInt(1, 2*wp), bigLn10))
		fxPi2 = fxFromBig(newF(piPrec).SetMantExp(bigPi, -1))
		fxTwoOverPi = fxFromBig(bigTwoOverPi)
		for n := range fxInvFact {
			fxInvFact[n] = fxFromBig(invFact[n])
		}
		for k := range fxSinC {
			fxSinC[k] = fxSign(fxInvFact[2*k+1], k%2 == 1)
			fxCosC[k] = fxSign(fxInvFact[2*k], k%2 == 1)
		}
		for n := 1; n < len(fxLog1pC); n++ {
			c := newF(tabPrec).Quo(bfInt(1, tabPrec), bfInt(int64(n), tabPrec))
			if n%2 == 0 {
				c.Neg(c)
			}
			fxLog1pC[n] = fxFromBig(c)
		}
		for k := range fxAtanC {
			fxAtanC[k] = fxSign(fxLog1pC[2*k+1], k%2 == 1)
		}
		for j := range fxExpT {
			a := newF(tabPrec).SetMantExp(bfInt(int64(j-24), tabPrec), -6)
			fxExpT[j] = fxFromBig(expBFSlow(a, tabPrec))
		}
		for j := range fxLogR {
			c := Add(One, Div(FromInt64(int64(2*j+1)), FromInt64(128)))
			r := Div(One, c)
			fxLogR[j] = r.frac() | hidden
			fxLogT[j] = fxFromBig(logT[j])
		}
		for j := range fxSinT {
			fxSinT[j], fxCosT[j] = fxFromBig(sinT[j]), fxFromBig(cosT[j])
		}
		for j := range fxAtanT {
			fxAtanT[j] = fxFromBig(atanT[j])
		}
	})
}

// fxRound64 returns round(a * 64) as an int (|a| < 2**17).
func fxRound64(a fx) int {
	t := fxShr(fxAbs(a), fxFrac-7) // |a| * 128, truncated
	n := int((t.a0 + 1) >> 1)
	if a.isNeg() {
		return -n
	}
	return n
}

func fxSixtyFourths(j int) fx {
	if j < 0 {
		return fxNeg(fxShl(fx{uint64(-j), 0, 0}, fxFrac-6))
	}
	return fxShl(fx{uint64(j), 0, 0}, fxFrac-6)
}

// horner returns c[n] x**n + ... + c[1] x + c[0].
func horner(x fx, c []fx) fx {
	p := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		p = fxAdd(fxMul(p, x), c[i])
	}
	return p
}

// expFx returns v and k with e**a = v * 2**k, for |a| < 2100.
func expFx(a fx) (fx, int) {
	// k = round(a / ln 2), r = a - k ln 2, |r| <= ln2/2 + tiny.
	q := fxMul(a, fxInvLn2)
	kq := fxShr(fxAbs(q), fxFrac-1)
	k := int64((kq.a0 + 1) >> 1)
	if q.isNeg() {
		k = -k
	}
	r := fxSub(a, fxMulInt(fxLn2, k))
	j := fxRound64(r)
	d := fxSub(r, fxSixtyFourths(j)) // |d| <= 2**-7
	p := horner(d, fxInvFact[:20])   // terms to d**19/19!
	return fxMul(p, fxExpT[j+24]), int(k)
}

// logSeries returns ln(1+u) for |u| < 2**-7 (terms to u**27/27).
func logSeries(u fx) fx {
	return fxMul(horner(u, fxLog1pC[1:28]), u)
}

// logFx returns ln x for a positive finite x.
func logFx(x F64) fx {
	e, sig := x.exp(), x.frac()
	if e == 0 {
		e, sig = normSubnormal(sig)
	}
	sig |= hidden
	e -= bias
	j := int(sig>>46) & 63
	// m * logR[j] = sig * rsig / 2**105, an exact 106-bit product.
	hi, lo := bits.Mul64(sig, fxLogR[j])
	u := fxSub(fxShl(fx{lo, hi, 0}, fxFrac-105), fxOne) // |u| < 2**-7
	p := fxAdd(logSeries(u), fxLogT[j])
	if e != 0 {
		p = fxAdd(p, fxMulInt(fxLn2, int64(e)))
	}
	return p
}

// logFxVal returns ln a for 2**-120 <= a < 2**22.
func logFxVal(a fx) fx {
	l := a.bitLen()
	e := l - 1 - fxFrac
	var m fx
	if e > 0 {
		m = fxShr(a, uint(e))
	} else {
		m = fxShl(a, uint(-e))
	}
	j := int(fxShr(m, fxFrac-6).a0) & 63
	rj := fxShl(fx{fxLogR[j], 0, 0}, fxFrac-53)
	u := fxSub(fxMul(m, rj), fxOne)
	p := fxAdd(logSeries(u), fxLogT[j])
	if e != 0 {
		p = fxAdd(p, fxMulInt(fxLn2, int64(e)))
	}
	return p
}

// fxRecip returns 1/b for 2**-21 <= |b| < 2**22 (Newton from a 62-bit
// first guess).
func fxRecip(b fx) fx {
	neg := b.isNeg()
	b = fxAbs(b)
	l := b.bitLen()
	// Normalise b into [1, 2): shift so the leading one is bit fxFrac.
	var bn fx
	sh := l - 1 - fxFrac
	if sh > 0 {
		bn = fxShr(b, uint(sh))
	} else {
		bn = fxShl(b, uint(-sh))
	}
	topWord := fxShl(bn, uint(192-(fxFrac+1))).a2 // leading one at bit 63
	q, _ := bits.Div64(1<<62, 0, topWord)         // about 2**126 / top = 2**63 / bn
	y := fxShl(fx{q, 0, 0}, fxFrac-63)
	for i := 0; i < 2; i++ {
		y = fxMul(y, fxSub(fxTwo, fxMul(bn, y)))
	}
	// 1/b = (1/bn) * 2**-sh.
	if sh > 0 {
		y = fxShr(y, uint(sh))
	} else {
		y = fxShl(y, uint(-sh))
	}
	return fxSign(y, neg)
}

// fxSqrt returns sqrt(b) for 2**-40 <= b < 2**21 (ok false otherwise): a
// binary64 first guess of 1/sqrt(b), two Newton steps y(3 - b y**2)/2,
// then b y.
func fxSqrt(b fx) (fx, bool) {
	if b.isNeg() || b.bitLen() <= fxFrac-40 || b.bitLen() > fxFrac+21 {
		return fx{}, false
	}
	bf, _ := fxToF64(b, 0)
	return fxSqrtNear(b, bf)
}

// fxSqrtNear is fxSqrt for a b inside its range whose binary64 rounding
// (fxToF64(b, 0)) the caller already has.
func fxSqrtNear(b fx, bf F64) (fx, bool) {
	y, ok := fxFromF64(Div(One, Sqrt(bf)))
	if !ok {
		return fx{}, false
	}
	for i := 0; i < 2; i++ {
		t := fxSub(fxThree, fxMul(fxMul(b, y), y)) // (b y) y: y*y may not fit
		y = fxShr(fxMul(y, t), 1)
	}
	return fxMul(b, y), true
}

// sinCosFx returns sin r and cos r for |r| <= 0.8.
func sinCosFx(r fx) (fx, fx) {
	a := fxAbs(r)
	j := fxRound64(a)
	d := fxSub(a, fxSixtyFourths(j)) // |d| <= 2**-7
	d2 := fxMul(d, d)
	s := fxMul(horner(d2, fxSinC[:11]), d) // terms to d**21/21!
	c := horner(d2, fxCosC[:11])
	sn := fxAdd(fxMul(fxSinT[j], c), fxMul(fxCosT[j], s))
	cs := fxSub(fxMul(fxCosT[j], c), fxMul(fxSinT[j], s))
	if r.isNeg() {
		sn = fxNeg(sn)
	}
	return sn, cs
}

// atanFx returns atan a for 0 <= a < 2**21.
func atanFx(a fx) fx {
	inv := fxLess(fxOne, a)
	if inv {
		a = fxRecip(a)
	}
	j := fxRound64(a)
	c := fxSixtyFourths(j)
	t := fxMul(fxSub(a, c), fxRecip(fxAdd(fxOne, fxMul(a, c)))) // |t| <= 2**-7
	p := fxMul(horner(fxMul(t, t), fxAtanC[:]), t)              // terms to t**27/27
	p = fxAdd(p, fxAtanT[j])
	if inv {
		p = fxSub(fxPi2, p)
	}
	return p
}

// atan2Fx is the angle of (x, y); ok is false when the result would be
// within 2**-40 of zero.
func atan2Fx(y, x fx) (fx, bool) {
	ay, ax := fxAbs(y), fxAbs(x)
	swap := fxLess(ax, ay)
	var r fx
	if swap {
		r = fxMul(ax, fxRecip(ay))
	} else {
		r = fxMul(ay, fxRecip(ax))
	}
	th := atanFx(r) // in [0, pi/4]
	if swap {
		th = fxSub(fxPi2, th)
	}
	if x.isNeg() {
		th = fxSub(fxMulInt(fxPi2, 2), th)
	}
	if th.bitLen() < fxFrac-40 {
		return fx{}, false
	}
	return fxSign(th, y.isNeg()), true
}

// expFast is Exp for 2**-30 <= |x| < 745.
func expFast(x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -30 || ilog2(x) >= 10 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(x)
	v, k := expFx(a)
	r, _ := fxToF64(v, k)
	return r, true
}

// expm1Fast is Expm1 for 2**-30 <= |x| < 745.
func expm1Fast(x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -30 || ilog2(x) >= 10 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(x)
	v, k := expFx(a)
	var w fx
	switch {
	case k > 160:
		w = v
	case k >= 0:
		w = fxSub(v, fxPow2(-k))
	case k > -160:
		w = fxSub(fxShr(v, uint(-k)), fxOne)
		k = 0
	default:
		return Neg(One), true
	}
	r, _ := fxToF64(w, k)
	return r, true
}

// logFast is Log, Log2 or Log10 (scale nil, fxInvLn2 or fxInvLn10) for a
// positive finite x other than 1.
func logFast(x F64, scale *fx) (F64, bool) {
	if noFast {
		return 0, false
	}
	fxTables()
	l := logFx(x)
	if l.bitLen() < fxFrac-60 {
		return 0, false // within 2**-60 of 0: not enough relative bits
	}
	if scale != nil {
		l = fxMul(l, *scale)
	}
	r, _ := fxToF64(l, 0)
	return r, true
}

// powFast is x**y for finite x > 0 (x != 1) and finite y with
// 2**-100 <= |y| < 2**20, when |y ln x| < 2**10 and the result is not
// near a rounding midpoint.
func powFast(x, y F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if y.IsZero() || ilog2(y) < -100 || ilog2(y) >= 20 {
		return 0, false
	}
	if k, ok := halfPowExp(y); ok && !noHalfPow {
		fxTables()
		if r, ok := halfPowFast(x, k); ok {
			return r, true
		}
	}
	yf, ok := fxFromF64(y)
	if !ok {
		return 0, false
	}
	fxTables()
	l := logFx(x)
	if l.bitLen()+y.exp()-bias >= fxFrac+10 {
		return 0, false // |y ln x| may be >= 2**10: overflow or underflow
	}
	v, k := expFx(fxMul(yf, l))
	r, mid := fxToF64(v, k)
	if mid {
		return 0, false
	}
	return r, true
}

// trigFast is sin (fn 0), cos (1) or tan (2) for 2**-26 <= |x| < 2**20.
func trigFast(x F64, fn int) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || ilog2(x) >= 20 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(x)
	q := fxMul(a, fxTwoOverPi)
	kq := fxShr(fxAbs(q), fxFrac-1)
	k := int64((kq.a0 + 1) >> 1)
	if q.isNeg() {
		k = -k
	}
	r := fxSub(a, fxMulInt(fxPi2, k))
	if r.bitLen() < fxFrac-40 {
		return 0, false // within 2**-40 of a multiple of pi/2
	}
	if fn != 2 && !noFx2 {
		if v, ok := trig2(r, k, fn); ok {
			return v, true
		}
	}
	s, c := sinCosFx(r)
	var v fx
	switch fn {
	case 0:
		v = [4]fx{s, c, fxNeg(s), fxNeg(c)}[k&3]
	case 1:
		v = [4]fx{c, fxNeg(s), fxNeg(c), s}[k&3]
	default:
		if k&1 == 1 {
			if s.bitLen() < fxFrac-20 {
				return 0, false
			}
			v = fxNeg(fxMul(c, fxRecip(s)))
		} else {
			v = fxMul(s, fxRecip(c))
		}
	}
	res, _ := fxToF64(v, 0)
	return res, true
}

// atanFast is Atan for 2**-26 <= |x| < 2**20.
func atanFast(x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || ilog2(x) >= 20 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(Abs(x))
	p := fxSign(atanFx(a), x.sign())
	res, _ := fxToF64(p, 0)
	return res, true
}

// inFxRange reports whether x converts exactly and its reciprocal fits:
// 2**-20 <= |x| < 2**20.
func inFxRange(x F64) bool {
	return !x.IsZero() && x.IsFinite() && ilog2(x) >= -20 && ilog2(x) < 20
}

// atan2Fast is Atan2 for finite non-zero x and y in fx range.
func atan2Fast(y, x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if !inFxRange(x) || !inFxRange(y) {
		return 0, false
	}
	fxTables()
	yf, _ := fxFromF64(y)
	xf, _ := fxFromF64(x)
	th, ok := atan2Fx(yf, xf)
	if !ok {
		return 0, false
	}
	r, _ := fxToF64(th, 0)
	return r, true
}

// asinAcosFast is Asin (acos false) or Acos for 2**-26 <= |x| < 1.
func asinAcosFast(x F64, acos bool) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || !Lt(Abs(x), One) {
		return 0, false
	}
	fxTables()
	xf, _ := fxFromF64(x)
	ax := fxAbs(xf)
	// sqrt(1 - x**2) = sqrt((1-x)(1+x)), both factors exact.
	c, ok := fxSqrt(fxMul(fxSub(fxOne, ax), fxAdd(fxOne, ax)))
	if !ok {
		return 0, false
	}
	var th fx
	if acos {
		th, ok = atan2Fx(c, xf)
	} else {
		th, ok = atan2Fx(xf, c)
	}
	if !ok {
		return 0, false
	}
	r, _ := fxToF64(th, 0)
	return r, true
}

// log1pFast is Log1p for 2**-30 <= |x| < 2**20, x > -1 + 2**-20.
func log1pFast(x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -30 || ilog2(x) >= 20 {
		return 0, false
	}
	fxTables()
	xf, _ := fxFromF64(x)
	s := fxAdd(fxOne, xf)
	if s.isNeg() || s.bitLen() < fxFrac-20 {
		return 0, false
	}
	r, _ := fxToF64(logFxVal(s), 0)
	return r, true
}

// hyperFast is Sinh (fn 0), Cosh (1) or Tanh (2) for 2**-26 <= |x| < 1024
// (beyond about 710.5 sinh and cosh round to infinity here too).
func hyperFast(x F64, fn int) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || ilog2(x) >= 10 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(Abs(x))
	// t = e**(-2|x|) as an fx (0 when below 2**-190).
	vt, kt := expFx(fxMulInt(a, -2))
	var t fx
	if kt > -190 {
		t = fxShr(vt, uint(-kt))
	}
	var res F64
	switch fn {
	case 2: // tanh = (1 - t) / (1 + t)
		v := fxMul(fxSub(fxOne, t), fxRecip(fxAdd(fxOne, t)))
		res, _ = fxToF64(v, 0)
	default: // e**|x| (1 -/+ t) / 2
		v, k := expFx(a)
		f := fxAdd(fxOne, t)
		if fn == 0 {
			f = fxSub(fxOne, t)
		}
		res, _ = fxToF64(fxMul(v, f), k-1)
	}
	if fn != 1 && x.sign() {
		res = Neg(res)
	}
	return res, true
}

// asinhAcoshFast is Asinh (acosh false) for 2**-26 <= |x| < 2**11, or Acosh
// for 1 < x < 2**11: ln(|x| + sqrt(x**2 +/- 1)).
func asinhAcoshFast(x F64, acosh bool) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || ilog2(x) >= 11 {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(Abs(x))
	sq := fxMul(a, a) // exact: 106 bits
	if acosh {
		sq = fxSub(sq, fxOne)
	} else {
		sq = fxAdd(sq, fxOne)
	}
	root, ok := fxSqrt(sq)
	if !ok {
		return 0, false
	}
	v := logFxVal(fxAdd(a, root))
	if v.bitLen() < fxFrac-40 {
		return 0, false
	}
	r, _ := fxToF64(v, 0)
	if !acosh && x.sign() {
		r = Neg(r)
	}
	return r, true
}

// atanhFast is Atanh for 2**-26 <= |x| <= 1 - 2**-20: ln((1+|x|)/(1-|x|))/2.
func atanhFast(x F64) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 {
		return 0, false
	}
	fxTables()
	a, ok := fxFromF64(Abs(x))
	if !ok {
		return 0, false
	}
	d := fxSub(fxOne, a)
	if d.isNeg() || d.bitLen() < fxFrac-20 {
		return 0, false
	}
	v := logFxVal(fxMul(fxAdd(fxOne, a), fxRecip(d)))
	r, _ := fxToF64(v, -1)
	if x.sign() {
		r = Neg(r)
	}
	return r, true
}

// hypotFast is Hypot for at most 8 values, each zero or of magnitude in
// [2**-31, 2**8): the squares are then exact in fx, their sum exact, and
// the root is rounded once (or declined near a midpoint, where a
// Pythagorean tie needs the exact evaluation).
func hypotFast(xs []F64) (F64, bool) {
	if noFast || len(xs) > 8 {
		return 0, false
	}
	var sum fx
	for _, x := range xs {
		if x.IsZero() {
			continue
		}
		if !x.IsFinite() || ilog2(x) < -31 || ilog2(x) >= 8 {
			return 0, false
		}
		a, _ := fxFromF64(Abs(x))
		sum = fxAdd(sum, fxMul(a, a))
	}
	if sum.bitLen() == 0 {
		return 0, false
	}
	fxTables()
	root, ok := fxSqrt(sum)
	if !ok {
		return 0, false
	}
	r, mid := fxToF64(root, 0)
	if mid {
		return 0, false
	}
	return r, true
}

// Fast evaluates a math-module function on the fixed-point fast path: name
// is the Python name ("exp", "sin", "pow", "atan2", "hypot", ...), x and
// y the arguments (y for pow and atan2; Hypot takes xs). ok is false when
// the arguments are outside the fast path; the exported function (Exp,
// Sin, ...) then takes a special case or the big.Float path. Both give the
// same bits; the PVM meters the two differently.
func Fast(name string, x, y F64, xs ...F64) (F64, bool) {
	switch name {
	case "exp":
		return expFast(x)
	case "expm1":
		return expm1Fast(x)
	case "log", "log2", "log10":
		if x.sign() || !x.IsFinite() || x.IsZero() || x == One {
			return 0, false
		}
		fxTables()
		var scale *fx
		switch name {
		case "log2":
			scale = &fxInvLn2
		case "log10":
			scale = &fxInvLn10
		}
		return logFast(x, scale)
	case "log1p":
		return log1pFast(x)
	case "sin":
		return trigFast(x, 0)
	case "cos":
		return trigFast(x, 1)
	case "tan":
		return trigFast(x, 2)
	case "atan":
		return atanFast(x)
	case "asin":
		return asinAcosFast(x, false)
	case "acos":
		return asinAcosFast(x, true)
	case "sinh":
		return hyperFast(x, 0)
	case "cosh":
		return hyperFast(x, 1)
	case "tanh":
		return hyperFast(x, 2)
	case "asinh":
		return asinhAcoshFast(x, false)
	case "acosh":
		if !Lt(One, x) {
			return 0, false
		}
		return asinhAcoshFast(x, true)
	case "atanh":
		return atanhFast(x)
	case "atan2":
		return atan2Fast(x, y)
	case "pow":
		if !x.IsFinite() || x.IsZero() || !y.IsFinite() || y.IsZero() {
			return 0, false
		}
		ax, neg := Abs(x), false
		if x.sign() {
			yInt, yOdd := isInt(y)
			if !yInt {
				return 0, false
			}
			neg = yOdd
		}
		if ax == One || !PowNeedsLog(ax, y) {
			return Pow(x, y), true // an exact shortcut: cheap
		}
		r, ok := powFast(ax, y)
		if neg {
			r = Neg(r)
		}
		return r, ok
	case "hypot":
		return hypotFast(xs)
	}
	return 0, false
}
