package fees

import (
	"math/big"
	"math/bits"
)

// Prices is what a transaction offers per unit on one meter.
type Prices struct {
	MaxFee uint64 // max_fee_per_* (base units per unit)
	Tip    uint64 // tip_per_*
}

// EffectiveTip is min(tip, max_fee − basefee) (§2.3); callers have checked
// max_fee ≥ basefee.
func EffectiveTip(p Prices, basefee uint64) uint64 {
	room, borrow := bits.Sub64(p.MaxFee, basefee, 0)
	if borrow != 0 {
		return 0 // max_fee below the basefee: nothing is left for a tip
	}
	return min(p.Tip, room)
}

// Charge is the outcome of §2.3 for one transaction on both meters.
type Charge struct {
	Fee    *big.Int // paid by the sender = Burned + Tip
	Burned *big.Int // used × basefee, destroyed (§4.2, §8.4: 100% burned)
	Tip    *big.Int // used × effective tip, to the proposer (§8.4)
}

// Compute applies §2.3:
//
//	fee = cycles_used × (bc + min(tip_c, max_c − bc)) + cells_used × (bb + min(tip_b, max_b − bb))
//
// Every product is below 2^128, so the sums fit 192 bits; they are
// computed in fixed width and converted once, because this runs for every
// transaction of every block.
func Compute(cyclesUsed, cellsUsed uint64, cycle, cell Prices, bc, bb uint64) Charge {
	burned := mul192(cyclesUsed, bc).add(mul192(cellsUsed, bb))
	tip := mul192(cyclesUsed, EffectiveTip(cycle, bc)).add(mul192(cellsUsed, EffectiveTip(cell, bb)))
	w := new([3]bigWords) // the three amounts in one allocation
	return Charge{Fee: burned.add(tip).bigIn(&w[0]), Burned: burned.bigIn(&w[1]), Tip: tip.bigIn(&w[2])}
}

// MaxCost is the most a transaction can pay in fees: its limits at its max
// fees. The sender must hold this plus the value before execution (§2.2(b));
// what is not used is refunded at the max fee rates (§2.3).
func MaxCost(cyclesLimit, cellsLimit, maxFeeCycle, maxFeeCell uint64) *big.Int {
	return mul192(cyclesLimit, maxFeeCycle).add(mul192(cellsLimit, maxFeeCell)).big()
}

// OrderingFee is §6.4's effective fee for mempool ordering, from intrinsic
// costs only:
//
//	intrinsic_cycles × min(max_fee_per_cycle, basefee_cycle + tip_per_cycle) +
//	intrinsic_cells  × min(max_fee_per_cell,  basefee_cell  + tip_per_cell)
//
// Each product is below 2^64 × 2^64 and intrinsic costs are far below
// 2^63, so the sum fits 128 bits; it is computed without allocating
// because the mempool evaluates it for every pending transaction.
func OrderingFee(intrinsicCycles, intrinsicCells uint64, cycle, cell Prices, bc, bb uint64) Fee128 {
	pc := min(cycle.MaxFee, satAdd(bc, cycle.Tip))
	pb := min(cell.MaxFee, satAdd(bb, cell.Tip))
	return mul128(intrinsicCycles, pc).add(mul128(intrinsicCells, pb))
}

// Fee128 is a non-negative amount below 2^128 base units.
type Fee128 struct{ Hi, Lo uint64 }

func mul128(a, b uint64) Fee128 {
	hi, lo := bits.Mul64(a, b)
	return Fee128{hi, lo}
}

func (a Fee128) add(b Fee128) Fee128 {
	lo, carry := bits.Add64(a.Lo, b.Lo, 0)
	hi, _ := bits.Add64(a.Hi, b.Hi, carry)
	return Fee128{hi, lo}
}

// Cmp returns -1, 0 or 1 as a is below, equal to or above b.
func (a Fee128) Cmp(b Fee128) int {
	// Plain ifs, not a switch: gremlins cannot see coverage of case
	// expressions, so it would never mutate them (docs/testing.md).
	if a.Hi < b.Hi {
		return -1
	}
	if a.Hi > b.Hi {
		return 1
	}
	if a.Lo < b.Lo {
		return -1
	}
	if a.Lo > b.Lo {
		return 1
	}
	return 0
}

// Big converts to a big.Int for arithmetic beyond comparison.
func (a Fee128) Big() *big.Int {
	x := new(big.Int).SetUint64(a.Hi)
	x.Lsh(x, 64)
	return x.Or(x, new(big.Int).SetUint64(a.Lo))
}

// u192 is a non-negative amount below 2^192: a sum of a few products of
// two uint64s, with no overflow possible.
type u192 struct{ hi, mid, lo uint64 }

func mul192(a, b uint64) u192 {
	hi, lo := bits.Mul64(a, b)
	return u192{0, hi, lo}
}

func (a u192) add(b u192) u192 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	mid, c := bits.Add64(a.mid, b.mid, c)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u192{hi, mid, lo}
}

// bigWords is a big.Int with room for 192 bits in the same allocation, so
// converting a u192 allocates once.
type bigWords struct {
	i big.Int
	w [192 / bits.UintSize]big.Word
}

// big converts a to a new big.Int (one allocation), which later arithmetic
// may grow or change freely.
func (a u192) big() *big.Int { return a.bigIn(new(bigWords)) }

// bigIn converts a into b's Int, whose words are b's own.
func (a u192) bigIn(b *bigWords) *big.Int {
	if bits.UintSize == 64 {
		b.w[0], b.w[1], b.w[2] = big.Word(a.lo), big.Word(a.mid), big.Word(a.hi)
	} else {
		for i, v := range [3]uint64{a.lo, a.mid, a.hi} {
			b.w[2*i], b.w[2*i+1] = big.Word(v), big.Word(v>>32)
		}
	}
	return b.i.SetBits(b.w[:])
}

func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return ^uint64(0)
}
