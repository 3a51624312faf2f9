package execution

import (
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
