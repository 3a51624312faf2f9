package timers

import (
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
)

func TestScheduleChargesAndCancelRefunds(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(10))
	supply := st.Supply()
	q := New(st)
	tm, c, err := q.Schedule(Request{Owner: owner, Handler: "beat", Data: []byte{0xa0}, Due: 50}, 10)
	if err != nil {
		t.Fatal(err)
	}
	wantDeposit, wantBurn := big.NewInt(BaseDeposit), big.NewInt(SurchargeBaseCost+TimerBasefeeMin)
	if c.Deposit.Cmp(wantDeposit) != 0 || new(big.Int).Add(c.Surcharge, c.Basefee).Cmp(wantBurn) != 0 {
		t.Fatalf("charges %+v", c)
	}
	if got := st.Balance(EscrowAddress); got.Cmp(wantDeposit) != 0 {
		t.Fatalf("escrow %s", got)
	}
	if got := new(big.Int).Sub(supply, st.Supply()); got.Cmp(wantBurn) != 0 {
		t.Fatalf("burned %s, want %s", got, wantBurn)
	}
	if tm.ID != 1 || tm.Tier != TierRing {
		t.Fatalf("timer %+v", tm)
	}
	if _, err := q.Cancel(addr(2), tm.ID, 10); !errors.Is(err, ErrRefused) {
		t.Fatalf("someone else's cancel: %v", err)
	}
	refund, err := q.Cancel(owner, tm.ID, 10)
	if err != nil || refund.Cmp(wantDeposit) != 0 {
		t.Fatalf("cancel: %s, %v", refund, err)
	}
	if st.Balance(EscrowAddress).Sign() != 0 {
		t.Fatal("escrow not emptied")
	}
	want := new(big.Int).Sub(cby(10), wantBurn) // the burned part is not refunded
	if got := st.Balance(owner); got.Cmp(want) != 0 {
		t.Fatalf("owner has %s, want %s", got, want)
	}
	if refund, err := q.Cancel(owner, tm.ID, 10); err != nil || refund.Sign() != 0 {
		t.Fatalf("second cancel: %s, %v", refund, err)
	}
	if n, _ := q.Pending(); n != 0 {
		t.Fatalf("pending %d", n)
	}
}

func TestScheduleRefusals(t *testing.T) {
	owner, poor := addr(1), addr(2)
	for _, c := range []struct {
		name string
		req  Request
	}{
		{"past height", Request{Owner: owner, Handler: "h", Due: 10}},
		{"this height", Request{Owner: owner, Handler: "h", Due: 10}},
		{"no handler", Request{Owner: owner, Due: 11}},
		{"private handler", Request{Owner: owner, Handler: "_x", Due: 11}},
		{"long handler", Request{Owner: owner, Handler: string(make([]byte, MaxHandlerLen+1)), Due: 11}},
		{"big data", Request{Owner: owner, Handler: "h", Due: 11, Data: make([]byte, MaxDataBytes+1)}},
		{"cannot pay", Request{Owner: poor, Handler: "h", Due: 11}},
	} {
		st := state.New(memStore{})
		fund(st, owner, cby(10))
		fund(st, poor, big.NewInt(BaseDeposit))
		mem := memStore{}
		st = mem.commit(t, st)
		snapOwner, snapPoor, supply := st.Balance(owner), st.Balance(poor), st.Supply()
		_, _, err := New(st).Schedule(c.req, 10)
		if !errors.Is(err, ErrRefused) {
			t.Errorf("%s: err = %v", c.name, err)
		}
		if st.Balance(owner).Cmp(snapOwner) != 0 || st.Balance(poor).Cmp(snapPoor) != 0 || st.Supply().Cmp(supply) != 0 {
			t.Errorf("%s: balances changed", c.name)
		}
		if ws, _ := st.Writes(); len(ws) != 0 {
			t.Errorf("%s: %d writes after a refusal", c.name, len(ws))
		}
	}
}

func TestPerActorCapAndProgressiveDeposit(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(1000))
	q := New(st)
	for n := range MaxPendingPerActor {
		_, c, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 100 + uint64(n)}, 1)
		if err != nil {
			t.Fatalf("timer %d: %v", n, err)
		}
		if c.Deposit.Cmp(Deposit(uint64(n))) != 0 {
			t.Fatalf("timer %d deposit %s", n, c.Deposit)
		}
	}
	_, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 5000}, 1)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("over the cap: %v", err)
	}
	// Another actor is not affected by this one's cap.
	fund(st, addr(2), cby(1))
	if _, _, err := q.Schedule(Request{Owner: addr(2), Handler: "h", Due: 5000}, 1); err != nil {
		t.Fatal(err)
	}
}

func TestSurchargeCountsCancelledTimers(t *testing.T) {
	st := state.New(memStore{})
	owner := addr(1)
	fund(st, owner, cby(10))
	q := New(st)
	for range SurchargeFreeTimers {
		tm, c, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20}, 1)
		if err != nil || c.Surcharge.Cmp(big.NewInt(SurchargeBaseCost)) != 0 {
			t.Fatalf("%v %v", c, err)
		}
		if _, err := q.Cancel(owner, tm.ID, 10); err != nil {
			t.Fatal(err)
		}
	}
	_, c, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: 20}, 1)
	if err != nil || c.Surcharge.Cmp(big.NewInt(2*SurchargeBaseCost)) != 0 {
		t.Fatalf("17th timer at one height: %v %v", c, err)
	}
	// Another height starts again at k = 1.
	if _, c, _ := q.Schedule(Request{Owner: owner, Handler: "h", Due: 21}, 1); c.Surcharge.Cmp(big.NewInt(SurchargeBaseCost)) != 0 {
		t.Fatalf("fresh height surcharge %s", c.Surcharge)
	}
}

