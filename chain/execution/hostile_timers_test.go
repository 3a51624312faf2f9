package execution

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
)

const attackerActor = `
from cowboy_sdk import actor, set_timer

@actor
class Attacker:
    def __init__(self):
        self.storage["ok"] = 0
        self.storage["tried"] = 0
    def bomb(self, h, n):
        ok = 0
        for i in range(n):
            try:
                set_timer(h, "work", i)
                ok += 1
            except ValueError:
                pass
        self.storage["ok"] = self.storage["ok"] + ok
        self.storage["tried"] = self.storage["tried"] + n
        return ok
    def spread(self, start, n, tried):
        ok = 0
        for i in range(n):
            try:
                set_timer(start + (tried + i) % 5000, "work", i)
                ok += 1
            except ValueError:
                pass
        return ok
    def work(self, i):
        x = 0
        for j in range(12000):
            x += j
    def get_gas_bid(self, context):
        return {"tip_per_cycle": 50, "max_fee_per_cycle": context["basefee_cycle"] + 50,
                "tip_per_cell": 0, "max_fee_per_cell": context["basefee_cell"]}
`

// TestHostileTimerScenario is issue 13's hostile scenario: one actor aims
// 10,000 timers at one height and another 100,000 across heights, while a
// user sends a transfer every block. The transfers still get in, no block
// passes its caps or the timer lane, the attacker pays the exponential
// surcharges (burned), the per-actor cap stops the spreader, and an honest
// timer whose GBA bids a tip runs first at the attacked height. Here the
// attackers' calls are simulated between blocks; node's
// TestHostileTimersThroughBlocks runs the same scenario with every call a
// signed transaction in a produced, committed block.
func TestHostileTimerScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ~130 blocks with 110,000 set_timer attempts")
	}
	m := memReader{}
	st := state.New(m)
	st.Mint(alice, cby(10))
	e := &actorEnv{t: t, st: st, from: types.Address{0xee}}
	e.st.Mint(e.from, cby(1000))
	e.newBlock()
	e.bc.Proposer, e.bc.Basefees = proposer, Basefees{Cycle: 5, Cell: 3}
	bomber := e.deployFunded(attackerActor, 1, cby(1000))
	spreader := e.deployFunded(attackerActor, 2, cby(1000))
	honest := e.deployFunded(bidder, 3, cby(100))
	const target = 140
	ret(t, e.call(honest, "arm", int64(target), int64(1), honest.Hex()))

	supply0, bomber0 := e.st.Supply(), e.st.Balance(bomber)
	bombed, spreadOK, spreadTried := int64(0), int64(0), int64(0)
	var nonce uint64
	for e.bc.Height <= target+5 {
		h := e.bc.Height
		if h <= 20 { // 20 blocks × 500 attempts = 10,000 at one height
			rc := e.callWith(bomber, nil, fees.CapCycles, fees.CapCells, "bomb", int64(target), int64(500))
			bombed += ret(t, rc).(int64)
		}
		if h <= 125 { // 125 blocks × 800 attempts = 100,000 across heights
			rc := e.callWith(spreader, nil, fees.CapCycles, fees.CapCells, "spread", int64(target+1), int64(800), spreadTried)
			spreadOK += ret(t, rc).(int64)
			spreadTried += 800
		}
		tx := transferTx(func(tx *types.Tx) { tx.Nonce = nonce })
		nonce++
		bc := *e.bc
		r, err := Build(e.st, &bc, []*types.Tx{tx})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Txs) != 1 || r.Receipts[0].Status != types.ReceiptSuccess {
			t.Fatalf("block %d: the user's transfer did not get in (%d txs, deferred %d)", h, len(r.Txs), len(r.Deferred))
		}
		if r.CyclesUsed > fees.CapCycles || r.CellsUsed > fees.CapCells || r.Timers.CyclesUsed > timers.TimerLaneCycles {
			t.Fatalf("block %d over its caps: %d cycles (%d timers), %d cells", h, r.CyclesUsed, r.Timers.CyclesUsed, r.CellsUsed)
		}
		if h == target {
			rcs := r.Timers.Receipts
			if len(rcs) == 0 || rcs[0].Owner != honest {
				t.Fatalf("at the attacked height the honest bidder did not run first: %+v", rcs)
			}
			if r.Timers.Deferred == 0 {
				t.Fatal("the attack did not even fill the timer lane")
			}
		}
		e.newBlock()
		e.bc.Proposer, e.bc.Basefees = proposer, Basefees{Cycle: 5, Cell: 3}
	}
	// The surcharge doubles after the 16th timer at a height (the honest
	// one was the first): 1,000 CBY buys only a few dozen of the 10,000.
	if bombed < 20 || bombed > 60 {
		t.Fatalf("the bomber got %d timers at one height", bombed)
	}
	surcharges := new(big.Int)
	for k := int64(2); k <= bombed+1; k++ {
		surcharges.Add(surcharges, timers.Surcharge(uint64(k)))
	}
	paid := new(big.Int).Sub(bomber0, e.st.Balance(bomber))
	if paid.Cmp(surcharges) < 0 {
		t.Fatalf("bomber paid %s, surcharges alone are %s", paid, surcharges)
	}
	if burned := new(big.Int).Sub(supply0, e.st.Supply()); burned.Cmp(surcharges) < 0 {
		t.Fatalf("burned %s < surcharges %s", burned, surcharges)
	}
	if spreadOK > timers.MaxPendingPerActor+200 { // some ran (and left) before the cap stopped it
		t.Fatalf("the spreader got %d timers past a cap of %d", spreadOK, timers.MaxPendingPerActor)
	}
	if ids, _ := timers.New(e.st).ByOwner(spreader); len(ids) > timers.MaxPendingPerActor {
		t.Fatalf("spreader has %d pending", len(ids))
	}
	t.Logf("bomber: %d of 10,000 scheduled, paid %s; spreader: %d of %d scheduled", bombed, paid, spreadOK, spreadTried)
}
