package softfloat

// Half-integer powers x**(k/2), k odd and |k| <= 7 (x**-1.5, x**1.5,
// x**-0.5, x**2.5 ...), the common non-integer exponents in numeric code
// (the n-body kernel's distance**-1.5). powFast's general route takes
// about fifty 192-bit multiplications (a logarithm, a product and an
// exponential); this one takes two to seven: one Newton step for
// 1/sqrt(m) from a binary64 first guess, then a power of that (k < 0) or
// of m times sqrt(m) (k > 0).
//
// The result and the ok flag must be exactly what the general route gives,
// because the caller charges the big.Float slow path when ok is false
// (docs/decisions.md: charges never depend on which fast path ran). Both
// routes approximate the same real number: the general one to about
// 2**-128 relative, this one to about 2**-100 (2**-48 ulp). When this
// approximation is farther than 2**-31 ulp from a rounding midpoint, the
// real number is farther than 2**-31 - 2**-48 ulp from it, the general
// approximation farther than its own 2**-35 ulp window (so it returns
// ok=true), and both round to the same, correctly rounded, binary64
// value. Otherwise this path steps aside and the general route decides,
// as before.

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
	// x = m * 4**h with m in [1, 4): m = sig * 2**(e - 2h - 52) exactly.
	h := e >> 1 // floor(e / 2)
	m := fxShl(fx{x.frac() | hidden, 0, 0}, uint(fxFrac-52+e-2*h))
	// m is exactly the binary64 value with x's fraction and exponent
	// e-2h (0 or 1), so its reciprocal square root rounded twice is a
	// first guess y0 = (1+d)/sqrt(m) with |d| <= 2**-52. One Newton step
	// y0 (3 - m y0**2) / 2 leaves a relative error of 3d**2/2 + d**3/2,
	// below 2**-103; the truncations of fx add a few 2**-168.
	y, ok := fxFromF64(Div(One, Sqrt(pack(false, bias+e-2*h, x.frac()))))
	if !ok {
		return 0, false
	}
	y = fxShr(fxMul(y, fxSub(fxThree, fxMul(fxMul(m, y), y))), 1) // 1/sqrt(m) in (1/2, 1]
	n := k
	if n < 0 {
		n = -n
	}
	var p fx
	if k < 0 {
		// m**(k/2) = y**n, in (2**-7, 1]: relative error below 7 * 2**-103.
		p = y
		if n > 1 {
			y2 := fxMul(y, y)
			for i := 1; i < n; i += 2 {
				p = fxMul(p, y2)
			}
		}
	} else {
		// m**(k/2) = (m y) * m**j with j = (n-1)/2, in [1, 128): m y is
		// sqrt(m) to below 2**-103, and each product by m (exact, at most
		// 52 fraction bits) only truncates below 2**-168.
		p = fxMul(m, y)
		for j := (n - 1) / 2; j > 0; j-- {
			p = fxMul(p, m)
		}
	}
	return fxToF64Far(p, h*k)
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
