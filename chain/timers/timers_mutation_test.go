package timers

import (
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
)

// seq returns the ids from, from+1, …, from+n-1.
func seq(from, n uint64) []uint64 {
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = from + uint64(i)
	}
	return ids
}

// layout reads a list as the state holds it: its header and every page
// from head to tail, in page order.
func layout(t *testing.T, st *state.StateDB, l list) (listHeader, [][]uint64) {
	t.Helper()
	h, err := l.header(st)
	if err != nil {
		t.Fatal(err)
	}
	if h.Count == 0 {
		return h, nil
	}
	var pages [][]uint64
	for p := h.Head; p <= h.Tail; p++ {
		ids, err := l.page(st, p)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, ids)
	}
	return h, pages
}

// TestListPageLayout pins the stored form of a timer list
// (docs/state-layout.md: header [head_page, tail_page, count], pages of at
// most 64 ids in queue order). The layout is consensus state, in the
// state root, so a node that paged differently would fork even though
// its queue order was the same.
func TestListPageLayout(t *testing.T) {
	const f = firstPage
	for _, c := range []struct {
		name      string
		push      []uint64 // pushed at the tail first
		front     []uint64 // then put back at the head
		head      uint64
		tail      uint64
		pageSizes []int
	}{
		{"one id", seq(1, 1), nil, f, f, []int{1}},
		{"a full page", seq(1, PageIDs), nil, f, f, []int{64}},
		{"a page and one", seq(1, PageIDs+1), nil, f, f + 1, []int{64, 1}},
		{"front into an empty list", nil, seq(1, 1), f, f, []int{1}},
		{"a full page at the front", nil, seq(1, PageIDs), f, f, []int{64}},
		{"a page and one at the front", nil, seq(1, PageIDs+1), f - 1, f, []int{1, 64}},
		{"two pages and two at the front", nil, seq(1, 2*PageIDs+2), f - 2, f, []int{2, 64, 64}},
		{"front fills the head page first", seq(100, 10), seq(1, 60), f - 1, f, []int{6, 64}},
		{"front exactly fills the head page", seq(100, 10), seq(1, 54), f, f, []int{64}},
		{"front onto a full head page", seq(100, PageIDs), seq(1, 3), f - 1, f, []int{3, 64}},
		{"nothing at the front", seq(100, 3), nil, f, f, []int{3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := state.New(memStore{})
			l := list{listBacklog, 0}
			for _, id := range c.push {
				if err := l.push(st, id); err != nil {
					t.Fatal(err)
				}
			}
			if err := l.pushFront(st, c.front); err != nil {
				t.Fatal(err)
			}
			want := append(slices.Clone(c.front), c.push...)
			h, pages := layout(t, st, l)
			if h.Head != c.head || h.Tail != c.tail || h.Count != uint64(len(want)) {
				t.Fatalf("header [%d, %d, %d], want [%d, %d, %d] (pages from 2^62)",
					h.Head-f, h.Tail-f, h.Count, c.head-f, c.tail-f, len(want))
			}
			var sizes []int
			var all []uint64
			for _, p := range pages {
				sizes = append(sizes, len(p))
				all = append(all, p...)
			}
			if !slices.Equal(sizes, c.pageSizes) {
				t.Fatalf("page sizes %v, want %v", sizes, c.pageSizes)
			}
			if !slices.Equal(all, want) {
				t.Fatalf("pages hold %v, want %v", all, want)
			}
			got, err := l.pop(st, uint64(len(want)))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("popped %v, want %v", got, want)
			}
			if n, _ := l.count(st); n != 0 {
				t.Fatalf("count %d after popping everything", n)
			}
		})
	}
}