func TestTimerBombPaysExponentially(t *testing.T) {
	st := state.New(memStore{})
	attacker := addr(9)
	fund(st, attacker, cby(1000))
	q := New(st)
	scheduled := 0
	burned := new(big.Int)
	for range 10_000 {
		_, c, err := q.Schedule(Request{Owner: attacker, Handler: "h", Due: 100}, 1)
		if err != nil {
			break
		}
		burned.Add(burned, c.Surcharge)
		scheduled++
	}
	// 1000 CBY buys the 16 cheap ones and about 36 doublings beyond.
	if scheduled < 40 || scheduled > 60 {
		t.Fatalf("attacker scheduled %d timers at one height", scheduled)
	}
	if burned.Cmp(cby(100)) < 0 {
		t.Fatalf("attacker burned only %s", burned)
	}
}

func TestTierPlacement(t *testing.T) {
	const h = 3*EpochBlocks + 10 // epoch 3
	for _, c := range []struct {
		due  uint64
		tier Tier
	}{
		{h + 1, TierRing},
		{5*EpochBlocks - 1, TierRing}, // last block of epoch E+1
		{5 * EpochBlocks, TierEpoch},  // epoch E+2
		{(3 + 1 + EpochBucketsAhead) * EpochBlocks, TierEpoch},
		{(3+1+EpochBucketsAhead)*EpochBlocks + EpochBlocks - 1, TierEpoch},
		{(3 + 2 + EpochBucketsAhead) * EpochBlocks, TierOverflow},
		{1 << 40, TierOverflow},
	} {
		st := state.New(memStore{})
		fund(st, addr(1), cby(1))
		tm, _, err := New(st).Schedule(Request{Owner: addr(1), Handler: "h", Due: c.due}, h)
		if err != nil {
			t.Fatal(err)
		}
		if tm.Tier != c.tier {
			t.Errorf("due %d at %d: tier %s, want %s", c.due, h, tm.Tier, c.tier)
		}
	}
}

// runAll delivers block h running every candidate, and returns their ids
// and how many ids maintenance moved.
func runAll(t interface {
	Fatal(...any)
	Helper()
}, q *Queue, h uint64) ([]uint64, int) {
	t.Helper()
	cs, err := q.Due(h)
	if err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	var out []Outcome
	for _, c := range cs {
		ids = append(ids, c.ID)
		out = append(out, Outcome{Timer: c, Ran: true})
	}
	if _, err := q.Settle(h, out); err != nil {
		t.Fatal(err)
	}
	moved, err := q.Maintain(h)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids, moved
}

func TestOverflowMigratesAndFiresOnTime(t *testing.T) {
	mem := memStore{}
	st := state.New(mem)
	owner := addr(1)
	fund(st, owner, cby(1000))
	q := New(st)
	const start = 1
	far := uint64(start + 70_000) // beyond the 256 buckets: overflow
	want := map[uint64]uint64{}
	for i := range uint64(300) {
		due := far + i*3 // 300 timers over ~3.5 epochs
		tm, _, err := q.Schedule(Request{Owner: owner, Handler: "h", Due: due}, start)
		if err != nil {
			t.Fatal(err)
		}
		if tm.Tier != TierOverflow {
			t.Fatalf("due %d tier %s", due, tm.Tier)
		}
		want[tm.ID] = due
	}
	for h := uint64(start); h <= far+900; h++ {
		ids, moved := runAll(t, q, h)
		for _, id := range ids {
			if want[id] != h {
				t.Fatalf("timer %d fired at %d, due %d", id, h, want[id])
			}
			delete(want, id)
		}
		// At most one epoch's 86 timers, spread over 256 blocks, in each of
		// the two migrations.
		if moved > 2 {
			t.Fatalf("block %d moved %d ids", h, moved)
		}
		if h%5000 == 0 { // restart from the committed state now and then
			st = mem.commit(t, st)
			q = New(st)
		}
	}
	if len(want) != 0 {
		t.Fatalf("%d timers never fired", len(want))
	}
	if st.Balance(EscrowAddress).Sign() != 0 {
		t.Fatalf("escrow left %s", st.Balance(EscrowAddress))
	}
}

func TestMaintenanceWorkIsSpreadOverTheEpoch(t *testing.T) {
	st := state.New(memStore{})
	q := New(st)
	const h0 = 1
	// 2,560 timers due in epoch 3 (Tier 2 at h0) from ten actors.
	for i := range 2560 {
		o := addr(byte(i % 10))
		if i < 10 {
			fund(st, o, cby(1000))
		}
		if _, _, err := q.Schedule(Request{Owner: o, Handler: "h", Due: 3*EpochBlocks + uint64(i%256)}, h0); err != nil {
			t.Fatal(err)
		}
	}
	for h := uint64(h0); h < 3*EpochBlocks; h++ {
		if _, err := q.Due(h); err != nil {
			t.Fatal(err)
		}
		moved, err := q.Maintain(h)
		if err != nil {
			t.Fatal(err)
		}
		if h/EpochBlocks == 2 && moved != 10 {
			t.Fatalf("block %d moved %d ids; the epoch's 2,560 spread over 256 blocks is 10", h, moved)
		}
		if h/EpochBlocks != 2 && moved != 0 {
			t.Fatalf("block %d moved %d", h, moved)
		}
	}
	n, _ := list{listBucket, 3}.count(st)
	if n != 0 {
		t.Fatalf("bucket 3 still holds %d at the start of epoch 3", n)
	}
}
