package softfloat

// Half-integer powers x**(k/2), k odd and |k| <= 7 (x**-1.5, x**1.5,
// x**-0.5, x**2.5 ...), the common non-integer exponents in numeric code
// (the n-body kernel's distance**-1.5). powFast's general route takes
// about fifty 192-bit multiplications (a logarithm, a product and an
// exponential); this one takes three to seven 128-bit ones (fx2, as the
// sine and cosine route): one Newton step for 1/sqrt(m) from a binary64
// first guess, then a power of that (k < 0) or sqrt(m) times a power of
// m (k > 0).
//
// The result and the ok flag must be exactly what the general route gives,
// because the caller charges the big.Float slow path when ok is false
// (docs/decisions.md: charges never depend on which fast path ran). Both
// routes approximate the same real number: the general one to about
// 2**-128 relative, this one to below 2**-99 (2**-46 ulp). When this
// approximation is farther than 2**-31 ulp from a rounding midpoint, the
// real number is farther than 2**-31 - 2**-46 ulp from it, the general
// approximation farther than its own 2**-35 ulp window (so it returns
// ok=true), and both round to the same, correctly rounded, binary64
// value. Otherwise this path steps aside and the general route decides,
// as before.

// fx2Three is 3 in fx2, the constant of the Newton step for 1/sqrt.
var fx2Three = fx2{0, 3 << (fx2Frac - 64)}

// noHalfPow turns this path off so that tests can compare it with the
// general route. Only tests set it.
var noHalfPow bool

// halfPowExp returns k when y = k/2 with k odd and |k| <= 7.
func halfPowExp(y F64) (int, bool) {
	e := y.exp() - bias
	if e < -1 || e > 1 {
		return 0, false
	}
	sig := y.frac() | hidden
	shift := uint(51 - e) // 2|y| = sig >> shift when the low bits are zero
	if sig&(1<<shift-1) != 0 {
		return 0, false
	}
	k := int(sig >> shift)
	if k&1 == 0 || k > 7 {
		return 0, false
	}
	if y.sign() {
		k = -k
	}
	return k, true
}

// halfPowFast returns x**(k/2) for a positive normal x with
// |ilog2 x| <= 100 and k from halfPowExp, or ok=false when the result is
// within 2**-31 ulp of a rounding midpoint (the general route decides).
// With |ilog2 x| <= 100 and |k| <= 7 the result is at most 2**±354, far
// inside the normal range, and |y ln x| < 2**8, inside the general route's
// range, so range limits never differ between the two.
func halfPowFast(x F64, k int) (F64, bool) {
	e := x.exp() - bias
	if x.exp() == 0 || e < -100 || e > 100 {
		return 0, false
	}
	// x = m * 4**h with m in [1, 4), m = sig * 2**(e - 2h - 52) exactly;
	// as fx2 (124 fraction bits) m is sig << (72 + e - 2h), all in hi.
	h := e >> 1 // floor(e / 2)
	sig := x.frac() | hidden
	m := fx2{0, sig << uint(8+e-2*h)}
	// m is exactly the binary64 value with x's fraction and exponent
	// e-2h (0 or 1), so its reciprocal square root rounded twice is a
	// first guess y0 = (1+d)/sqrt(m) in (1/2, 1] with |d| <= 2**-52,
	// exact in fx2 (sig0 << (71 + its exponent)). One Newton step
	// y0 (3 - m y0**2) / 2 leaves a relative error of 3d**2/2 + d**3/2,
	// below 2**-103; fx2's truncations add below 2**-121.
	y0 := Div(One, Sqrt(pack(false, bias+e-2*h, x.frac())))
	y := fx2{0, (y0.frac() | hidden) << uint(y0.exp()-bias+8)}
	y = fx2Mul(y, fx2Sub(fx2Three, fx2Mul(fx2Mul(m, y), y)))
	y = fx2{y.lo>>1 | y.hi<<63, y.hi >> 1} // 1/sqrt(m) in (1/2, 1]
	n := k
	if n < 0 {
		n = -n
	}
	var p fx2
	scale := h * k
	if k < 0 {
		// m**(k/2) = y**n, in (2**-7, 1]: relative error below
		// 7 * 2**-103 plus four truncations of 2**-117.
		p = y
		if n > 1 {
			y2 := fx2Mul(y, y)
			for i := 1; i < n; i += 2 {
				p = fx2Mul(p, y2)
			}
		}
	} else {
		// m**(k/2) = (m y) * m**j = (m y) * (m/4)**j * 4**j with
		// j = (n-1)/2: m y is sqrt(m) to below 2**-103, in [1, 2), and
		// each product by m/4 (exact: m's bits, two places lower) keeps
		// the value in [2**-6, 2), where a truncation is below 2**-118.
		p = fx2Mul(m, y)
		q := fx2{m.lo>>2 | m.hi<<62, m.hi >> 2}
		for j := (n - 1) / 2; j > 0; j-- {
			p = fx2Mul(p, q)
			scale += 2
		}
	}
	return fxToF64Far(fxFromFx2(p), scale)
}

// fxToF64Far rounds a * 2**scale to binary64 like fxToF64, with
// ok=false when a is within 2**-31 ulp of a rounding midpoint (fxToF64's
// nearMid window is 2**-35 ulp) or the result would not be normal.
func fxToF64Far(a fx, scale int) (F64, bool) {
	l := a.bitLen()
	if l == 0 {
		return 0, false
	}
	top := fxShl(fxAbs(a), uint(192-l))
	// Bits 10..0 of the top word and the next 20 bits: a midpoint is
	// 0x400 followed by zeros; just below it, 0x3FF followed by ones.
	low, next := top.a2&0x7FF, top.a1>>44
	if (low == 0x400 && next == 0) || (low == 0x3FF && next == 1<<20-1) {
		return 0, false
	}
	exp := l - 1 + scale + 1022 - fxFrac
	if exp <= 0 || exp >= 0x7FC {
		return 0, false
	}
	r, _ := fxToF64(a, scale)
	return r, true
}
