package softfloat

import (
	"math/big"
	"math/bits"
	"sync"
)

// Fixed-point fast paths for the common elementary functions (exp, expm1,
// log, log2, log10, pow, sin, cos, tan, atan). A value is a sign and a
// 192-bit magnitude in units of 2**-fxFrac: 24 integer bits and 168
// fraction bits, multiplied with math/bits.Mul64 (integer instructions only,
// no allocation). Every path below keeps the absolute error near 2**-150 on
// results of magnitude at least 2**-30, so about 120 bits beyond binary64
// reach the final rounding, which is done by roundPack. Arguments outside a
// path's range (tiny, huge, or a reduced argument too close to zero) return
// ok=false and the caller uses the big.Float implementation, which gives the
// same correctly rounded result more slowly; TestFastPathsMatchBig checks
// that the two agree.

const fxFrac = 168

// noFast turns the fast paths off so that tests can compare them with the
// big.Float evaluation. Only tests set it.
var noFast bool

type fx struct {
	m   [3]uint64 // little-endian limbs of the magnitude
	neg bool
}

func (a fx) isZero() bool { return a.m[0]|a.m[1]|a.m[2] == 0 }

func cmpMag(a, b [3]uint64) int {
	for i := 2; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func addMag(a, b [3]uint64) (r [3]uint64) {
	var c uint64
	r[0], c = bits.Add64(a[0], b[0], 0)
	r[1], c = bits.Add64(a[1], b[1], c)
	r[2], _ = bits.Add64(a[2], b[2], c)
	return
}

func subMag(a, b [3]uint64) (r [3]uint64) { // a >= b
	var c uint64
	r[0], c = bits.Sub64(a[0], b[0], 0)
	r[1], c = bits.Sub64(a[1], b[1], c)
	r[2], _ = bits.Sub64(a[2], b[2], c)
	return
}

func fxAdd(a, b fx) fx {
	if a.neg == b.neg {
		return fx{addMag(a.m, b.m), a.neg}
	}
	if cmpMag(a.m, b.m) >= 0 {
		return fx{subMag(a.m, b.m), a.neg}
	}
	return fx{subMag(b.m, a.m), b.neg}
}

func fxSub(a, b fx) fx { b.neg = !b.neg; return fxAdd(a, b) }

// fxMul returns a*b truncated to fxFrac fraction bits.
func fxMul(a, b fx) fx {
	var p [6]uint64
	for i := 0; i < 3; i++ {
		var carry uint64
		for j := 0; j < 3; j++ {
			hi, lo := bits.Mul64(a.m[i], b.m[j])
			var c uint64
			lo, c = bits.Add64(lo, p[i+j], 0)
			hi += c
			lo, c = bits.Add64(lo, carry, 0)
			hi += c
			p[i+j] = lo
			carry = hi
		}
		p[i+3] = carry
	}
	// Keep bits [168, 360): limbs 2.. shifted right by 40.
	const s = fxFrac - 128
	return fx{[3]uint64{p[2]>>s | p[3]<<(64-s), p[3]>>s | p[4]<<(64-s), p[4]>>s | p[5]<<(64-s)}, a.neg != b.neg}
}

// fxMulInt returns a*k for a small integer k.
func fxMulInt(a fx, k int64) fx {
	neg := a.neg
	u := uint64(k)
	if k < 0 {
		neg = !neg
		u = uint64(-k)
	}
	var r [3]uint64
	var carry uint64
	for i := 0; i < 3; i++ {
		hi, lo := bits.Mul64(a.m[i], u)
		var c uint64
		r[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	return fx{r, neg}
}

// fxShr shifts the magnitude right by s bits (0 <= s < 192), truncating.
func fxShr(a fx, s uint) fx {
	for s >= 64 {
		a.m = [3]uint64{a.m[1], a.m[2], 0}
		s -= 64
	}
	if s > 0 {
		a.m = [3]uint64{a.m[0]>>s | a.m[1]<<(64-s), a.m[1]>>s | a.m[2]<<(64-s), a.m[2] >> s}
	}
	return a
}

// fxShl shifts the magnitude left by s bits (the result must fit).
func fxShl(a fx, s uint) fx {
	for s >= 64 {
		a.m = [3]uint64{0, a.m[0], a.m[1]}
		s -= 64
	}
	if s > 0 {
		a.m = [3]uint64{a.m[0] << s, a.m[1]<<s | a.m[0]>>(64-s), a.m[2]<<s | a.m[1]>>(64-s)}
	}
	return a
}

// fxPow2 returns 2**e for -fxFrac <= e < 24.
func fxPow2(e int) fx {
	var a fx
	b := e + fxFrac
	a.m[b/64] = 1 << uint(b%64)
	return a
}

// bitLen is the position of the magnitude's leading one plus one.
func (a fx) bitLen() int {
	for i := 2; i >= 0; i-- {
		if a.m[i] != 0 {
			return 64*i + bits.Len64(a.m[i])
		}
	}
	return 0
}

// fxFromF64 converts x exactly; ok is false when |x| >= 2**23 or x has
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
	if shift < 0 || e-bias >= 23 {
		return fx{}, false
	}
	return fxShl(fx{m: [3]uint64{sig}, neg: x.sign()}, uint(shift)), true
}

// fxToF64 rounds a * 2**scale to binary64. nearMid reports that the
// fraction beyond the 54th significant bit is within 2**-100 of a binary64
// midpoint, where only an exact evaluation can decide (used by Pow).
func fxToF64(a fx, scale int) (r F64, nearMid bool) {
	l := a.bitLen()
	if l == 0 {
		return pack(a.neg, 0, 0), false
	}
	// The top 64 bits and a sticky bit for the rest.
	top := fxShl(a, uint(192-l))
	sig := top.m[2]
	rest := top.m[1] | top.m[0]
	sticky := uint64(0)
	if rest != 0 {
		sticky = 1
	}
	// Midpoint test: bits 53..63 below the leading one of sig hold the
	// rounding position; a midpoint has bit 10 set and bits below zero.
	low := sig & 0x7FF
	if (low == 0x400 && top.m[1]>>40 == 0) || (low == 0x3FF && top.m[1]>>40 == 1<<24-1) {
		nearMid = true
	}
	sig62 := sig>>1 | (sig&1 | sticky)
	exp := l - 1 + scale + 1022 - fxFrac
	if exp > 0x7FF {
		return nanOrInf(a.neg), false
	}
	if exp < -1100 {
		return pack(a.neg, 0, 0), false
	}
	return roundPack(a.neg, exp, sig62), nearMid
}

func fxFromBig(f *big.Float) fx {
	g := new(big.Float).SetPrec(f.Prec()+64).SetMantExp(f, fxFrac)
	i, _ := g.Int(nil)
	neg := i.Sign() < 0
	var b [24]byte
	new(big.Int).Abs(i).FillBytes(b[:])
	var a fx
	for k := 0; k < 3; k++ {
		for j := 0; j < 8; j++ {
			a.m[2-k] = a.m[2-k]<<8 | uint64(b[8*k+j])
		}
	}
	a.neg = neg
	return a
}

var (
	fxOnce                            sync.Once
	fxLn2, fxInvLn2, fxInvLn10, fxPi2 fx
	fxInvFact                         [24]fx
	fxLog1pC                          [30]fx     // (-1)**(n+1)/n
	fxExpT                            [49]fx     // exp((j-24)/64)
	fxLogR                            [64]uint64 // significands of logR
	fxLogT                            [64]fx     // -ln logR[j]
	fxSinT, fxCosT                    [52]fx
	fxAtanT                           [65]fx
	fxOne                             = fxPow2(0)
)

func fxTables() {
	tables()
	fxOnce.Do(func() {
		fxLn2 = fxFromBig(bigLn2)
		fxInvLn2 = fxFromBig(bigInvLn2)
		fxInvLn10 = fxFromBig(newF(2*wp).Quo(bfInt(1, 2*wp), bigLn10))
		fxPi2 = fxFromBig(newF(piPrec).SetMantExp(bigPi, -1))
		for n := range fxInvFact {
			fxInvFact[n] = fxFromBig(invFact[n])
		}
		for n := 1; n < len(fxLog1pC); n++ {
			c := newF(tabPrec).Quo(bfInt(1, tabPrec), bfInt(int64(n), tabPrec))
			if n%2 == 0 {
				c.Neg(c)
			}
			fxLog1pC[n] = fxFromBig(c)
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
	t := fxShr(a, fxFrac-7) // a * 128, truncated
	n := int((t.m[0] + 1) >> 1)
	if a.neg {
		return -n
	}
	return n
}

func fxSixtyFourths(j int) fx {
	if j < 0 {
		return fx{fxShl(fx{m: [3]uint64{uint64(-j)}}, fxFrac-6).m, true}
	}
	return fxShl(fx{m: [3]uint64{uint64(j)}}, fxFrac-6)
}

// expFx returns v and k with e**a = v * 2**k, for |a| < 2100.
func expFx(a fx) (fx, int) {
	// k = round(a / ln 2), r = a - k ln 2, |r| <= ln2/2 + tiny.
	q := fxMul(a, fxInvLn2)
	kq := fxShr(q, fxFrac-1)
	k := int64((kq.m[0] + 1) >> 1)
	if q.neg {
		k = -k
	}
	r := fxSub(a, fxMulInt(fxLn2, k))
	j := fxRound64(r)
	d := fxSub(r, fxSixtyFourths(j)) // |d| <= 2**-7
	const n = 19
	p := fxInvFact[n]
	for i := n - 1; i >= 0; i-- {
		p = fxAdd(fxMul(p, d), fxInvFact[i])
	}
	return fxMul(p, fxExpT[j+24]), int(k)
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
	prod := fxShl(fx{m: [3]uint64{lo, hi}}, fxFrac-105)
	u := fxSub(prod, fxOne) // |u| < 2**-7
	const n = 27
	p := fxLog1pC[n]
	for i := n - 1; i >= 1; i-- {
		p = fxAdd(fxMul(p, u), fxLog1pC[i])
	}
	p = fxMul(p, u)
	p = fxAdd(p, fxLogT[j])
	if e != 0 {
		p = fxAdd(p, fxMulInt(fxLn2, int64(e)))
	}
	return p
}

// fxRecip returns 1/b for 2**-24 <= |b| < 2**23 (Newton from a 62-bit
// first guess).
func fxRecip(b fx) fx {
	neg := b.neg
	b.neg = false
	l := b.bitLen()
	// Normalise b into [1, 2): shift so the leading one is bit fxFrac.
	var bn fx
	sh := l - 1 - fxFrac
	if sh > 0 {
		bn = fxShr(b, uint(sh))
	} else {
		bn = fxShl(b, uint(-sh))
	}
	topWord := fxShl(bn, uint(192-(fxFrac+1))).m[2] // leading one at bit 63
	q, _ := bits.Div64(1<<62, 0, topWord)           // about 2**126 / top = 2**63 / bn
	y := fxShl(fx{m: [3]uint64{q}}, fxFrac-63)
	two := fxPow2(1)
	for i := 0; i < 2; i++ {
		y = fxMul(y, fxSub(two, fxMul(bn, y)))
	}
	// 1/b = (1/bn) * 2**-sh.
	if sh > 0 {
		y = fxShr(y, uint(sh))
	} else {
		y = fxShl(y, uint(-sh))
	}
	y.neg = neg
	return y
}

// sinCosFx returns sin r and cos r for |r| <= 0.8.
func sinCosFx(r fx) (fx, fx) {
	a := r
	a.neg = false
	j := fxRound64(a)
	d := fxSub(a, fxSixtyFourths(j)) // |d| <= 2**-7
	d2 := fxMul(d, d)
	const n = 10
	s := fxInvFact[2*n+1]
	c := fxInvFact[2*n]
	if n%2 == 1 {
		s.neg, c.neg = true, true
	}
	for k := n - 1; k >= 0; k-- {
		fs, fc := fxInvFact[2*k+1], fxInvFact[2*k]
		if k%2 == 1 {
			fs.neg, fc.neg = true, true
		}
		s = fxAdd(fxMul(s, d2), fs)
		c = fxAdd(fxMul(c, d2), fc)
	}
	s = fxMul(s, d)
	sn := fxAdd(fxMul(fxSinT[j], c), fxMul(fxCosT[j], s))
	cs := fxSub(fxMul(fxCosT[j], c), fxMul(fxSinT[j], s))
	if r.neg {
		sn.neg = !sn.neg
	}
	return sn, cs
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
	kq := fxShr(fxMul(a, fxTwoOverPi()), fxFrac-1)
	k := int64((kq.m[0] + 1) >> 1)
	if a.neg {
		k = -k
	}
	r := fxSub(a, fxMulInt(fxPi2, k))
	if r.bitLen() < fxFrac-40 {
		return 0, false // within 2**-40 of a multiple of pi/2
	}
	s, c := sinCosFx(r)
	var v fx
	switch fn {
	case 0:
		v = [4]fx{s, c, {s.m, !s.neg}, {c.m, !c.neg}}[k&3]
	case 1:
		v = [4]fx{c, {s.m, !s.neg}, {c.m, !c.neg}, s}[k&3]
	default:
		if k&1 == 1 {
			if s.bitLen() < fxFrac-20 {
				return 0, false
			}
			v = fxMul(c, fxRecip(s))
			v.neg = !v.neg
		} else {
			v = fxMul(s, fxRecip(c))
		}
	}
	res, _ := fxToF64(v, 0)
	return res, true
}

var fxTwoOverPiOnce sync.Once
var fxTwoOverPiV fx

func fxTwoOverPi() fx {
	fxTwoOverPiOnce.Do(func() { fxTwoOverPiV = fxFromBig(bigTwoOverPi) })
	return fxTwoOverPiV
}

// atanFx returns atan a for 0 <= a < 2**22 (|a| >= 2**-40 for relative
// precision; the caller checks the result's size).
func atanFx(a fx) fx {
	inv := cmpMag(a.m, fxOne.m) > 0
	if inv {
		a = fxRecip(a)
	}
	j := fxRound64(a)
	c := fxSixtyFourths(j)
	t := fxMul(fxSub(a, c), fxRecip(fxAdd(fxOne, fxMul(a, c)))) // |t| <= 2**-7
	t2 := fxMul(t, t)
	const n = 13
	p := fxLog1pC[2*n+1] // 1/(2n+1)
	p.neg = n%2 == 1
	for k := n - 1; k >= 0; k-- {
		ck := fxLog1pC[2*k+1]
		ck.neg = k%2 == 1
		p = fxAdd(fxMul(p, t2), ck)
	}
	p = fxMul(p, t)
	p = fxAdd(p, fxAtanT[j])
	if inv {
		p = fxSub(fxPi2, p)
	}
	return p
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
	p := atanFx(a)
	p.neg = x.sign()
	res, _ := fxToF64(p, 0)
	return res, true
}

// inFxRange reports whether x converts exactly and its reciprocal fits:
// 2**-20 <= |x| < 2**20.
func inFxRange(x F64) bool {
	return !x.IsZero() && x.IsFinite() && ilog2(x) >= -20 && ilog2(x) < 20
}

// atan2Fx is the angle of (x, y) for |x|, |y| given as fx magnitudes with
// signs; ok is false when the result would be tiny.
func atan2Fx(y, x fx) (fx, bool) {
	ay, ax := y, x
	ay.neg, ax.neg = false, false
	swap := cmpMag(ay.m, ax.m) > 0
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
	if x.neg {
		th = fxSub(fxMulInt(fxPi2, 2), th)
	}
	if th.bitLen() < fxFrac-40 {
		return fx{}, false
	}
	th.neg = y.neg
	return th, true
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

// fxSqrt returns sqrt(b) for 2**-40 <= b < 2**22 (ok false otherwise): a
// binary64 first guess of 1/sqrt(b), two Newton steps y(3 - b y**2)/2,
// then b y.
func fxSqrt(b fx) (fx, bool) {
	if b.neg || b.bitLen() <= fxFrac-40 || b.bitLen() > fxFrac+22 {
		return fx{}, false
	}
	bf, _ := fxToF64(b, 0)
	y, ok := fxFromF64(Div(One, Sqrt(bf)))
	if !ok {
		return fx{}, false
	}
	three := fxMulInt(fxOne, 3)
	for i := 0; i < 2; i++ {
		t := fxSub(three, fxMul(fxMul(b, y), y)) // (b y) y: y*y may not fit
		y = fxShr(fxMul(y, t), 1)
	}
	return fxMul(b, y), true
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
	ax := xf
	ax.neg = false
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

// logFxVal returns ln a for 2**-120 <= a < 2**23.
func logFxVal(a fx) fx {
	l := a.bitLen()
	e := l - 1 - fxFrac
	var m fx
	if e > 0 {
		m = fxShr(a, uint(e))
	} else {
		m = fxShl(a, uint(-e))
	}
	j := int(fxShr(m, fxFrac-6).m[0]) & 63
	rj := fxShl(fx{m: [3]uint64{fxLogR[j]}}, fxFrac-53)
	u := fxSub(fxMul(m, rj), fxOne)
	const n = 27
	p := fxLog1pC[n]
	for i := n - 1; i >= 1; i-- {
		p = fxAdd(fxMul(p, u), fxLog1pC[i])
	}
	p = fxMul(p, u)
	p = fxAdd(p, fxLogT[j])
	if e != 0 {
		p = fxAdd(p, fxMulInt(fxLn2, int64(e)))
	}
	return p
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
	if s.neg || s.bitLen() < fxFrac-20 {
		return 0, false
	}
	r, _ := fxToF64(logFxVal(s), 0)
	return r, true
}

// hyperFast is Sinh (fn 0), Cosh (1) or Tanh (2) for 2**-26 <= |x| < 700.
func hyperFast(x F64, fn int) (F64, bool) {
	if noFast {
		return 0, false
	}
	if ilog2(x) < -26 || !Lt(Abs(x), FromInt64(700)) {
		return 0, false
	}
	fxTables()
	a, _ := fxFromF64(Abs(x))
	// t = e**(-2|x|) as an fx (0 when below 2**-190).
	vt, kt := expFx(fxMulInt(fx{a.m, true}, 2))
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
	if d.neg || d.bitLen() < fxFrac-20 {
		return 0, false
	}
	v := logFxVal(fxMul(fxAdd(fxOne, a), fxRecip(d)))
	r, _ := fxToF64(v, -1)
	if x.sign() {
		r = Neg(r)
	}
	return r, true
}
