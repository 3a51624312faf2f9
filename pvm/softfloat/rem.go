package softfloat

import "math/bits"

// Fmod returns the C fmod of a and b: a - n*b where n is a/b truncated
// toward zero, with the sign of a. The result is always exact. It is NaN
// when a is infinite or b is zero, and a when b is infinite. Python's
// float % and divmod are built on it in pvm/object.
func Fmod(a, b F64) F64 {
	if a.IsNaN() || b.IsNaN() || a.IsInf() || b.IsZero() {
		return NaN
	}
	if b.IsInf() || a.IsZero() {
		return a
	}
	sign := a.sign()
	expA, sigA := a.exp(), a.frac()
	expB, sigB := b.exp(), b.frac()
	if expA == 0 {
		expA, sigA = normSubnormal(sigA)
	}
	if expB == 0 {
		expB, sigB = normSubnormal(sigB)
	}
	sigA |= hidden
	sigB |= hidden
	// |a| = sigA * 2**(expA-1075), |b| = sigB * 2**(expB-1075).
	if expA < expB || (expA == expB && sigA < sigB) {
		return a
	}
	// r = (sigA * 2**(expA-expB)) mod sigB, 63 bits of shift at a time.
	r := sigA % sigB
	for d := expA - expB; d > 0; {
		s := d
		if s > 63 {
			s = 63
		}
		_, r = bits.Div64(r>>(64-uint(s)), r<<uint(s), sigB)
		d -= s
	}
	if r == 0 {
		return pack(sign, 0, 0)
	}
	// The remainder is r * 2**(expB-1075), exact; normalise it.
	shift := bits.LeadingZeros64(r) - 11
	e := expB - shift
	if e <= 0 {
		// Subnormal: fraction = r * 2**(expB-1), exponent field 0. The
		// product is an integer because every operand is a multiple of
		// 2**-1074, so the right shift for expB < 1 drops only zeros.
		if expB >= 1 {
			return pack(sign, 0, r<<uint(expB-1))
		}
		return pack(sign, 0, r>>uint(1-expB))
	}
	return pack(sign, e-1, r<<uint(shift))
}
