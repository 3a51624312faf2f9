package fees

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestNextBasefee(t *testing.T) {
	tests := []struct {
		name                  string
		basefee, used, target uint64
		want                  uint64
	}{
		{"at target unchanged", 1000, 10_000_000, 10_000_000, 1000},
		// At the target a basefee below the floor is lifted to it, never
		// left (the downward branch's max(1, …), not the upward one).
		{"at target a zero basefee becomes the floor", 0, 10_000_000, 10_000_000, MinBasefee},
		{"full block +12.5%", 1000, 20_000_000, 10_000_000, 1125},
		{"empty block -12.5%", 1000, 0, 10_000_000, 875},
		{"half over target", 1000, 15_000_000, 10_000_000, 1062}, // 1000×5e6/(1e7×8) = 62.5 → 62
		{"floor holds at 1 when empty", 1, 0, 10_000_000, 1},
		{"zero target leaves it", 5, 3, 0, 5},
		// §4.2 exactly: 1 × (1 + 1/8) is 1 in whole units; 7 × (1 − 1/8) is 7.
		{"1 cannot rise, even in a full block", 1, 20_000_000, 10_000_000, 1},
		{"7 cannot rise, even in a full block", 7, 20_000_000, 10_000_000, 7},
		{"7 cannot fall, even in an empty block", 7, 0, 10_000_000, 7},
		{"8 rises by 1 in a full block", 8, 20_000_000, 10_000_000, 9},
		{"8 falls by 1 in an empty block", 8, 0, 10_000_000, 7},
		{"a change under one unit is none", 100, 10_000_001, 10_000_000, 100},
		{"cells market", 800, 1_000_000, 500_000, 900},
		{"clamp beyond cap", 800, 5_000_000, 500_000, 900},
		{"huge basefee no overflow", 1 << 62, 20_000_000, 10_000_000, (1 << 62) + (1 << 59)},
		{"just below target: less than δ", 1000, 9_000_000, 10_000_000, 988},   // 1000×1e6/8e7 = 12.5 → 12
		{"just above target: less than δ", 1000, 11_000_000, 10_000_000, 1012}, // same change upward
		// basefee × |U − T| = 2^63 × 16 has a high word of exactly T × α = 8:
		// the quotient does not fit, the change saturates and δ clamps it.
		{"product's high word equals the divisor", 1 << 63, 17, 1, (1 << 63) + (1 << 60)},
		{"saturates instead of wrapping", ^uint64(0) - 3, 20_000_000, 10_000_000, ^uint64(0)},
	}
	for _, tt := range tests {
		if got := NextBasefee(tt.basefee, tt.used, tt.target); got != tt.want {
			t.Errorf("%s: NextBasefee(%d,%d,%d) = %d, want %d", tt.name, tt.basefee, tt.used, tt.target, got, tt.want)
		}
	}
}

// A run of full blocks compounds by 12.5% each (rounded toward zero) from
// 8 up; a run of empty blocks decays to 7, the highest basefee that no
// longer moves, and stays there.
func TestBasefeeTrajectory(t *testing.T) {
	bf := uint64(8)
	for i := 0; i < 100; i++ {
		bf = NextBasefee(bf, CapCycles, TargetCycles)
	}
	if bf < 1000 {
		t.Fatalf("100 full blocks from 8 reached only %d", bf)
	}
	for i := 0; i < 1000; i++ {
		bf = NextBasefee(bf, 0, TargetCycles)
	}
	if bf != 7 {
		t.Fatalf("1000 empty blocks left basefee at %d, want 7", bf)
	}
}

// gethCalcBaseFee is go-ethereum's CalcBaseFee (consensus/misc/eip1559,
// v1.17) restated with math/big, for a parent whose gas target is target
// (gas limit / elasticity 2) and BaseFeeChangeDenominator 8. minStep
// reports whether its "at least 1 on an increase" rule decided the result,
// the one place its form differs from §4.2's.
func gethCalcBaseFee(parentBaseFee *big.Int, used, target uint64) (next *big.Int, minStep bool) {
	if used == target {
		return new(big.Int).Set(parentBaseFee), false
	}
	num := new(big.Int)
	if used > target {
		num.SetUint64(used - target)
		num.Mul(num, parentBaseFee)
		num.Div(num, new(big.Int).SetUint64(target))
		num.Div(num, big.NewInt(8))
		if num.Cmp(big.NewInt(1)) < 0 {
			return num.Add(parentBaseFee, big.NewInt(1)), true
		}
		return num.Add(parentBaseFee, num), false
	}
	num.SetUint64(target - used)
	num.Mul(num, parentBaseFee)
	num.Div(num, new(big.Int).SetUint64(target))
	num.Div(num, big.NewInt(8))
	next = num.Sub(parentBaseFee, num)
	if next.Sign() < 0 {
		next.SetInt64(0)
	}
	return next, false
}

