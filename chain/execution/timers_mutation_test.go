package execution

import (
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestTimersGetTheCellsTransactionsLeft checks that the Deliver Timers
// step runs in the block cells the transactions left (§17.8's cap covers
// both): a due timer runs when the transactions left at least a quarter
// of a call's cells, and rolls over when they left less.
func TestTimersGetTheCellsTransactionsLeft(t *testing.T) {
	for _, c := range []struct {
		name    string
		txCells uint64 // cells the block's transactions used
		ran     bool
	}{
		{"an empty block", 0, true},
		{"a quarter call left", fees.CapCells - timers.TimerCallCells/4, true},
		{"less than a quarter left", fees.CapCells - timers.TimerCallCells/4 + 1, false},
		{"a full block", fees.CapCells, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newActorEnv(t)
			a := e.deployFunded(oneShot, 0, cby(10))
			ret(t, e.call(a, "arm", int64(3), int64(7)))
			e.runTo(2)
			r := &Result{CellsUsed: c.txCells}
			if err := deliverTimers(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			ran := len(r.Timers.Receipts) == 1 && r.Timers.Deferred == 0
			rolled := len(r.Timers.Receipts) == 0 && r.Timers.Deferred == 1
			if ran != c.ran || ran == rolled {
				t.Fatalf("receipts %d, deferred %d; want ran = %v", len(r.Timers.Receipts), r.Timers.Deferred, c.ran)
			}
			if r.CellsUsed != c.txCells+r.Timers.CellsUsed || r.CellsUsed > fees.CapCells {
				t.Fatalf("block cells %d: transactions %d + timers %d", r.CellsUsed, c.txCells, r.Timers.CellsUsed)
			}
		})
	}
}

// TestReservedLaneFitEdge checks a reserved lane's budget at its edge
// (§17.9): after a system call used part of the reservation, a second
// system call whose limit is exactly what is left is charged to the
// system lane; one cycle more competes for the user lane's room instead.
func TestReservedLaneFitEdge(t *testing.T) {
	budget := fees.LaneCycleBudget[fees.LaneSystem]
	const used = 40_000
	for _, c := range []struct {
		name  string
		limit uint64
		lane  fees.Lane
	}{
		{"exactly the rest of the reservation", budget - used, fees.LaneSystem},
		{"one cycle more", budget - used + 1, fees.LaneUser},
		{"the whole reservation", budget, fees.LaneUser},
	} {
		m := newLaneMeter(fees.CapCycles, []*types.Tx{registryTx(100_000), registryTx(100_000)})
		m.done(fees.LaneSystem, fees.LaneSystem, used)
		lane, ok := m.fit(fees.LaneSystem, c.limit)
		if lane != c.lane || !ok {
			t.Errorf("%s: a limit of %d goes to lane %d (fits %v), want %d", c.name, c.limit, lane, ok, c.lane)
		}
	}
}

// TestTimerWaitsForItsActorsCycles checks a due timer against its actor's
// §12.1 per-block cycles: it runs when the actor still has a whole
// TimerCallCycles left this block, and rolls over with one cycle less.
func TestTimerWaitsForItsActorsCycles(t *testing.T) {
	for _, c := range []struct {
		name      string
		actorUsed uint64
		ran       bool
	}{
		{"a fresh actor", 0, true},
		{"exactly a call left", PerActorBlockCycles - timers.TimerCallCycles, true},
		{"one cycle less", PerActorBlockCycles - timers.TimerCallCycles + 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newActorEnv(t)
			a := e.deployFunded(oneShot, 0, cby(10))
			ret(t, e.call(a, "arm", int64(3), int64(7)))
			e.runTo(2)
			e.bc.addActorCycles(a, c.actorUsed)
			r := &Result{}
			if err := deliverTimers(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			if ran := len(r.Timers.Receipts) == 1; ran != c.ran || r.Timers.Deferred != 1-len(r.Timers.Receipts) {
				t.Fatalf("receipts %d, deferred %d; want ran = %v", len(r.Timers.Receipts), r.Timers.Deferred, c.ran)
			}
		})
	}
}

// TestNextTimerGetsTheCellsLeft checks that each timer run takes its cells
// from what the transactions and the runs before it left: with a quarter
// call's cells (the least a run starts with) plus what the first run
// uses, the first runs and the second rolls over.
func TestNextTimerGetsTheCellsLeft(t *testing.T) {
	arm := func() *actorEnv {
		e := newActorEnv(t)
		for salt := range byte(2) {
			a := e.deployFunded(oneShot, salt, cby(10))
			ret(t, e.call(a, "arm", int64(3), int64(7)))
		}
		e.runTo(2)
		return e
	}
	e := arm()
	free := &Result{}
	if err := deliverTimers(e.st, e.bc, free); err != nil {
		t.Fatal(err)
	}
	if len(free.Timers.Receipts) != 2 {
		t.Fatalf("an empty block ran %d of 2 timers", len(free.Timers.Receipts))
	}
	first := free.Timers.Receipts[0].CellsUsed
	for _, c := range []struct {
		name string
		left uint64
		ran  int
	}{
		{"room for both", timers.TimerCallCells/4 + first, 2},
		{"one cell short for the second", timers.TimerCallCells/4 + first - 1, 1},
	} {
		e := arm()
		r := &Result{CellsUsed: fees.CapCells - c.left}
		if err := deliverTimers(e.st, e.bc, r); err != nil {
			t.Fatal(err)
		}
		if len(r.Timers.Receipts) != c.ran || r.Timers.Deferred != 2-c.ran {
			t.Errorf("%s: ran %d, deferred %d; want %d ran", c.name, len(r.Timers.Receipts), r.Timers.Deferred, c.ran)
		}
	}
}

const cellBidder = `
from cowboy_sdk import actor, context, set_timer

@actor
class CellBidder:
    def __init__(self):
        self.storage["n"] = 0
    def arm(self, h):
        return set_timer(h, "work", 1, context.self_address)
    def work(self, i):
        self.storage["n"] = "x" * 300
    def get_gas_bid(self, ctx):
        return {"tip_per_cycle": 2, "max_fee_per_cycle": ctx["basefee_cycle"] * 2 + 10,
                "tip_per_cell": 3, "max_fee_per_cell": ctx["basefee_cell"] * 2 + 10}
`

// TestTimerPaysItsCellTip checks a timer run is charged its GBA's bid on
// both meters: the tip per cycle and the tip per cell go to the proposer
// on top of the burned basefees.
func TestTimerPaysItsCellTip(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(cellBidder, 0, cby(10))
	ret(t, e.call(a, "arm", int64(3)))
	e.runTo(2)
	r := &Result{}
	if err := deliverTimers(e.st, e.bc, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Timers.Receipts) != 1 {
		t.Fatalf("receipts %d", len(r.Timers.Receipts))
	}
	rc := r.Timers.Receipts[0]
	if rc.Status != types.ReceiptSuccess || rc.CellsUsed == 0 {
		t.Fatalf("run %+v", rc)
	}
	bf := e.bc.Basefees
	tip := rc.CyclesUsed*2 + rc.CellsUsed*3
	burned := rc.CyclesUsed*bf.Cycle + rc.CellsUsed*bf.Cell
	if rc.Tip.Uint64() != tip || rc.Burned.Uint64() != burned || rc.Fee.Uint64() != tip+burned {
		t.Fatalf("fee %s (burned %s, tip %s) for %d cycles %d cells; want burned %d, tip %d", rc.Fee, rc.Burned, rc.Tip, rc.CyclesUsed, rc.CellsUsed, burned, tip)
	}
}

const greedyTimer = `
from cowboy_sdk import actor, set_timer

@actor
class GreedyTimer:
    def __init__(self):
        self.storage["mode"] = ""
    def arm(self, h, mode):
        self.storage["mode"] = mode
        return set_timer(h, "work", None)
    def work(self, data):
        if self.storage["mode"] == "spin":
            while True:
                pass
        i = 0
        while True:
            self.storage["k" + str(i)] = bytes(3000)
            i += 1
`

// TestTimerStaysWithinItsLimits checks that a timer handler that never
// ends is stopped at the limits of one timer call, intrinsic cost
// included: a spinning one is charged exactly TimerCallCycles, one that
// writes storage without end exactly TimerCallCells, and both fail.
func TestTimerStaysWithinItsLimits(t *testing.T) {
	for _, c := range []struct {
		mode   string
		err    string
		cycles uint64 // 0: whatever it used
		cells  uint64
	}{
		{"spin", "out of cycles", timers.TimerCallCycles, 0},
		{"write", "cells", 0, timers.TimerCallCells},
	} {
		t.Run(c.mode, func(t *testing.T) {
			e := newActorEnv(t)
			a := e.deployFunded(greedyTimer, 0, cby(10))
			ret(t, e.call(a, "arm", int64(3), c.mode))
			e.runTo(2)
			r := &Result{}
			if err := deliverTimers(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			if len(r.Timers.Receipts) != 1 {
				t.Fatalf("receipts %d", len(r.Timers.Receipts))
			}
			rc := r.Timers.Receipts[0]
			if rc.Status == types.ReceiptSuccess || !strings.Contains(rc.Error, c.err) {
				t.Fatalf("status %d, error %q; want a failure with %q", rc.Status, rc.Error, c.err)
			}
			if rc.CyclesUsed > timers.TimerCallCycles || rc.CellsUsed > timers.TimerCallCells ||
				(c.cycles != 0 && rc.CyclesUsed != c.cycles) || (c.cells != 0 && rc.CellsUsed != c.cells) {
				t.Fatalf("used %d cycles and %d cells; limits %d, %d", rc.CyclesUsed, rc.CellsUsed, timers.TimerCallCycles, timers.TimerCallCells)
			}
		})
	}
}

// TestGBACallsStopWhenTheLaneHoldsNoCallAndRun checks the bound on
// get_gas_bid calls (docs/decisions.md "Timers: who pays for a GBA
// call"): a call is made only while the timer lane holds the call's cap
// and one run, so with GBAs that always use the whole cap a block asks
// exactly 36 of them (the 36th finds exactly a cap and a run, 250,000,
// left and is still asked) and the rest roll over unasked.
func TestGBACallsStopWhenTheLaneHoldsNoCallAndRun(t *testing.T) {
	e := newActorEnv(t)
	const n = 38
	a := e.deployFunded(bidder, 1, cby(1000))
	ret(t, e.call(a, "mode", "loop"))
	ret(t, e.call(a, "arm", int64(3), int64(n), a.Hex()))
	e.runTo(2)
	r := &Result{}
	if err := deliverTimers(e.st, e.bc, r); err != nil {
		t.Fatal(err)
	}
	asked := (timers.TimerLaneCycles-timers.TimerCallCycles-timers.GBACallCycles)/timers.GBACallCycles + 1
	if asked != 36 || r.Timers.GBACycles != asked*timers.GBACallCycles || r.Timers.Unasked != n-int(asked) {
		t.Fatalf("GBA cycles %d (%d calls at the cap), unasked %d; want %d calls, %d unasked",
			r.Timers.GBACycles, r.Timers.GBACycles/timers.GBACallCycles, r.Timers.Unasked, asked, n-int(asked))
	}
}
