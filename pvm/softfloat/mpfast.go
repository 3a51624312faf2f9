package softfloat

import (
	"math/big"
	"math/bits"
	"sync"
)

// Fast paths for the elementary functions: the same big.Float arithmetic as
// the series in mp.go, but with table-driven argument reduction and Horner
// evaluation against precomputed coefficients, so a function costs a few
// dozen multiplications and additions instead of hundreds of operations
// with divisions. The tables are computed once, by the slow series, at
// tabPrec bits; everything is integer arithmetic inside big.Float, so the
// tables and the results are the same on every machine.
//
// Working precision is P bits (three 64-bit words), ~139 bits more than
// binary64; every reduction below keeps the absolute error of an O(1)
// intermediate near 2**-P, and the results of interest are never below
// 2**-60 in relative terms after reduction, so about 130 correct bits reach
// the final rounding.

// P is the fast paths' working precision in bits.
const P = 192

const tabPrec = P + 64

var (
	tabOnce sync.Once
	// invFact[n] = 1/n!.
	invFact [40]*big.Float
	// invOdd[k] = 1/(2k+1).
	invOdd [48]*big.Float
	// logR[j] is the binary64 nearest 1/(1+(j+0.5)/64) and logT[j] is
	// -ln(logR[j]): ln m = logT[j] + ln(m*logR[j]) for m in
	// [1+j/64, 1+(j+1)/64), with |m*logR[j] - 1| < 2**-7.
	logR [64]*big.Float
	logT [64]*big.Float
	// sinT[j], cosT[j] = sin(j/64), cos(j/64) for j/64 <= pi/4 + 1/128.
	sinT, cosT [52]*big.Float
	// atanT[j] = atan(j/64), j = 0..64.
	atanT [65]*big.Float
)

func tables() {
	constants()
	tabOnce.Do(func() {
		f := bfInt(1, tabPrec)
		for n := range invFact {
			if n > 0 {
				f = newF(tabPrec).Quo(f, bfInt(int64(n), tabPrec))
			}
			invFact[n] = newF(P).Set(f)
		}
		for k := range invOdd {
			invOdd[k] = newF(P).Quo(bfInt(1, P), bfInt(int64(2*k+1), P))
		}
		for j := range logR {
			c := Add(One, Div(FromInt64(int64(2*j+1)), FromInt64(128)))
			r := Div(One, c) // a binary64, so m*r is exact at P bits
			logR[j] = toBF(r, 64)
			l := logBFSlow(toBF(r, tabPrec), tabPrec)
			logT[j] = newF(P).Neg(l)
		}
		for j := range sinT {
			a := newF(tabPrec).SetMantExp(bfInt(int64(j), tabPrec), -6)
			s, c := sinCosSlow(a, tabPrec)
			sinT[j], cosT[j] = newF(P).Set(s), newF(P).Set(c)
		}
		for j := range atanT {
			a := newF(tabPrec).SetMantExp(bfInt(int64(j), tabPrec), -6)
			atanT[j] = newF(P).Set(atanBFSlow(a, tabPrec))
		}
	})
}

// terms is how many series terms make x**(step*n) negligible at P bits for
// |x| < 2**e (e < 0): the smallest n with -e*step*n > P+8.
func terms(x *big.Float, step int) int {
	if x.Sign() == 0 {
		return 1
	}
	e := -x.MantExp(nil)
	if e < 1 {
		e = 1
	}
	n := (P+8)/(e*step) + 2
	if n > len(invOdd)-1 {
		n = len(invOdd) - 1
	}
	return n
}

// factTerms is how many Taylor terms x**n/n! are needed for |x| < 2**-e:
// the smallest n with n*e + log2(n!) > P+8 (log2 n! summed from below).
func factTerms(x *big.Float) int {
	if x.Sign() == 0 {
		return 1
	}
	e := -x.MantExp(nil)
	if e < 0 {
		e = 0
	}
	acc := 0
	for n := 1; n < len(invFact)-1; n++ {
		acc += e + bits.Len(uint(n)) - 1
		if acc > P+8 {
			return n
		}
	}
	return len(invFact) - 2
}

// expm1Small returns e**r - 1 for |r| <= 1 with relative error near 2**-P:
// r is divided by 2**8, the Taylor series evaluated by Horner with the
// precomputed 1/n!, and e(2+e) undoes each halving (no step cancels).
func expm1Small(r *big.Float, _ uint) *big.Float {
	tables()
	const halvings = 8
	x := newF(P).SetMantExp(r, -halvings)
	n := factTerms(x)
	p := newF(P).Set(invFact[n])
	for i := n - 1; i >= 1; i-- {
		p.Mul(p, x)
		p.Add(p, invFact[i])
	}
	p.Mul(p, x)
	two := bfInt(2, P)
	t := newF(P)
	for i := 0; i < halvings; i++ {
		t.Add(p, two)
		p.Mul(p, t)
	}
	return p
}

// expBF returns e**x for |x| <= 2048.
func expBF(x *big.Float, _ uint) *big.Float {
	tables()
	q := newF(P).Mul(x, bigInvLn2)
	k := roundInt(q)
	r := newF(P+16).Mul(bigLn2, bfInt(k, P+16))
	r.Sub(newF(P+16).Set(x), r)
	e := expm1Small(r, P)
	e.Add(e, bfInt(1, P))
	return e.SetMantExp(e, int(k))
}