// TestGethSeries pins NextBasefee to go-ethereum's CalcBaseFee where the
// two forms coincide: over 400 blocks of varied usage on each meter (empty,
// full, at target, one unit off target, and random) from several starting
// basefees, the §4.2 series equals the EIP-1559 series step for step
// whenever go-ethereum's minimum step of 1 does not decide a block, and
// when it does, §4.2 leaves the basefee unchanged instead.
func TestGethSeries(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	usage := func(i int, target uint64) uint64 {
		switch i % 9 {
		case 0:
			return 0
		case 1:
			return 2 * target
		case 2:
			return target
		case 3:
			return target + 1
		case 4:
			return target - 1
		}
		return rng.Uint64N(2*target + 1)
	}
	for _, m := range []struct {
		name   string
		target uint64
	}{{"cycles", TargetCycles}, {"cells", TargetCells}} {
		for _, start := range []uint64{8, 1000, 1_000_000_000, 1 << 50} {
			ours, ref := start, new(big.Int).SetUint64(start)
			coincided, diverged := 0, 0
			for i := range 400 {
				u := usage(i, m.target)
				ours = NextBasefee(ours, u, m.target)
				next, minStep := gethCalcBaseFee(ref, u, m.target)
				if minStep {
					// go-ethereum adds 1; §4.2's change rounds to 0.
					diverged++
					if want := new(big.Int).Sub(next, big.NewInt(1)); want.Cmp(ref) != 0 || ours != ref.Uint64() {
						t.Fatalf("%s from %d, block %d: %d, want it unchanged at %s", m.name, start, i, ours, ref)
					}
					continue
				}
				coincided++
				ref = next
				if !ref.IsUint64() || ours != ref.Uint64() {
					t.Fatalf("%s from %d, block %d (used %d): §4.2 gives %d, go-ethereum %s", m.name, start, i, u, ours, ref)
				}
			}
			if coincided < 200 || (start >= 1_000_000_000 && diverged != 0) {
				t.Fatalf("%s from %d: only %d of 400 blocks compared", m.name, start, coincided)
			}
			t.Logf("%s from %d: %d blocks equal to go-ethereum, %d where its minimum step applies; ends at %d", m.name, start, coincided, diverged, ours)
		}
	}
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name                  string
		cyclesUsed, cellsUsed uint64
		cycle, cell           Prices
		bc, bb                uint64
		fee, burned, tip      int64
	}{
		{"transfer, tip fits", 10_000, 0, Prices{MaxFee: 10, Tip: 2}, Prices{MaxFee: 1}, 5, 1, 70_000, 50_000, 20_000},
		{"tip capped by max fee", 10_000, 0, Prices{MaxFee: 6, Tip: 5}, Prices{MaxFee: 1}, 5, 1, 60_000, 50_000, 10_000},
		{"both meters", 10_000, 100, Prices{MaxFee: 3, Tip: 1}, Prices{MaxFee: 4, Tip: 2}, 1, 1, 20_000 + 300, 10_000 + 100, 10_000 + 200},
		{"zero tip", 10_000, 0, Prices{MaxFee: 100}, Prices{MaxFee: 100}, 7, 7, 70_000, 70_000, 0},
	}
	for _, tt := range tests {
		c := Compute(tt.cyclesUsed, tt.cellsUsed, tt.cycle, tt.cell, tt.bc, tt.bb)
		if c.Fee.Int64() != tt.fee || c.Burned.Int64() != tt.burned || c.Tip.Int64() != tt.tip {
			t.Errorf("%s: got fee %s burned %s tip %s", tt.name, c.Fee, c.Burned, c.Tip)
		}
		if new(big.Int).Add(c.Burned, c.Tip).Cmp(c.Fee) != 0 {
			t.Errorf("%s: fee is not burned + tip", tt.name)
		}
	}
}

