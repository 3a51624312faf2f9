package execution

import (
	"math/big"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

// endBlock finishes the env's current block with no transactions (the
// Deliver Timers step runs) and opens the next.
func (e *actorEnv) endBlock() *Result {
	e.t.Helper()
	r, err := Build(e.st, e.bc, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.newBlock()
	return r
}

func (e *actorEnv) runTo(h uint64) []*Result {
	var rs []*Result
	for e.bc.Height <= h {
		rs = append(rs, e.endBlock())
	}
	return rs
}

func (e *actorEnv) deployFunded(src string, salt byte, v *big.Int, a ...any) types.Address {
	e.t.Helper()
	rc := e.deploySalt(src, salt, a...)
	if rc.Status != types.ReceiptSuccess {
		e.t.Fatalf("deploy: %s", rc.Error)
	}
	a0 := *rc.ContractAddress
	e.st.Mint(a0, v)
	return a0
}

const heartbeat = `
from cowboy_sdk import actor, set_interval, cancel_timer

@actor
class Heartbeat:
    def __init__(self):
        self.storage["beats"] = 0
        self.storage["notes"] = []
    def start(self):
        self.storage["tid"] = set_interval(5, "beat", {"note": "hi"})
        return self.storage["tid"]
    def beat(self, data):
        self.storage["beats"] += 1
        self.storage["notes"] = self.storage["notes"] + [data["note"]]
    def beats(self):
        return self.storage["beats"]
    def stop(self):
        return cancel_timer(self.storage["tid"])
`

func TestHeartbeatIntervalRunsAndCancels(t *testing.T) {
	e := newActorEnv(t)
	hb := e.deployFunded(heartbeat, 0, cby(10))
	tid := ret(t, e.call(hb, "start")).(int64) // at block 1: runs at 6, 11, 16, ...
	if tid != 1 {
		t.Fatalf("timer id %d", tid)
	}
	escrow := e.st.Balance(timers.EscrowAddress)
	if escrow.Cmp(timers.Deposit(0)) != 0 {
		t.Fatalf("escrow %s", escrow)
	}
	before := e.st.Balance(hb)
	rs := e.runTo(16)
	ran := map[uint64]bool{}
	for _, r := range rs {
		for _, rc := range r.Timers.Receipts {
			ran[rc.Height] = true
			if rc.Status != types.ReceiptSuccess || rc.Handler != "beat" || rc.TimerID != 1 {
				t.Fatalf("receipt %+v", rc)
			}
			if rc.Fee.Sign() <= 0 || rc.CyclesUsed <= timers.TimerIntrinsicCycles {
				t.Fatalf("unpaid run %+v", rc)
			}
		}
	}
	if len(ran) != 3 || !ran[6] || !ran[11] || !ran[16] {
		t.Fatalf("ran at %v, want 6, 11, 16", ran)
	}
	if got := ret(t, e.call(hb, "beats")); got != int64(3) {
		t.Fatalf("beats %v", got)
	}
	if e.st.Balance(hb).Cmp(before) >= 0 {
		t.Fatal("the owner did not pay for its runs")
	}
	rcs, err := timers.Receipts(e.st, 1)
	if err != nil || len(rcs) != 3 {
		t.Fatalf("stored receipts %d %v", len(rcs), err)
	}
	if refund := ret(t, e.call(hb, "stop")); refund.(int64) != timers.BaseDeposit {
		t.Fatalf("cancel refunded %v", refund)
	}
	e.runTo(40)
	if got := ret(t, e.call(hb, "beats")); got != int64(3) {
		t.Fatalf("a cancelled interval fired: beats %v", got)
	}
	if e.st.Balance(timers.EscrowAddress).Sign() != 0 {
		t.Fatal("escrow not emptied")
	}
}

const oneShot = `
from cowboy_sdk import actor, set_timer, get_block_info, emit_event

@actor
class Deadline:
    def __init__(self):
        self.storage["fired"] = None
    def arm(self, h, data):
        return set_timer(h, "fire", data)
    def arm_bad(self, h):
        return set_timer(h, "explode", None)
    def fire(self, data):
        self.storage["fired"] = [get_block_info()["height"], data]
        emit_event("fired", data)
    def explode(self, data):
        raise ValueError("boom")
    def fired(self):
        return self.storage["fired"]
`

func TestOneShotDeliversDataAndRefundsDeposit(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(oneShot, 0, cby(10))
	ret(t, e.call(a, "arm", int64(4), map[string]any{"x": int64(1)}))
	ret(t, e.call(a, "arm_bad", int64(4)))
	supply := e.st.Supply()
	rs := e.runTo(4)
	got := ret(t, e.call(a, "fired")).([]any)
	if got[0] != int64(4) {
		t.Fatalf("fired %v", got)
	}
	last := rs[len(rs)-1].Timers
	if len(last.Receipts) != 2 {
		t.Fatalf("receipts %+v", last.Receipts)
	}
	var ok, bad *timers.Receipt
	for _, rc := range last.Receipts {
		if rc.Handler == "fire" {
			ok = rc
		} else {
			bad = rc
		}
	}
	if ok.Status != types.ReceiptSuccess || len(ok.Events) != 1 || ok.Events[0].Name != "fired" {
		t.Fatalf("good receipt %+v", ok)
	}
	if bad.Status != types.ReceiptFailed || !strings.Contains(bad.Error, "ValueError: boom") || bad.Fee.Sign() <= 0 {
		t.Fatalf("failing handler receipt %+v", bad)
	}
	// Both are finished: deposits back, nothing pending; the fees burned.
	if e.st.Balance(timers.EscrowAddress).Sign() != 0 {
		t.Fatal("escrow not emptied")
	}
	if n, _ := timers.New(e.st).Pending(); n != 0 {
		t.Fatalf("pending %d", n)
	}
	burned := new(big.Int).Sub(supply, e.st.Supply())
	want := new(big.Int).Add(ok.Burned, bad.Burned)
	if burned.Cmp(want) != 0 {
		t.Fatalf("supply fell by %s, receipts burned %s", burned, want)
	}
}

const bidder = `
from cowboy_sdk import actor, set_timer

@actor
class Bidder:
    def __init__(self):
        self.storage["mode"] = "good"
        self.storage["order"] = []
    def arm(self, h, n, gba):
        for i in range(n):
            set_timer(h, "work", i, gba)
    def mode(self, m):
        self.storage["mode"] = m
    def work(self, i):
        if self.storage["mode"] == "light":
            return
        x = 0
        for j in range(12000):
            x += j
    def get_gas_bid(self, context):
        m = self.storage["mode"]
        if m == "raise":
            raise ValueError("no bid")
        if m == "garbage":
            return {"tip_per_cycle": -1}
        if m == "loop":
            while True:
                pass
        if m == "write":
            self.storage["mode"] = "x"
        return {"tip_per_cycle": 5, "max_fee_per_cycle": context["basefee_cycle"] * 2 + 10,
                "tip_per_cell": 0, "max_fee_per_cell": context["basefee_cell"] * 2}
`

func TestHigherBidRunsFirstAndTheRestRollOver(t *testing.T) {
	e := newActorEnv(t)
	// Five actors with four default-bid timers each (a handler's cycles
	// count toward its actor's §12.1 per-block limit), and one urgent
	// timer whose actor bids a tip, scheduled last.
	for i := range 5 {
		crowd := e.deployFunded(bidder, byte(1+i), cby(100))
		ret(t, e.call(crowd, "arm", int64(5), int64(4), nil))
	}
	urgent := e.deployFunded(bidder, 9, cby(100))
	ret(t, e.call(urgent, "arm", int64(5), int64(1), urgent.Hex()))
	rs := e.runTo(5)
	tr := rs[len(rs)-1].Timers
	if len(tr.Receipts) == 0 || tr.Receipts[0].Owner != urgent || tr.Receipts[0].TipPerCycle != 5 {
		t.Fatalf("first run %+v", tr.Receipts[0])
	}
	for i, rc := range tr.Receipts {
		if rc.Status != types.ReceiptSuccess || rc.Index != uint64(i) {
			t.Fatalf("run %d failed or misnumbered: %+v", i, rc)
		}
	}
	t.Logf("ran %d timers of %d cycles each, %d deferred", len(tr.Receipts), tr.Receipts[1].CyclesUsed, tr.Deferred)
	if tr.CyclesUsed > timers.TimerLaneCycles {
		t.Fatalf("timer lane used %d", tr.CyclesUsed)
	}
	if tr.Deferred == 0 || len(tr.Receipts)+tr.Deferred != 21 {
		t.Fatalf("ran %d, deferred %d of 21", len(tr.Receipts), tr.Deferred)
	}
	// The rolled-over ones run in the next blocks, with their deferral kept.
	next := e.endBlock().Timers
	if len(next.Receipts) != tr.Deferred {
		t.Fatalf("next block ran %d of %d rolled over", len(next.Receipts), tr.Deferred)
	}
	rcs, _ := timers.Receipts(e.st, next.Receipts[0].TimerID)
	if len(rcs) != 1 || rcs[0].Height != 6 {
		t.Fatalf("receipts %+v", rcs)
	}
}

func TestBrokenGBABidsTheDefault(t *testing.T) {
	for _, mode := range []string{"raise", "garbage", "loop", "write"} {
		e := newActorEnv(t)
		a := e.deployFunded(bidder, 1, cby(100))
		ret(t, e.call(a, "mode", mode))
		ret(t, e.call(a, "arm", int64(3), int64(1), a.Hex()))
		rs := e.runTo(3)
		tr := rs[len(rs)-1].Timers
		if len(tr.Receipts) != 1 || tr.Receipts[0].TipPerCycle != 0 || tr.Receipts[0].Status != types.ReceiptSuccess {
			t.Fatalf("%s: %+v", mode, tr.Receipts)
		}
		if mode == "write" {
			// The GBA's write was refused and reverted: mode is unchanged.
			if v := e.st.GetStorage(a, 0, mustCBOR(t, "mode")); v == nil || string(v) != string(mustCBOR(t, "write")) {
				t.Fatalf("a read-only GBA changed state: %x", v)
			}
		}
	}
}

const spender = `
from cowboy_sdk import actor, set_timer, transfer

@actor
class Spender:
    def arm(self, h):
        return set_timer(h, "fire", None)
    def spend(self, to):
        transfer(to, pvm_balance())
    def fire(self, data):
        pass

def pvm_balance():
    import pvm_host
    return pvm_host.balance()
`

func TestOwnerThatCannotPayIsDeferredThenDropped(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(spender, 0, cby(1))
	ret(t, e.call(a, "arm", int64(3)))
	ret(t, e.call(a, "spend", types.Address{0x77}.Hex()))
	dep := timers.Deposit(0)
	var dropped []uint64
	for range timers.MaxFundsDeferrals + 3 {
		r := e.endBlock()
		dropped = append(dropped, r.Timers.Dropped...)
		if len(r.Timers.Receipts) != 0 {
			t.Fatal("a timer ran without funds")
		}
	}
	if len(dropped) != 1 || dropped[0] != 1 {
		t.Fatalf("dropped %v", dropped)
	}
	if got := e.st.Balance(a); got.Cmp(dep) != 0 {
		t.Fatalf("owner got back %s, want its deposit %s", got, dep)
	}
	if tm, _ := timers.New(e.st).Get(1); tm != nil {
		t.Fatal("timer still pending")
	}
}

func TestDeferralHistoryIsRecorded(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(spender, 0, cby(1))
	ret(t, e.call(a, "arm", int64(3)))
	ret(t, e.call(a, "spend", types.Address{0x77}.Hex()))
	e.runTo(5)
	tm, err := timers.New(e.st).Get(1)
	if err != nil || tm == nil {
		t.Fatal(err)
	}
	if tm.Deferrals != 3 || tm.FundsDeferrals != 3 || len(tm.History) != 3 || tm.History[0] != (timers.Deferral{Height: 3, Reason: timers.ReasonFunds}) || tm.Tier != timers.TierDue {
		t.Fatalf("timer %+v", tm)
	}
	// Paying again lets it run; the funds counter resets.
	e.st.Mint(a, cby(1))
	r := e.endBlock()
	if len(r.Timers.Receipts) != 1 {
		t.Fatalf("did not run once funded: %+v", r.Timers)
	}
}

func TestTimerOfAGoneActorIsDroppedWithItsDeposit(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(oneShot, 0, cby(1))
	ret(t, e.call(a, "arm", int64(3), nil))
	bal := e.st.Balance(a)
	// Remove the code, as eviction (§17.5) will: commit, then rewrite the
	// account without its code hash.
	m := memReader{}
	m.commit(t, e.st)
	acc, err := state.DecodeAccount(m[state.AccountKey(a)])
	if err != nil {
		t.Fatal(err)
	}
	acc.CodeHash = nil
	if m[state.AccountKey(a)], err = types.Marshal(acc); err != nil {
		t.Fatal(err)
	}
	delete(m, state.CodeKey(a))
	e.st = state.New(m)
	r := e.runTo(3)
	tr := r[len(r)-1].Timers
	if len(tr.Receipts) != 0 || len(tr.Dropped) != 1 {
		t.Fatalf("%+v", tr)
	}
	want := new(big.Int).Add(bal, timers.Deposit(0))
	if got := e.st.Balance(a); got.Cmp(want) != 0 {
		t.Fatalf("balance %s, want %s", got, want)
	}
}

func mustCBOR(t *testing.T, v any) []byte {
	t.Helper()
	b, err := cbor.EncodeGo(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTimerBlocksReplay: a validator executing the blocks a producer built
// (Build on the proposal's transactions) reaches exactly the same state
// writes, timers and all, block after block (timer delivery is
// deterministic and part of the state).
func TestTimerBlocksReplay(t *testing.T) {
	e := newActorEnv(t)
	e.st.Mint(alice, cby(10))
	hb := e.deployFunded(heartbeat, 0, cby(10))
	ret(t, e.call(hb, "start"))
	for i := range 3 {
		b := e.deployFunded(bidder, byte(1+i), cby(100))
		ret(t, e.call(b, "arm", int64(3+i), int64(8), b.Hex()))
	}
	built, replayed := memReader{}, memReader{}
	built.commit(t, e.st)
	for k, v := range built {
		replayed[k] = v
	}
	for h := uint64(1); h <= 30; h++ {
		bc := &BlockContext{ChainID: chainID, Height: h, Proposer: proposer, Basefees: Basefees{Cycle: 5, Cell: 3}}
		st1 := state.New(built)
		r, err := Build(st1, bc, []*types.Tx{transferTx(func(tx *types.Tx) { tx.Nonce = h - 1 })})
		if err != nil {
			t.Fatal(err)
		}
		st2 := state.New(replayed)
		bc2 := *bc
		bc2.actorUsed, bc2.delivered, bc2.seen = nil, nil, nil
		r2, err := Build(st2, &bc2, r.Txs)
		if err != nil {
			t.Fatalf("replay of block %d: %v", h, err)
		}
		w1, _ := st1.Writes()
		w2, _ := st2.Writes()
		if len(w1) != len(w2) || r.CyclesUsed != r2.CyclesUsed || len(r.Timers.Receipts) != len(r2.Timers.Receipts) {
			t.Fatalf("block %d: built %d writes / %d cycles, replayed %d / %d", h, len(w1), r.CyclesUsed, len(w2), r2.CyclesUsed)
		}
		for i := range w1 {
			if w1[i].Key != w2[i].Key || string(w1[i].Value) != string(w2[i].Value) {
				t.Fatalf("block %d: write %d differs", h, i)
			}
		}
		for _, w := range w1 {
			if w.Value == nil {
				delete(built, w.Key)
				delete(replayed, w.Key)
			} else {
				built[w.Key], replayed[w.Key] = w.Value, w.Value
			}
		}
	}
}

// BenchmarkTimerDelivery measures timer runs through the whole executor:
// 150 actors each with a light timer (about what one timer lane holds), 15
// due at each of heights 2 … 11 (the same-height surcharge makes more at
// one height ruinous) and the first 135 rolled over, so block 11 has all
// 150 due; a third bid through their GBA (paid by their owners). Each
// iteration executes block 11 with execution.Build (no transactions: the
// end-of-block steps, Deliver Timers first) on a fresh view of the same
// committed state, and computes its sorted write set as a commit does.
// timers/s is the executor's throughput for timer runs.
func BenchmarkTimerDelivery(b *testing.B) {
	t := &testing.T{}
	e := &actorEnv{t: t, st: state.New(emptyReader{}), from: types.Address{0xee}}
	e.st.Mint(e.from, cby(1000))
	e.newBlock()
	const n = 150
	for i := range n {
		salt := make([]byte, 32)
		salt[30], salt[31] = byte(i>>8), byte(i)
		pl, err := (&types.DeployPayload{Code: bidder, Salt: salt, Args: args(t, nil...)}).Encode()
		if err != nil {
			b.Fatal(err)
		}
		rc := Simulate(e.st, e.bc, e.from, nil, nil, pl, 5_000_000, 1_000_000)
		if rc.Status != types.ReceiptSuccess {
			b.Fatal(rc.Error)
		}
		a := *rc.ContractAddress
		e.st.Mint(a, cby(10))
		var gba any
		if i%3 == 0 {
			gba = a.Hex()
		}
		if rc := e.call(a, "arm", int64(2+i/15), int64(1), gba); rc.Status != types.ReceiptSuccess {
			b.Fatal(rc.Error)
		}
		if rc := e.call(a, "mode", "light"); rc.Status != types.ReceiptSuccess {
			b.Fatal(rc.Error)
		}
	}
	q := timers.New(e.st)
	for h := uint64(2); h <= 10; h++ { // the lane was full: everything rolled over
		due, err := q.Due(h)
		if err != nil {
			b.Fatal(err)
		}
		outs := make([]timers.Outcome, len(due))
		for i, t := range due {
			outs[i] = timers.Outcome{Timer: t, Reason: timers.ReasonBudget}
		}
		if _, err := q.Settle(h, outs); err != nil {
			b.Fatal(err)
		}
		if _, err := q.Maintain(h); err != nil {
			b.Fatal(err)
		}
	}
	m := memReader{}
	ws, err := e.st.Writes()
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range ws {
		if w.Value != nil {
			m[w.Key] = w.Value
		}
	}
	ran := 0
	cpu0 := cpuTime()
	for b.Loop() {
		st := state.New(m)
		bc := &BlockContext{ChainID: chainID, Height: 11, Proposer: proposer, Basefees: Basefees{Cycle: 1, Cell: 1}}
		r, err := Build(st, bc, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.Writes(); err != nil {
			b.Fatal(err)
		}
		ran = len(r.Timers.Receipts)
		for _, rc := range r.Timers.Receipts {
			if rc.Status != types.ReceiptSuccess {
				b.Fatalf("timer %d failed: %s", rc.TimerID, rc.Error)
			}
		}
	}
	cpu1 := cpuTime()
	if ran == 0 {
		b.Fatal("no timer ran")
	}
	b.ReportMetric(float64(ran), "timers/block")
	b.ReportMetric(float64(ran)*float64(b.N)/b.Elapsed().Seconds(), "timers/s")
	// CPU time of the whole process over the loop (the executor's thread,
	// the collector's and anything else): timer runs per CPU-second.
	if cpu := (cpu1 - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(ran)*float64(b.N)/cpu, "timers/cpu-s")
	}
}

// TestGBACallIsPaidByTheOwner: the get_gas_bid call a timer's GBA makes is
// paid by the timer's owner, not the GBA and not the producer: the cycles
// and cells it used at the basefees, burned. A GBA that loops pays the
// whole cap and bids the default; one that raises or returns garbage pays
// what it used and bids the default; an owner that cannot cover the cap
// gets no call, pays nothing for it and bids the default.
func TestGBACallIsPaidByTheOwner(t *testing.T) {
	tests := []struct {
		mode      string
		poor      bool // the owner holds less than the GBA's cap costs
		wantTip   uint64
		wantCall  bool
		wantWhole bool // the call used its whole cycle cap
	}{
		{"good", false, 5, true, false},
		{"raise", false, 0, true, false},
		{"garbage", false, 0, true, false},
		{"loop", false, 0, true, true},
		{"write", false, 0, true, false},
		// An owner below the cap's cost: no call, nothing paid for one,
		// and (a run costs more than a bid) the timer waits for funds.
		{"good", true, 0, false, false},
	}
	for _, tt := range tests {
		e := newActorEnv(t)
		const bc, bb = 7, 3
		owner := e.deployFunded(bidder, 1, cby(100))
		gba := e.deployFunded(bidder, 2, cby(1))
		ret(t, e.call(owner, "mode", "light"))
		ret(t, e.call(gba, "mode", tt.mode))
		ret(t, e.call(owner, "arm", int64(3), int64(1), gba.Hex()))
		e.runTo(2)
		if tt.poor {
			left := new(big.Int).SetUint64(timers.GBACallCycles*bc + timers.GBACallCells*bb - 1)
			if err := e.st.SubBalance(owner, new(big.Int).Sub(e.st.Balance(owner), left)); err != nil {
				t.Fatal(err)
			}
		}
		ownerBefore, gbaBefore, supply := e.st.Balance(owner), e.st.Balance(gba), e.st.Supply()
		e.bc.Basefees = Basefees{Cycle: bc, Cell: bb}
		tr := e.endBlock().Timers
		name := tt.mode
		if tt.poor {
			if len(tr.Receipts) != 0 || tr.Deferred != 1 || tr.GBAFee.Sign() != 0 || tr.GBACycles != 0 {
				t.Fatalf("poor owner: %d receipts, %d deferred, GBA %d cycles for %s", len(tr.Receipts), tr.Deferred, tr.GBACycles, tr.GBAFee)
			}
			if e.st.Balance(owner).Cmp(ownerBefore) != 0 || e.st.Supply().Cmp(supply) != 0 {
				t.Fatal("poor owner: something was charged without a call or a run")
			}
			continue
		}
		if len(tr.Receipts) != 1 {
			t.Fatalf("%s: %d receipts, deferred %d", name, len(tr.Receipts), tr.Deferred)
		}
		rc := tr.Receipts[0]
		if rc.TipPerCycle != tt.wantTip || rc.Status != types.ReceiptSuccess {
			t.Fatalf("%s: receipt %+v", name, rc)
		}
		if got := rc.GBAFee.Sign() > 0; got != tt.wantCall {
			t.Fatalf("%s: GBA fee %s, want a call %v", name, rc.GBAFee, tt.wantCall)
		}
		want := new(big.Int).SetUint64(rc.GBACycles * bc)
		if tt.wantCall {
			if rc.GBACycles == 0 || rc.GBACycles > timers.GBACallCycles || rc.GBAFee.Cmp(want) < 0 {
				t.Fatalf("%s: GBA used %d cycles for %s", name, rc.GBACycles, rc.GBAFee)
			}
			// cycles × basefee_cycle plus cells × basefee_cell, nothing more.
			cells := new(big.Int).Sub(rc.GBAFee, want)
			if r := new(big.Int).Mod(cells, big.NewInt(bb)); r.Sign() != 0 || cells.Cmp(new(big.Int).SetUint64(timers.GBACallCells*bb)) > 0 {
				t.Fatalf("%s: GBA fee %s is not %d cycles at %d plus cells at %d", name, rc.GBAFee, rc.GBACycles, bc, bb)
			}
		}
		if tt.wantWhole && rc.GBACycles != timers.GBACallCycles {
			t.Fatalf("%s: a looping GBA used %d of its %d-cycle cap", name, rc.GBACycles, timers.GBACallCycles)
		}
		// The one-shot timer ran out: its deposit came back.
		paid := new(big.Int).Sub(ownerBefore, e.st.Balance(owner))
		paid.Add(paid, timers.Deposit(0))
		if sum := new(big.Int).Add(rc.Fee, rc.GBAFee); paid.Cmp(sum) != 0 {
			t.Fatalf("%s: owner paid %s, want run %s + GBA %s", name, paid, rc.Fee, rc.GBAFee)
		}
		if e.st.Balance(gba).Cmp(gbaBefore) != 0 {
			t.Fatalf("%s: the GBA actor paid for its own call", name)
		}
		burned := new(big.Int).Sub(supply, e.st.Supply())
		if want := new(big.Int).Add(rc.Burned, rc.GBAFee); burned.Cmp(want) != 0 {
			t.Fatalf("%s: burned %s, want run %s + GBA %s", name, burned, rc.Burned, rc.GBAFee)
		}
		if tr.GBAFee.Cmp(rc.GBAFee) != 0 || tr.GBACycles != rc.GBACycles {
			t.Fatalf("%s: block totals %d/%s, receipt %d/%s", name, tr.GBACycles, tr.GBAFee, rc.GBACycles, rc.GBAFee)
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
