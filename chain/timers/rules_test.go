package timers

import (
	"math/big"
	"testing"
)

func TestDepositIsProgressive(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want int64 // multiples of BaseDeposit
	}{{0, 1}, {1, 1}, {99, 1}, {100, 2}, {199, 2}, {200, 3}, {1023, 11}} {
		want := new(big.Int).Mul(big.NewInt(c.want), big.NewInt(BaseDeposit))
		if got := Deposit(c.n); got.Cmp(want) != 0 {
			t.Errorf("Deposit(%d) = %s, want %s", c.n, got, want)
		}
	}
}

func TestSurchargeDoublesAfterSixteen(t *testing.T) {
	for _, c := range []struct {
		k     uint64
		shift uint
	}{{1, 0}, {16, 0}, {17, 1}, {18, 2}, {26, 10}, {80, 64}, {1 << 40, 300}} {
		want := new(big.Int).Lsh(big.NewInt(SurchargeBaseCost), c.shift)
		if got := Surcharge(c.k); got.Cmp(want) != 0 {
			t.Errorf("Surcharge(%d) = %s, want base × 2^%d", c.k, got, c.shift)
		}
	}
}

func TestNextTimerBasefee(t *testing.T) {
	const m = TimerBasefeeMin
	for _, c := range []struct {
		name       string
		fee, depth uint64
		want       uint64
	}{
		{"at target", 5 * m, TargetQueueDepth, 5 * m},
		{"empty queue falls 1/8", 8 * m, 0, 7 * m},
		{"never below the floor", m, 0, m},
		{"double the target rises 1/8", 8 * m, 2 * TargetQueueDepth, 9 * m},
		{"far above is clamped to 1/8", 8 * m, 100 * TargetQueueDepth, 9 * m},
		{"a little above rises proportionally", 8 * m, TargetQueueDepth + TargetQueueDepth/2, 8*m + m/2},
		{"below-floor input is lifted", 0, TargetQueueDepth, m},
	} {
		if got := NextTimerBasefee(c.fee, c.depth); got != c.want {
			t.Errorf("%s: NextTimerBasefee(%d, %d) = %d, want %d", c.name, c.fee, c.depth, got, c.want)
		}
	}
}

func TestEffectiveTip(t *testing.T) {
	for _, c := range []struct {
		bid     Bid
		basefee uint64
		tip     uint64
		ok      bool
	}{
		{Bid{TipPerCycle: 2, MaxFeePerCycle: 10}, 5, 2, true},
		{Bid{TipPerCycle: 9, MaxFeePerCycle: 10}, 5, 5, true}, // capped by max fee − basefee
		{Bid{TipPerCycle: 9, MaxFeePerCycle: 5}, 5, 0, true},
		{Bid{TipPerCycle: 9, MaxFeePerCycle: 4}, 5, 0, false}, // cannot pay the basefee
		{DefaultBid(7, 1), 7, 0, true},
	} {
		tip, ok := EffectiveTip(c.bid, c.basefee)
		if tip != c.tip || ok != c.ok {
			t.Errorf("EffectiveTip(%+v, %d) = %d, %v; want %d, %v", c.bid, c.basefee, tip, ok, c.tip, c.ok)
		}
	}
}

func TestBoostIsBounded(t *testing.T) {
	for d, want := range map[uint64]uint64{0: 0, 1: 1, 16: 16, 17: 16, 1 << 60: 16} {
		if got := Boost(d); got != want {
			t.Errorf("Boost(%d) = %d, want %d", d, got, want)
		}
	}
}

func TestOrderByTipThenID(t *testing.T) {
	mk := func(id, tip, deferrals uint64, payable bool) Candidate {
		return Candidate{Timer: &Timer{ID: id, Deferrals: deferrals}, Tip: tip, Payable: payable}
	}
	cs := []Candidate{
		mk(1, 0, 0, true),
		mk(2, 5, 0, true),
		mk(3, 0, 0, false),
		mk(4, 5, 0, true),
		mk(5, 0, 40, true),   // starving: boost 16
		mk(6, 17, 0, true),   // outbids any boost
		mk(7, 100, 0, false), // unpayable: last whatever the tip
	}
	Order(cs)
	var got []uint64
	for _, c := range cs {
		got = append(got, c.Timer.ID)
	}
	want := []uint64{6, 5, 2, 4, 1, 3, 7}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order = %v, want %v", got, want)
		}
	}
}

func TestFillStopsAtTheLaneBudget(t *testing.T) {
	var cs []Candidate
	for i := uint64(1); i <= 20; i++ {
		cs = append(cs, Candidate{Timer: &Timer{ID: i}, Payable: i != 3})
	}
	ran := 0
	out, used := Fill(cs, TimerLaneCycles, func(c *Candidate, limit uint64) (uint64, Outcome) {
		if limit != TimerCallCycles {
			t.Fatalf("limit %d", limit)
		}
		ran++
		return 150_000, Outcome{Timer: c.Timer, Ran: true}
	})
	// 2,000,000 / 150,000: the 12th run leaves 200,000 ≥ the call limit, the 13th leaves 50,000.
	if ran != 13 || used != 13*150_000 {
		t.Fatalf("ran %d using %d", ran, used)
	}
	if used > TimerLaneCycles {
		t.Fatalf("used %d beyond the lane", used)
	}
	if out[2].Reason != ReasonBid || out[19].Reason != ReasonBudget || len(out) != 20 {
		t.Fatalf("outcomes %+v", out)
	}
}