func TestOrderingFee(t *testing.T) {
	// §6.4: min(max_fee, basefee + tip) per unit, intrinsic costs only.
	tests := []struct {
		name         string
		cycles, cell uint64
		pc, pb       Prices
		bc, bb       uint64
		want         int64
	}{
		{"tip fits on cycles, max fee caps cells", 10_000, 5, Prices{MaxFee: 10, Tip: 3}, Prices{MaxFee: 2, Tip: 5}, 4, 1, 10_000*7 + 5*2},
		{"zero tip pays the basefee, not the max fee", 10_000, 5, Prices{MaxFee: 10}, Prices{MaxFee: 9}, 4, 1, 10_000*4 + 5*1},
		{"basefee + tip overflows: the max fee", 1, 0, Prices{MaxFee: 1 << 40, Tip: ^uint64(0)}, Prices{}, 2, 0, 1 << 40},
	}
	for _, tt := range tests {
		got := OrderingFee(tt.cycles, tt.cell, tt.pc, tt.pb, tt.bc, tt.bb)
		if got.Big().Int64() != tt.want {
			t.Errorf("%s: got %s want %d", tt.name, got.Big(), tt.want)
		}
	}
}

// mulDiv saturates exactly when the quotient needs more than 64 bits,
// including the edge where the product's high word equals the divisor.
func TestMulDiv(t *testing.T) {
	const m = ^uint64(0)
	tests := []struct{ a, b, c, want uint64 }{
		{10, 10, 3, 33},
		{1 << 63, 16, 8, m}, // high word 8 = c: 2^64 does not fit
		{1 << 63, 16, 9, 0xe38e38e38e38e38e},
		{m, m, m, m},
		{m, 2, 2, m},
	}
	for _, tt := range tests {
		if got := mulDiv(tt.a, tt.b, tt.c); got != tt.want {
			t.Errorf("mulDiv(%d, %d, %d) = %#x, want %#x", tt.a, tt.b, tt.c, got, tt.want)
		}
	}
}

func TestIntrinsic(t *testing.T) {
	tests := []struct {
		kind          Kind
		n             int
		cycles, cells uint64
	}{
		{KindTransfer, 0, 10_000, 0},
		{KindTransfer, 33, 10_000, 33},
		{KindActorMessage, 7, 10_000, 7},
		// §17.2 "100/byte + code_size" read as 100 + payload bytes: a
		// 1,000-byte deploy payload is 1,100 cells, not 100,000.
		{KindDeploy, 1000, 50_000, 1100},
		{KindDeploy, 0, 50_000, 100},
	}
	for _, tt := range tests {
		c, b := Intrinsic(tt.kind, tt.n)
		if c != tt.cycles || b != tt.cells {
			t.Errorf("kind %d n %d: got %d/%d want %d/%d", tt.kind, tt.n, c, b, tt.cycles, tt.cells)
		}
	}
}

func TestFee128(t *testing.T) {
	max := ^uint64(0)
	tests := []struct {
		a, b Fee128
		want int
	}{
		{Fee128{0, 1}, Fee128{0, 2}, -1},
		{Fee128{1, 0}, Fee128{0, max}, 1},
		{Fee128{3, 3}, Fee128{3, 3}, 0},
		{Fee128{0, max}, Fee128{1, 0}, -1},
		{Fee128{2, 0}, Fee128{1, max}, 1},
		{Fee128{5, 9}, Fee128{5, 8}, 1},
		{Fee128{5, 8}, Fee128{5, 9}, -1},
	}
	for _, tt := range tests {
		if got := tt.a.Cmp(tt.b); got != tt.want {
			t.Errorf("%v cmp %v = %d", tt.a, tt.b, got)
		}
	}
	if s := (Fee128{1, 5}).Big().String(); s != "18446744073709551621" {
		t.Errorf("Big: %s", s)
	}
	// Realistic extremes: 20M cycles at the largest price.
	f := OrderingFee(20_000_000, 1_000_000, Prices{MaxFee: max, Tip: max}, Prices{MaxFee: max, Tip: max}, 1, 1)
	want := new(big.Int).Mul(big.NewInt(21_000_000), new(big.Int).SetUint64(max))
	if f.Big().Cmp(want) != 0 {
		t.Errorf("OrderingFee at max prices = %s, want %s", f.Big(), want)
	}
}

