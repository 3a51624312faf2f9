package softfloat

import "math/bits"

// Add returns a+b rounded to nearest even.
func Add(a, b F64) F64 {
	if a.sign() == b.sign() {
		return addMags(a, b, a.sign())
	}
	return subMags(a, b, a.sign())
}

// Sub returns a-b rounded to nearest even.
func Sub(a, b F64) F64 {
	if a.sign() == b.sign() {
		return subMags(a, b, a.sign())
	}
	return addMags(a, b, a.sign())
}

// addMags adds the magnitudes of a and b and gives the result signZ
// (SoftFloat 3e softfloat_addMagsF64).
func addMags(a, b F64, signZ bool) F64 {
	expA, sigA := a.exp(), a.frac()
	expB, sigB := b.exp(), b.frac()
	expDiff := expA - expB
	var expZ int
	var sigZ uint64
	if expDiff == 0 {
		if expA == 0 {
			// Both subnormal or zero: the fractions add exactly and a
			// carry into bit 52 makes the smallest normal.
			return pack(signZ, 0, sigA+sigB)
		}
		if expA == expMax {
			if sigA|sigB != 0 {
				return NaN
			}
			return a
		}
		expZ = expA
		sigZ = (2*hidden + sigA + sigB) << 9
	} else {
		sigA <<= 9
		sigB <<= 9
		if expDiff < 0 {
			if expB == expMax {
				if sigB != 0 {
					return NaN
				}
				return nanOrInf(signZ)
			}
			expZ = expB
			if expA != 0 {
				sigA += 1 << 61
			} else {
				sigA <<= 1
			}
			sigA = shiftRightJam(sigA, -expDiff)
		} else {
			if expA == expMax {
				if sigA != 0 {
					return NaN
				}
				return a
			}
			expZ = expA
			if expB != 0 {
				sigB += 1 << 61
			} else {
				sigB <<= 1
			}
			sigB = shiftRightJam(sigB, expDiff)
		}
		sigZ = 1<<61 + sigA + sigB
		if sigZ < 1<<62 {
			expZ--
			sigZ <<= 1
		}
	}
	if uint(expZ) < 0x7FD {
		return roundNormal(signZ, expZ, sigZ)
	}
	return roundPack(signZ, expZ, sigZ)
}

// subMags subtracts the magnitude of b from that of a; signZ is the sign of
// a (SoftFloat 3e softfloat_subMagsF64).
func subMags(a, b F64, signZ bool) F64 {
	expA, sigA := a.exp(), a.frac()
	expB, sigB := b.exp(), b.frac()
	expDiff := expA - expB
	if expDiff == 0 {
		if expA == expMax {
			return NaN // inf-inf, or a NaN operand
		}
		sigDiff := int64(sigA) - int64(sigB)
		if sigDiff == 0 {
			return Zero // x-x is +0 when rounding to nearest
		}
		if expA != 0 {
			expA--
		}
		if sigDiff < 0 {
			signZ = !signZ
			sigDiff = -sigDiff
		}
		shift := bits.LeadingZeros64(uint64(sigDiff)) - 11
		expZ := expA - shift
		if expZ < 0 {
			shift = expA
			expZ = 0
		}
		return pack(signZ, expZ, uint64(sigDiff)<<uint(shift))
	}
	sigA <<= 10
	sigB <<= 10
	var expZ int
	var sigZ uint64
	if expDiff < 0 {
		signZ = !signZ
		if expB == expMax {
			if sigB != 0 {
				return NaN
			}
			return nanOrInf(signZ)
		}
		if expA != 0 {
			sigA += 1 << 62
		} else {
			sigA += sigA
		}
		sigA = shiftRightJam(sigA, -expDiff)
		sigB |= 1 << 62
		expZ = expB
		sigZ = sigB - sigA
	} else {
		if expA == expMax {
			if sigA != 0 {
				return NaN
			}
			return a
		}
		if expB != 0 {
			sigB += 1 << 62
		} else {
			sigB += sigB
		}
		sigB = shiftRightJam(sigB, expDiff)
		sigA |= 1 << 62
		expZ = expA
		sigZ = sigA - sigB
	}
	return normRoundPack(signZ, expZ-1, sigZ)
}
