package timers

import (
	"math/big"
	"math/bits"
)

// Deposit is the progressive deposit of an actor's next timer when it
// already has n pending: base_deposit × (1 + floor(n / 100)) (v2 attack
// table, "Schedule millions of timers").
func Deposit(n uint64) *big.Int {
	d := new(big.Int).SetUint64(1 + n/DepositStep)
	return d.Mul(d, big.NewInt(BaseDeposit))
}

// Surcharge is the burned same-block surcharge of the k-th timer (k ≥ 1)
// aimed at one height: base_cost × 2^max(0, k − 16) (v2 attack table,
// "Timer bomb").
func Surcharge(k uint64) *big.Int {
	s := big.NewInt(SurchargeBaseCost)
	if k > SurchargeFreeTimers {
		e := k - SurchargeFreeTimers
		// 2^300 base units is far beyond any supply; clamp the shift so a
		// huge k cannot make a huge number (the payment fails either way).
		e = min(e, 300)
		s.Lsh(s, uint(e))
	}
	return s
}

// NextTimerBasefee is the dynamic timer basefee after a block that ends
// with depth timers pending: the §4.2 form on queue depth,
//
//	fee' = max(min, fee × (1 + clamp((depth − T)/(T × 8), −1/8, +1/8)))
//
// in integer arithmetic rounded toward zero (the floor is large enough
// that rounding never freezes it).
func NextTimerBasefee(fee, depth uint64) uint64 {
	const t = TargetQueueDepth
	fee = max(fee, TimerBasefeeMin)
	if depth == t {
		return fee
	}
	diff := depth - t
	if depth < t {
		diff = t - depth
	}
	hi, lo := bits.Mul64(fee, diff)
	change := ^uint64(0)
	if hi < t*8 {
		change, _ = bits.Div64(hi, lo, t*8)
	}
	change = min(change, fee/8)
	if depth > t {
		if fee+change < fee {
			return ^uint64(0)
		}
		return fee + change
	}
	return max(fee-change, TimerBasefeeMin)
}

// Bid is what a Gas Bidding Agent returns (CIP-1 TxFeeParams), in base
// units per cycle and per cell.
type Bid struct {
	TipPerCycle, MaxFeePerCycle uint64
	TipPerCell, MaxFeePerCell   uint64
}

// DefaultBid is the network default for a timer without a GBA, or whose
// GBA fails: pay the basefees, no tip (spec/README.md "GBA interface").
func DefaultBid(basefeeCycle, basefeeCell uint64) Bid {
	return Bid{MaxFeePerCycle: basefeeCycle, MaxFeePerCell: basefeeCell}
}

// EffectiveTip is scheduler-dos-protection's
// min(tip_per_cycle, max_fee_per_cycle − basefee_cycle); ok is false when
// the bid's max fee is below the basefee (it cannot pay and is deferred).
func EffectiveTip(b Bid, basefeeCycle uint64) (tip uint64, ok bool) {
	if b.MaxFeePerCycle < basefeeCycle {
		return 0, false
	}
	return min(b.TipPerCycle, b.MaxFeePerCycle-basefeeCycle), true
}

// CellTip is the same rule on the cell meter; ok is false when the bid's
// max fee per cell is below the cell basefee.
func CellTip(b Bid, basefeeCell uint64) (tip uint64, ok bool) {
	if b.MaxFeePerCell < basefeeCell {
		return 0, false
	}
	return min(b.TipPerCell, b.MaxFeePerCell-basefeeCell), true
}

// Boost is the bounded anti-starvation boost of a timer deferred d blocks
// (v2 attack table, "Outbid everyone perpetually").
func Boost(deferrals uint64) uint64 {
	return min(deferrals, StarvationBoostMaxBlocks) * StarvationBoostPerBlock
}