// The fixed-width arithmetic of Compute and MaxCost gives what big.Int
// gives, up to operands of 2^64 − 1 where the sums carry into the third
// word, and the results can be changed without touching each other.
func TestFixedWidthMatchesBig(t *testing.T) {
	const m = ^uint64(0)
	mulBig := func(a, b uint64) *big.Int {
		return new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
	}
	// §2.3's effective tip, min(tip, max_fee − basefee), restated here so
	// the expected values do not come from the code under test.
	effTip := func(p Prices, basefee uint64) uint64 {
		if p.MaxFee < basefee {
			return 0
		}
		return min(p.Tip, p.MaxFee-basefee)
	}
	tests := []struct {
		name                  string
		cyclesUsed, cellsUsed uint64
		cycle, cell           Prices
		bc, bb                uint64
	}{
		{"small", 10_000, 3, Prices{MaxFee: 10, Tip: 2}, Prices{MaxFee: 4, Tip: 1}, 5, 1},
		{"zero", 0, 0, Prices{}, Prices{}, 0, 0},
		{"one word", 1 << 32, 1 << 31, Prices{MaxFee: 1 << 31, Tip: 1}, Prices{MaxFee: 1 << 32}, 1 << 30, 7},
		{"carry into the third word", m, m, Prices{MaxFee: m, Tip: m}, Prices{MaxFee: m, Tip: m}, m - 1, m - 1},
		{"all ones", m, m, Prices{MaxFee: m, Tip: m}, Prices{MaxFee: m, Tip: m}, 1, 1},
	}
	for _, tt := range tests {
		c := Compute(tt.cyclesUsed, tt.cellsUsed, tt.cycle, tt.cell, tt.bc, tt.bb)
		burned := new(big.Int).Add(mulBig(tt.cyclesUsed, tt.bc), mulBig(tt.cellsUsed, tt.bb))
		tip := new(big.Int).Add(mulBig(tt.cyclesUsed, effTip(tt.cycle, tt.bc)), mulBig(tt.cellsUsed, effTip(tt.cell, tt.bb)))
		fee := new(big.Int).Add(burned, tip)
		if c.Burned.Cmp(burned) != 0 || c.Tip.Cmp(tip) != 0 || c.Fee.Cmp(fee) != 0 {
			t.Errorf("%s: Compute gives fee %s burned %s tip %s, want %s %s %s", tt.name, c.Fee, c.Burned, c.Tip, fee, burned, tip)
		}
		maxCost := new(big.Int).Add(mulBig(tt.cyclesUsed, tt.cycle.MaxFee), mulBig(tt.cellsUsed, tt.cell.MaxFee))
		got := MaxCost(tt.cyclesUsed, tt.cellsUsed, tt.cycle.MaxFee, tt.cell.MaxFee)
		if got.Cmp(maxCost) != 0 {
			t.Errorf("%s: MaxCost %s, want %s", tt.name, got, maxCost)
		}
		// Each result owns its words: growing one changes no other.
		got.Add(got, maxCost)
		c.Burned.Add(c.Burned, c.Burned)
		if c.Fee.Cmp(fee) != 0 || c.Tip.Cmp(tip) != 0 {
			t.Errorf("%s: results share storage", tt.name)
		}
	}
}

// Fixed vectors for the fixed-width arithmetic, worked by hand (m = 2^64 − 1):
// burned = m·(m−1) + m·(m−1) = 2m² − 2m; each effective tip is
// min(m, m − (m−1)) = 1, so tip = 2m; fee = 2m².
func TestComputeVectors(t *testing.T) {
	const m = ^uint64(0)
	c := Compute(m, m, Prices{MaxFee: m, Tip: m}, Prices{MaxFee: m, Tip: m}, m-1, m-1)
	for _, v := range []struct {
		name string
		got  *big.Int
		want string
	}{
		// 2m² = 2^129 − 2^66 + 2
		{"fee", c.Fee, "680564733841876926852962238568698216450"},
		{"burned", c.Burned, "680564733841876926816068750421279113220"},
		{"tip", c.Tip, "36893488147419103230"},
		{"max cost", MaxCost(m, m, m, m), "680564733841876926852962238568698216450"},
		{"small", Compute(10_000, 3, Prices{MaxFee: 10, Tip: 2}, Prices{MaxFee: 4, Tip: 9}, 5, 1).Tip, "20009"},
	} {
		if v.got.String() != v.want {
			t.Errorf("%s = %s, want %s", v.name, v.got, v.want)
		}
	}
}

// NextBasefees moves each basefee by its own meter's use in the parent.
func TestNextBasefeesFromHeader(t *testing.T) {
	h := &types.Header{BasefeeCycle: 1000, CyclesUsed: 0, BasefeeCell: 800, CellsUsed: 1_000_000}
	if got, want := NextBasefees(h), (Basefees{Cycle: 875, Cell: 900}); got != want {
		t.Fatalf("NextBasefees = %+v, want %+v", got, want)
	}
	h = &types.Header{BasefeeCycle: 1, CyclesUsed: CapCycles, BasefeeCell: 64, CellsUsed: TargetCells + TargetCells/2}
	if got, want := NextBasefees(h), (Basefees{Cycle: 1, Cell: 68}); got != want {
		t.Fatalf("NextBasefees = %+v, want %+v", got, want)
	}
}
