package fees

import "math/bits"

// NextBasefee is §4.2's update
//
//	basefee' = max(1, basefee × (1 + clamp((U − T)/(T × α), −δ, +δ)))
//
// in integer arithmetic: the change basefee×|U−T|/(T×α) is computed with a
// 128-bit product and rounded toward zero, then clamped to basefee×δ. One
// rule is added so the market works near the floor: any block off target
// moves the basefee by at least 1 base unit (EIP-1559 does this for
// increases). Without it a basefee of 1 could never rise (1×(U−T)/(8T)
// rounds to 0) and a basefee below 8 could never fall back to the floor.
func NextBasefee(basefee, used, target uint64) uint64 {
	if target == 0 || used == target {
		return max(basefee, MinBasefee)
	}
	up := used > target
	diff := target - used
	if up {
		diff = used - target
	}
	change := mulDiv(basefee, diff, target*Alpha)
	change = min(change, basefee/DeltaDen) // clamp to δ
	change = max(change, 1)
	if up {
		if next, carry := bits.Add64(basefee, change, 0); carry == 0 {
			return next
		}
		return ^uint64(0) // saturate instead of wrapping
	}
	// min keeps the subtraction from wrapping; the floor does the rest.
	return max(basefee-min(change, basefee), MinBasefee)
}

// mulDiv is a×b/c rounded down; it saturates if the quotient would not fit.
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi >= c {
		return ^uint64(0)
	}
	q, _ := bits.Div64(hi, lo, c)
	return q
}