// logBF returns ln x for a finite x > 0: x = m * 2**e with m in [1, 2),
// ln m = logT[j] + ln(1+u) with u = m*logR[j] - 1, |u| < 2**-7.
func logBF(x *big.Float, _ uint) *big.Float {
	tables()
	m := newF(P)
	e := x.MantExp(m) // m in [0.5, 1), at x's precision
	m.SetPrec(P)
	m.SetMantExp(m, 1)
	e--
	// j from the first six fraction bits of m.
	t := newF(P).Sub(m, bfInt(1, P))
	t.SetMantExp(t, 6)
	ji, _ := t.Int64()
	j := int(ji)
	u := m.Mul(m, logR[j])
	u.Sub(u, bfInt(1, P))
	res := log1pNear(u, P)
	res.Add(res, logT[j])
	if e != 0 {
		res.Add(res, newF(P).Mul(bigLn2, bfInt(int64(e), P)))
	}
	return res
}

// log1pNear returns ln(1+u) for |u| <= 0.42 as 2 atanh(u/(2+u)), the odd
// series in z**2 evaluated by Horner with the precomputed 1/(2k+1).
func log1pNear(u *big.Float, _ uint) *big.Float {
	tables()
	if u.Sign() == 0 {
		return newF(P)
	}
	z := newF(P).Add(u, bfInt(2, P))
	z.Quo(u, z)
	z2 := newF(P).Mul(z, z)
	n := terms(z2, 1)
	p := newF(P).Set(invOdd[n])
	for k := n - 1; k >= 0; k-- {
		p.Mul(p, z2)
		p.Add(p, invOdd[k])
	}
	p.Mul(p, z)
	return p.SetMantExp(p, 1)
}

// sinCosSeries returns sin r and cos r for |r| <= pi/4 + 2**-7: r = j/64 +
// d with |d| <= 2**-7, the tables give sin and cos of j/64, and short
// Horner series give sin d and cos d.
func sinCosSeries(r *big.Float, _ uint) (*big.Float, *big.Float) {
	tables()
	a := newF(P).Abs(r)
	t := newF(P).SetMantExp(a, 6)
	t.Add(t, half(P))
	ji, _ := t.Int64()
	j := int(ji)
	if j >= len(sinT) {
		j = len(sinT) - 1
	}
	d := newF(P).SetMantExp(bfInt(int64(j), P), -6)
	d.Sub(a, d)
	d2 := newF(P).Mul(d, d)
	n := (factTerms(d) + 1) / 2
	if 2*n+1 >= len(invFact) {
		n = (len(invFact) - 2) / 2
	}
	// sin d = d (1 - d2/3! + d2^2/5! - ...), cos d = 1 - d2/2! + d2^2/4! - ...
	sd := newF(P).Set(invFact[2*n+1])
	cd := newF(P).Set(invFact[2*n])
	if n&1 == 1 {
		sd.Neg(sd)
		cd.Neg(cd)
	}
	for k := n - 1; k >= 0; k-- {
		sd.Mul(sd, d2)
		cd.Mul(cd, d2)
		if k&1 == 1 {
			sd.Sub(sd, invFact[2*k+1])
			cd.Sub(cd, invFact[2*k])
		} else {
			sd.Add(sd, invFact[2*k+1])
			cd.Add(cd, invFact[2*k])
		}
	}
	sd.Mul(sd, d)
	var s, c *big.Float
	if j == 0 {
		s, c = sd, cd
	} else {
		// sin(a) = sin(j/64) cos d + cos(j/64) sin d, cos(a) = cos(j/64) cos d - sin(j/64) sin d.
		s = newF(P).Mul(sinT[j], cd)
		s.Add(s, newF(P).Mul(cosT[j], sd))
		c = newF(P).Mul(cosT[j], cd)
		c.Sub(c, newF(P).Mul(sinT[j], sd))
	}
	if r.Sign() < 0 {
		s.Neg(s)
	}
	return s, c
}

// atanBF returns atan x for finite x: for |x| <= 1, atan x = atan(j/64) +
// atan t with t = (x - j/64)/(1 + x j/64), |t| <= 2**-7; beyond,
// pi/2 - atan(1/x).
func atanBF(x *big.Float, _ uint) *big.Float {
	tables()
	neg := x.Sign() < 0
	a := newF(P).Abs(x)
	one := bfInt(1, P)
	inv := a.Cmp(one) > 0
	if inv {
		a.Quo(one, a)
	}
	t := newF(P).SetMantExp(a, 6)
	t.Add(t, half(P))
	ji, _ := t.Int64()
	j := int(ji)
	c := newF(P).SetMantExp(bfInt(int64(j), P), -6)
	num := newF(P).Sub(a, c)
	den := newF(P).Mul(a, c)
	den.Add(den, one)
	t.Quo(num, den)
	t2 := newF(P).Mul(t, t)
	n := terms(t2, 1)
	p := newF(P).Set(invOdd[n])
	if n&1 == 1 {
		p.Neg(p)
	}
	for k := n - 1; k >= 0; k-- {
		p.Mul(p, t2)
		if k&1 == 1 {
			p.Sub(p, invOdd[k])
		} else {
			p.Add(p, invOdd[k])
		}
	}
	p.Mul(p, t)
	p.Add(p, atanT[j])
	if inv {
		p.Sub(newF(P).SetMantExp(bigPi, -1), p)
	}
	if neg {
		p.Neg(p)
	}
	return p
}
