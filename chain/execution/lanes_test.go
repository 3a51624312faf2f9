package execution

import (
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

func TestLaneOf(t *testing.T) {
	reg, user := staking.Address, bob
	if LaneOf(&types.Tx{To: &reg}) != fees.LaneSystem || LaneOf(&types.Tx{To: &user}) != fees.LaneUser || LaneOf(&types.Tx{}) != fees.LaneUser {
		t.Fatal("lane tags")
	}
}

// §17.9 with the project's reading: the timer lane's budget is set aside
// from the transactions only in blocks where timers are due; otherwise it
// spills to them.
func TestTimerLaneReservation(t *testing.T) {
	e := newActorEnv(t)
	a := e.deployFunded(oneShot, 0, cby(1))
	ret(t, e.call(a, "arm", int64(3), nil))
	for h, want := range map[uint64]uint64{1: fees.CapCycles, 2: fees.CapCycles, 3: fees.CapCycles - timers.TimerLaneCycles, 4: fees.CapCycles} {
		got, err := TxCycleCap(e.st, h)
		if err != nil || got != want {
			t.Fatalf("height %d: cap %d, want %d (%v)", h, got, want, err)
		}
	}
	// At block 3 a transaction that needs more than the rest is deferred
	// (before any validity check) and the timer runs.
	big := transferTx(func(tx *types.Tx) { tx.CyclesLimit = fees.CapCycles - timers.TimerLaneCycles + 1 })
	e.runTo(2)
	res, err := Build(e.st, e.bc, []*types.Tx{big})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Deferred) != 1 || len(res.Timers.Receipts) != 1 {
		t.Fatalf("block 3: deferred %d, timer runs %d", len(res.Deferred), len(res.Timers.Receipts))
	}
}
