package softfloat

import "math/bits"

// Mul returns a*b rounded to nearest even.
func Mul(a, b F64) F64 {
	signZ := a.sign() != b.sign()
	expA, sigA := a.exp(), a.frac()
	expB, sigB := b.exp(), b.frac()
	if expA == expMax || expB == expMax {
		if a.IsNaN() || b.IsNaN() {
			return NaN
		}
		if a.IsZero() || b.IsZero() {
			return NaN // inf * 0
		}
		return nanOrInf(signZ)
	}
	if expA == 0 {
		if sigA == 0 {
			return pack(signZ, 0, 0)
		}
		expA, sigA = normSubnormal(sigA)
	}
	if expB == 0 {
		if sigB == 0 {
			return pack(signZ, 0, 0)
		}
		expB, sigB = normSubnormal(sigB)
	}
	expZ := expA + expB - 0x3FF
	sigA = (sigA | hidden) << 10
	sigB = (sigB | hidden) << 11
	hi, lo := bits.Mul64(sigA, sigB)
	sigZ := hi
	if lo != 0 {
		sigZ |= 1
	}
	if sigZ < 1<<62 {
		expZ--
		sigZ <<= 1
	}
	if uint(expZ) < 0x7FD {
		return roundNormal(signZ, expZ, sigZ)
	}
	return roundPack(signZ, expZ, sigZ)
}

// Div returns a/b rounded to nearest even. Division by zero gives ±inf (or
// NaN for 0/0) as IEEE-754 says; Python's ZeroDivisionError is raised by the
// caller before it gets here.
func Div(a, b F64) F64 {
	signZ := a.sign() != b.sign()
	expA, sigA := a.exp(), a.frac()
	expB, sigB := b.exp(), b.frac()
	switch {
	case a.IsNaN() || b.IsNaN():
		return NaN
	case expA == expMax:
		if expB == expMax {
			return NaN // inf/inf
		}
		return nanOrInf(signZ)
	case expB == expMax:
		return pack(signZ, 0, 0)
	case b.IsZero():
		if a.IsZero() {
			return NaN
		}
		return nanOrInf(signZ)
	case a.IsZero():
		return pack(signZ, 0, 0)
	}
	if expA == 0 {
		expA, sigA = normSubnormal(sigA)
	}
	if expB == 0 {
		expB, sigB = normSubnormal(sigB)
	}
	sigA |= hidden
	sigB |= hidden
	expZ := expA - expB + 0x3FE
	// The quotient's leading one must land on bit 62: shift the dividend
	// 62 places when sigA >= sigB (quotient in [1, 2)), 63 otherwise.
	shift := uint(62)
	if sigA < sigB {
		expZ--
		shift = 63
	}
	q, r := bits.Div64(sigA>>(64-shift), sigA<<shift, sigB)
	if r != 0 {
		q |= 1
	}
	if uint(expZ) < 0x7FD {
		return roundNormal(signZ, expZ, q)
	}
	return roundPack(signZ, expZ, q)
}
