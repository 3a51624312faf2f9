package softfloat

import "math/bits"

// Sqrt returns the correctly rounded square root of a: NaN for a < 0 (except
// -0, whose root is -0), +inf for +inf.
func Sqrt(a F64) F64 {
	expA, sigA := a.exp(), a.frac()
	switch {
	case a.IsNaN():
		return NaN
	case a.IsZero():
		return a
	case a.sign():
		return NaN
	case expA == expMax:
		return a
	}
	if expA == 0 {
		expA, sigA = normSubnormal(sigA)
	}
	sigA |= hidden
	// a = sigA * 2**e2 with sigA in [2**52, 2**53).
	e2 := expA - bias - 52
	// Shift sigA to N = sigA << k with N in [2**124, 2**126) and e2-k even,
	// so sqrt(a) = isqrt(N) * 2**((e2-k)/2) with isqrt(N) in [2**62, 2**63).
	k := 72
	if (e2-k)&1 != 0 {
		k = 73
	}
	nHi, nLo := sigA<<(uint(k)-64), uint64(0)
	r, exact := isqrtNewton(nHi, nLo)
	if !exact {
		r |= 1
	}
	// r has its leading one at bit 62, which roundPack reads as
	// 2**(exp+1-bias); solve for exp.
	return roundPack(false, (e2-k)/2+bias+62-1, r)
}

// isqrt128 returns floor(sqrt(n)) for the 128-bit n = hi:lo (hi < 2**62)
// and whether the root is exact. Digit-by-digit binary method: the
// reference TestIsqrtNewton checks isqrtNewton against.
func isqrt128(hi, lo uint64) (uint64, bool) {
	// res and bit are 128-bit; res stays below 2**64 after the final
	// shift but may exceed it in between.
	var resHi, resLo uint64
	bitHi, bitLo := uint64(1)<<62, uint64(0)
	for bitHi != 0 || bitLo != 0 {
		// t = res + bit
		tLo, c := bits.Add64(resLo, bitLo, 0)
		tHi, _ := bits.Add64(resHi, bitHi, c)
		if hi > tHi || (hi == tHi && lo >= tLo) {
			var b uint64
			lo, b = bits.Sub64(lo, tLo, 0)
			hi, _ = bits.Sub64(hi, tHi, b)
			// res = res>>1 + bit
			resLo = resLo>>1 | resHi<<63
			resHi >>= 1
			resLo, c = bits.Add64(resLo, bitLo, 0)
			resHi, _ = bits.Add64(resHi, bitHi, c)
		} else {
			resLo = resLo>>1 | resHi<<63
			resHi >>= 1
		}
		// bit >>= 2
		bitLo = bitLo>>2 | bitHi<<62
		bitHi >>= 2
	}
	return resLo, hi == 0 && lo == 0
}

// isqrtNewton is isqrt128 for 2**124 <= hi:lo < 2**126, by integer Newton
// steps: floor(sqrt(hi)) from above (64-bit divisions), one 128-by-64-bit
// step for the full root (which lands at or a few units above it), then a
// downward correction checked by squaring.
//
// The first guess is isqrtSeed[hi>>54], at least floor(sqrt(hi)) and within
// 2**-7 of sqrt(hi): from any x >= floor(sqrt(hi)) the integer steps fall strictly
// to floor(sqrt(hi)) and stop there, so the root is the one a start at
// 2**31 gives, after three divisions instead of about six.
func isqrtNewton(hi, lo uint64) (uint64, bool) {
	x := uint64(isqrtSeed[hi>>54]) // >= floor(sqrt(hi)) since hi < (hi>>54 + 1) * 2**54
	for {
		y := (x + hi/x) >> 1
		if y >= x {
			break
		}
		x = y
	}
	r := x << 32 // >= 2**62 > hi, so the division below cannot overflow
	q, _ := bits.Div64(hi, lo, r)
	r = r>>1 + q>>1 + r&q&1 // floor((r+q)/2) >= floor(sqrt(hi:lo))
	for {
		ph, pl := bits.Mul64(r, r)
		if ph > hi || (ph == hi && pl > lo) {
			r--
			continue
		}
		return r, ph == hi && pl == lo
	}
}

// isqrtSeed[j] is floor(sqrt((j+1) * 2**54)) for j < 256: isqrtNewton's
// first guess for every hi with hi>>54 == j. Such an hi is below
// (j+1) * 2**54, so its floor(sqrt(hi)) is at most the seed, which is all
// the integer steps need (rounding the seed up would add nothing).
var isqrtSeed = func() (t [256]uint32) {
	for j := range t {
		n := uint64(j+1) << 54
		// floor(sqrt(n)) by integer Newton steps from 2**31 >= sqrt(n).
		x := uint64(1) << 31
		for {
			y := (x + n/x) >> 1
			if y >= x {
				break
			}
			x = y
		}
		t[j] = uint32(x)
	}
	return t
}()