// TestDeferredBacklogKeepsOrder defers every due timer, block after
// block, until the backlog holds more than two pages, and checks each
// block's candidates are the whole backlog, oldest first: deferred timers
// go back to the head in their order and the new slot joins the tail.
func TestDeferredBacklogKeepsOrder(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(1000))
	q := New(st)
	const perHeight, heights = SurchargeFreeTimers, 9 // 144 timers, no surcharge doubling
	for i := range uint64(perHeight * heights) {
		if _, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20 + i/perHeight}, 10); err != nil {
			t.Fatal(err)
		}
	}
	for h := uint64(20); h <= 20+heights+1; h++ {
		cs, err := q.Due(h)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		var out []Outcome
		for _, c := range cs {
			got = append(got, c.ID)
			out = append(out, Outcome{Timer: c, Reason: ReasonBudget})
		}
		want := seq(1, min(perHeight*(h-19), perHeight*heights))
		if !slices.Equal(got, want) {
			t.Fatalf("block %d: candidates %v, want %v", h, got, want)
		}
		if _, err := q.Settle(h, out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOrderPriorityNearTheTop checks the boost near the top of the uint64
// range: a tip plus boost that would overflow saturates, so it ties with
// the highest tip (and the older timer wins), and a modest tip plus its
// boost is never mistaken for an overflow.
func TestOrderPriorityNearTheTop(t *testing.T) {
	mk := func(id, tip, deferrals uint64) Candidate {
		return Candidate{Timer: &Timer{ID: id, Deferrals: deferrals}, Tip: tip, Payable: true}
	}
	for _, c := range []struct {
		name string
		cs   []Candidate
		want []uint64
	}{
		{"a boosted small tip stays small", []Candidate{mk(1, 20, 16), mk(2, 1000, 0)}, []uint64{2, 1}},
		{"boost saturates: a tie, the older first", []Candidate{mk(2, math.MaxUint64, 0), mk(1, math.MaxUint64-5, 16)}, []uint64{1, 2}},
		{"just below saturation", []Candidate{mk(1, math.MaxUint64-17, 16), mk(2, math.MaxUint64, 0)}, []uint64{2, 1}},
	} {
		Order(c.cs)
		var got []uint64
		for _, x := range c.cs {
			got = append(got, x.Timer.ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: order %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSettleDeferralAccounting follows one interval timer through
// sequences of block outcomes and checks what its record says after
// each: every deferral counts, only funds and bid deferrals count toward
// the MaxFundsDeferrals drop (and a run resets them), a scan deferral is
// not kept in the history, the history keeps the last DeferralHistory,
// and the timer is dropped, its deposit refunded, at exactly
// MaxFundsDeferrals.
func TestSettleDeferralAccounting(t *testing.T) {
	rep := func(r string, n int) []string { return slices.Repeat([]string{r}, n) }
	for _, c := range []struct {
		name      string
		outcomes  []string // a Reason*, or "ran"
		deferrals uint64
		funds     uint64
		history   []string
		dropped   bool
	}{
		{"budget", rep(ReasonBudget, 2), 2, 0, rep(ReasonBudget, 2), false},
		{"funds and bid count", []string{ReasonFunds, ReasonBid, ReasonBudget}, 3, 2, []string{ReasonFunds, ReasonBid, ReasonBudget}, false},
		{"scan is not recorded", []string{ReasonScan, ReasonBudget, ReasonScan}, 3, 0, []string{ReasonBudget}, false},
		{"a run resets the funds count", []string{ReasonFunds, ReasonFunds, "ran", ReasonBid}, 3, 1, []string{ReasonFunds, ReasonFunds, ReasonBid}, false},
		{"history keeps the last eight", append(rep(ReasonBudget, 3), rep(ReasonFunds, DeferralHistory)...), 3 + DeferralHistory, DeferralHistory, rep(ReasonFunds, DeferralHistory), false},
		{"history of exactly eight", rep(ReasonBudget, DeferralHistory), DeferralHistory, 0, rep(ReasonBudget, DeferralHistory), false},
		{"one short of the drop", rep(ReasonFunds, MaxFundsDeferrals-1), MaxFundsDeferrals - 1, MaxFundsDeferrals - 1, rep(ReasonFunds, DeferralHistory), false},
		{"dropped at the limit", rep(ReasonBid, MaxFundsDeferrals), 0, 0, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := state.New(memStore{})
			owner := addr(1)
			fund(st, owner, cby(10))
			q := New(st)
			tm, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20, Interval: 1}, 10)
			if err != nil {
				t.Fatal(err)
			}
			balance := st.Balance(owner)
			var dropped []uint64
			for i, r := range c.outcomes {
				h := uint64(20 + i)
				cs, err := q.Due(h)
				if err != nil {
					t.Fatal(err)
				}
				if len(cs) != 1 || cs[0].ID != tm.ID {
					t.Fatalf("block %d: candidates %v", h, cs)
				}
				o := Outcome{Timer: cs[0], Reason: r}
				if r == "ran" {
					o = Outcome{Timer: cs[0], Ran: true}
				}
				if dropped, err = q.Settle(h, []Outcome{o}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := q.Get(tm.ID)
			if err != nil {
				t.Fatal(err)
			}
			if c.dropped {
				if got != nil || !slices.Equal(dropped, []uint64{tm.ID}) {
					t.Fatalf("not dropped: record %v, dropped %v", got, dropped)
				}
				refunded := new(big.Int).Sub(st.Balance(owner), balance)
				if refunded.Cmp(big.NewInt(BaseDeposit)) != 0 || st.Balance(EscrowAddress).Sign() != 0 {
					t.Fatalf("refunded %s, escrow %s", refunded, st.Balance(EscrowAddress))
				}
				return
			}
			if got == nil || len(dropped) != 0 {
				t.Fatalf("dropped early: record %v, dropped %v", got, dropped)
			}
			var hist []string
			for _, d := range got.History {
				hist = append(hist, d.Reason)
			}
			runs := uint64(0)
			for _, r := range c.outcomes {
				if r == "ran" {
					runs++
				}
			}
			if got.Runs != runs {
				t.Fatalf("runs %d, want %d", got.Runs, runs)
			}
			if got.Deferrals != c.deferrals || got.FundsDeferrals != c.funds || !slices.Equal(hist, c.history) {
				t.Fatalf("deferrals %d, funds %d, history %v; want %d, %d, %v", got.Deferrals, got.FundsDeferrals, hist, c.deferrals, c.funds, c.history)
			}
		})
	}
}

// TestNextTimerBasefeeHugeFees checks the dynamic timer basefee where
// fee × (depth − target) no longer fits 64 bits: the change is still
// clamped to 1/8 of the fee, and a fee at the top saturates instead of
// wrapping.
func TestNextTimerBasefeeHugeFees(t *testing.T) {
	const top = math.MaxUint64
	for _, c := range []struct {
		name       string
		fee, depth uint64
		want       uint64
	}{
		// 2^63 × 16,000,000 = 8,000,000 × 2^64: the high word is exactly
		// the divisor T × 8.
		{"product's high word equals T×8", 1 << 63, 17 * TargetQueueDepth, 1<<63 + 1<<60},
		{"product's high word just below T×8", 1 << 63, 17*TargetQueueDepth - 1, 1<<63 + 1<<60},
		{"falls 1/8 from a huge fee", 1 << 63, 0, 1<<63 - 1<<60},
		{"saturates at the top", top, top, top},
		{"near the top", top - 1<<60, 100 * TargetQueueDepth, top},
	} {
		if got := NextTimerBasefee(c.fee, c.depth); got != c.want {
			t.Errorf("%s: NextTimerBasefee(%d, %d) = %d, want %d", c.name, c.fee, c.depth, got, c.want)
		}
	}
}

// TestNextTimerBasefeeBelowTarget checks the fall below the target is
// proportional to the distance from it: half the target falls 1/16, and
// for a fee so large that fee × distance needs two words the result is
// the same.
func TestNextTimerBasefeeBelowTarget(t *testing.T) {
	const m = TimerBasefeeMin
	for _, c := range []struct {
		fee, depth, want uint64
	}{
		{16 * m, TargetQueueDepth / 2, 15 * m},
		{16 * m, TargetQueueDepth - TargetQueueDepth/4, 16*m - m/2},
		{1 << 63, TargetQueueDepth / 2, 1<<63 - 1<<59},
	} {
		if got := NextTimerBasefee(c.fee, c.depth); got != c.want {
			t.Errorf("NextTimerBasefee(%d, %d) = %d, want %d", c.fee, c.depth, got, c.want)
		}
	}
}

// TestMaintainMovesTheTimerBasefee checks that end-of-block maintenance
// stores the next timer basefee: a basefee left high by a past flood
// falls by 1/8 of itself each block while the queue is below its target,
// down to the floor, where it stays.
func TestMaintainMovesTheTimerBasefee(t *testing.T) {
	st := state.New(memStore{})
	if err := saveMeta(st, &meta{NextID: 1, Basefee: 8 * TimerBasefeeMin}); err != nil {
		t.Fatal(err)
	}
	q := New(st)
	want := []uint64{7_000_000_000_000, 6_125_000_000_000, 5_359_375_000_000, 4_689_453_125_000,
		4_103_271_484_375, 3_590_362_548_829, 3_141_567_230_226, 2_748_871_326_448, 2_405_262_410_642,
		2_104_604_609_312, 1_841_529_033_148, 1_611_337_904_005, 1_409_920_666_005, 1_233_680_582_755,
		1_079_470_509_911, TimerBasefeeMin, TimerBasefeeMin}
	for i, w := range want {
		h := uint64(i + 1)
		if _, err := q.Maintain(h); err != nil {
			t.Fatal(err)
		}
		if got, err := q.Basefee(); err != nil || got != w {
			t.Fatalf("after block %d: timer basefee %d (%v), want %d", h, got, err, w)
		}
	}
}

// TestOverflowMovesToItsBucketOnTime checks when a Tier 3 timer moves to
// Tier 2 (docs/timers.md): overflow epoch X is moved into its bucket
// during epoch X − 257, so at the end of epoch X − 258 the timer is still
// in the overflow set and at the end of epoch X − 257 it is in bucket X.
func TestOverflowMovesToItsBucketOnTime(t *testing.T) {
	st := state.New(memStore{})
	fund(st, addr(1), cby(1))
	q := New(st)
	const x = 2 + 1 + EpochBucketsAhead + 1 // the first overflow epoch seen from epoch 2
	tm, _, err := q.Schedule(Request{Owner: addr(1), Handler: "h", Due: x*EpochBlocks + 7}, 2*EpochBlocks)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Tier != TierOverflow {
		t.Fatalf("scheduled in tier %s", tm.Tier)
	}
	for h := uint64(2 * EpochBlocks); h < 4*EpochBlocks; h++ {
		if _, err := q.Maintain(h); err != nil {
			t.Fatal(err)
		}
		want := TierOverflow
		if h/EpochBlocks == x-257 && h%EpochBlocks == EpochBlocks-1 {
			want = TierEpoch
		}
		if h%EpochBlocks != EpochBlocks-1 {
			continue
		}
		got, err := q.Get(tm.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Tier != want {
			t.Fatalf("end of epoch %d: tier %s, want %s", h/EpochBlocks, got.Tier, want)
		}
	}
}

// TestDueScansAtMostMaxDueScan checks a block looks at no more than
// MaxDueScan due timers, oldest first, and the rest wait in order.
func TestDueScansAtMostMaxDueScan(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(1000))
	q := New(st)
	const n = MaxDueScan + SurchargeFreeTimers // 528 timers, 16 a height
	for i := range uint64(n) {
		if _, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20 + i/SurchargeFreeTimers}, 10); err != nil {
			t.Fatal(err)
		}
	}
	last := uint64(20 + (n-1)/SurchargeFreeTimers)
	for h := uint64(20); h <= last+1; h++ {
		cs, err := q.Due(h)
		if err != nil {
			t.Fatal(err)
		}
		var got []uint64
		var out []Outcome
		for _, c := range cs {
			got = append(got, c.ID)
			out = append(out, Outcome{Timer: c, Reason: ReasonScan})
		}
		want := seq(1, min(SurchargeFreeTimers*(h-19), MaxDueScan))
		if !slices.Equal(got, want) {
			t.Fatalf("block %d: %d candidates %v…, want %d from id 1", h, len(got), got[:min(len(got), 3)], len(want))
		}
		if _, err := q.Settle(h, out); err != nil {
			t.Fatal(err)
		}
	}
	// Cancelled timers met in the backlog do not count toward the scan:
	// the block takes the next ones in their place, still MaxDueScan.
	for id := uint64(1); id <= 10; id++ {
		if _, err := q.Cancel(owner, id, last+2); err != nil {
			t.Fatal(err)
		}
	}
	cs, err := q.Due(last + 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, c := range cs {
		got = append(got, c.ID)
	}
	if !slices.Equal(got, seq(11, MaxDueScan)) {
		t.Fatalf("after cancelling ids 1-10: %d candidates from %v, want %d from 11", len(got), got[:min(len(got), 1)], MaxDueScan)
	}
}

// TestFinishedTimerReceiptsExpire checks that a finished timer's receipts
// stay for ReceiptRetention blocks and are gone after; a timer that never
// ran leaves nothing to expire.
func TestFinishedTimerReceiptsExpire(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(1))
	q := New(st)
	ran, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20}, 10)
	if err != nil {
		t.Fatal(err)
	}
	idle, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 30}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddReceipt(st, &Receipt{TimerID: ran.ID, Height: 12, Owner: owner, Handler: "h"}); err != nil {
		t.Fatal(err)
	}
	for _, tm := range []*Timer{ran, idle} {
		if _, err := q.Cancel(owner, tm.ID, 15); err != nil {
			t.Fatal(err)
		}
	}
	if raw := st.Get(expiryKey(15 + ReceiptRetention)); raw == nil {
		t.Fatal("no expiry recorded")
	} else if ids, err := decodeIDs(raw); err != nil || !slices.Equal(ids, []uint64{ran.ID}) {
		t.Fatalf("expiry list %v (%v), want only the timer with receipts", ids, err)
	}
	for _, c := range []struct {
		height uint64
		kept   int
	}{{15 + ReceiptRetention - 1, 1}, {15 + ReceiptRetention, 0}} {
		if _, err := q.Maintain(c.height); err != nil {
			t.Fatal(err)
		}
		rs, err := Receipts(st, ran.ID)
		if err != nil || len(rs) != c.kept {
			t.Fatalf("after block %d: %d receipts (%v), want %d", c.height, len(rs), err, c.kept)
		}
	}
}

