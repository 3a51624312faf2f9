package fees

import "math/bits"

// NextBasefee is §4.2's update, exactly:
//
//	basefee' = max(1, basefee × (1 + clamp((U − T)/(T × α), −δ, +δ)))
//
// in whole base units: the change basefee×|U−T|/(T×α) is computed with a
// 128-bit product and rounded toward zero, clamped to basefee×δ (also
// rounded toward zero), and added or subtracted. Nothing else moves it:
// unlike go-ethereum's CalcBaseFee, which raises the basefee by at least 1
// whenever a block is over target, a change that rounds to zero is zero.
// So a basefee below 1/δ = 8 base units never moves (its largest change,
// basefee/8, rounds to 0); at 8 or more the result is go-ethereum's series
// wherever go-ethereum's minimum step does not apply (TestGethSeries).
// docs/decisions.md "Basefee: §4.2 exactly" says what this means for the
// genesis basefees of 1.
func NextBasefee(basefee, used, target uint64) uint64 {
	if target == 0 {
		return max(basefee, MinBasefee)
	}
	// At the target the difference is 0, so the change is 0 and the
	// downward branch returns max(basefee, MinBasefee), §4.2's "unchanged".
	up := used > target
	diff := target - used
	if up {
		diff = used - target
	}
	change := mulDiv(basefee, diff, target*Alpha)
	change = min(change, basefee/DeltaDen) // clamp to δ
	if up {
		if next, carry := bits.Add64(basefee, change, 0); carry == 0 {
			return next
		}
		return ^uint64(0) // saturate instead of wrapping
	}
	// change ≤ basefee/8 < basefee, so this cannot wrap; the floor is §4.2's max(1, …).
	return max(basefee-change, MinBasefee)
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