// TestAimCountEncoding pins the stored form of the same-height timer
// count (docs/state-layout.md: a big-endian count, absent at zero): the
// shortest big-endian bytes, read back whole up to 8 bytes.
func TestAimCountEncoding(t *testing.T) {
	for _, c := range []struct {
		v    uint64
		want []byte
	}{
		{0, nil},
		{1, []byte{1}},
		{255, []byte{0xff}},
		{256, []byte{1, 0}},
		{1 << 56, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{math.MaxUint64, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
	} {
		st := state.New(memStore{})
		k := aimKey(77)
		setUint(st, k, c.v)
		if got := st.Get(k); !slices.Equal(got, c.want) {
			t.Errorf("setUint(%d) stored %x, want %x", c.v, got, c.want)
		}
		if got := getUint(st, k); got != c.v {
			t.Errorf("getUint after setUint(%d) = %d", c.v, got)
		}
	}
}

// TestRearmCountsTowardSurcharge: an interval timer that ran is re-armed
// at its next phase and counts there toward the congestion surcharge of
// the next timer aimed at the same height, as a newly scheduled one does.
// SurchargeFreeTimers timers already wait at that height, so the count
// decides whether the surcharge rises.
func TestRearmCountsTowardSurcharge(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(10))
	q := New(st)
	tm, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20, Interval: 5}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < SurchargeFreeTimers; i++ {
		if _, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 25}, 10); err != nil {
			t.Fatal(err)
		}
	}
	other := Request{Owner: addr(2), Handler: "h", Due: 25}
	before, err := q.Quote(other, 21)
	if err != nil {
		t.Fatal(err)
	}
	if want := Surcharge(SurchargeFreeTimers + 1); before.Surcharge.Cmp(want) != 0 {
		t.Fatalf("surcharge beside %d timers %v, want %v", SurchargeFreeTimers, before.Surcharge, want)
	}
	cs, err := q.Due(20)
	if err != nil || len(cs) != 1 || cs[0].ID != tm.ID {
		t.Fatalf("due at 20: %v %v", cs, err)
	}
	if _, err := q.Settle(20, []Outcome{{Timer: cs[0], Ran: true}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Get(tm.ID); got == nil || got.Due != 25 {
		t.Fatalf("re-armed record %+v, want due at 25", got)
	}
	after, err := q.Quote(other, 21)
	if err != nil {
		t.Fatal(err)
	}
	want := Surcharge(SurchargeFreeTimers + 2)
	if after.Surcharge.Cmp(want) != 0 || want.Cmp(before.Surcharge) <= 0 {
		t.Fatalf("surcharge beside the re-armed timer %v (before %v), want %v", after.Surcharge, before.Surcharge, want)
	}
}
