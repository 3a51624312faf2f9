package execution

import (
	"math/big"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/timers"
)

// TestGBACallsAreTimerLaneWork: get_gas_bid calls are timer-lane work
// (docs/decisions.md "Timers: who pays for a GBA call"). In every block
// (1) their cycles are part of the timer lane's and the block's usage,
// (2) calls and runs together stay within the lane's 2,000,000 cycles and
// the block within its cap, a call being made only while the lane holds
// its cap and one run; (3) a timer whose GBA the full lane could not ask
// rolls over unasked and runs in a later block; (4) the owner, not the GBA
// actor, pays for every call, in the blocks its timer runs and in those it
// only bid.
func TestGBACallsAreTimerLaneWork(t *testing.T) {
	tests := []struct {
		name        string
		heights     []int64 // one owner arms perHeight timers at each
		perHeight   int64
		ownerMode   string // the handlers' work (bidder's "mode")
		gbaMode     string // what the GBA actor's get_gas_bid does
		wantUnasked bool   // some block must leave GBAs unasked
	}{
		{"one cheap bid", []int64{3}, 1, "light", "good", false},
		{"a few cheap bids", []int64{3, 4}, 8, "light", "good", false},
		// 80 timers whose GBA always runs to its 50,000-cycle cap, with
		// heavy handlers (the owner's §12.1 cycles hold its runs back): the
		// backlog passes 36 candidates, the most the lane can ask.
		{"a backlog of looping GBAs", []int64{3, 4, 5, 6, 7}, 16, "good", "loop", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newActorEnv(t)
			owner := e.deployFunded(bidder, 1, cby(500))
			gba := e.deployFunded(bidder, 2, cby(1))
			ret(t, e.call(owner, "mode", tt.ownerMode))
			ret(t, e.call(gba, "mode", tt.gbaMode))
			for _, h := range tt.heights {
				ret(t, e.call(owner, "arm", h, tt.perHeight, gba.Hex()))
			}
			total := len(tt.heights) * int(tt.perHeight)
			e.runTo(2)
			ownerBefore, gbaBefore := e.st.Balance(owner), e.st.Balance(gba)
			escrowBefore, supplyBefore := e.st.Balance(timers.EscrowAddress), e.st.Supply()

			runs := map[uint64]int{}
			ownerFees, burned, tips := new(big.Int), new(big.Int), new(big.Int)
			unasked, maxCalls := 0, uint64(0)
			for range 200 {
				if len(runs) == total {
					break
				}
				r := e.endBlock()
				tr := r.Timers
				var runCycles uint64
				for _, rc := range tr.Receipts {
					runs[rc.TimerID]++
					runCycles += rc.CyclesUsed
					ownerFees.Add(ownerFees, rc.Fee)
					burned.Add(burned, rc.Burned)
					tips.Add(tips, rc.Tip)
				}
				ownerFees.Add(ownerFees, tr.GBAFee)
				burned.Add(burned, tr.GBAFee)
				// (1) The calls' cycles are the lane's and the block's usage.
				if tr.CyclesUsed != tr.GBACycles+runCycles || r.CyclesUsed != tr.CyclesUsed {
					t.Fatalf("block %d: lane %d, block %d; want GBA %d + runs %d",
						e.bc.Height-1, tr.CyclesUsed, r.CyclesUsed, tr.GBACycles, runCycles)
				}
				if tr.Deferred+len(tr.Receipts) > 0 && tr.Unasked < tr.Deferred+len(tr.Receipts) && tr.GBACycles == 0 {
					t.Fatalf("block %d: GBAs were asked but no GBA cycles counted", e.bc.Height-1)
				}
				// (2) Calls and runs within the lane, the block within its cap.
				if tr.GBACycles+runCycles > timers.TimerLaneCycles || r.CyclesUsed > fees.CapCycles {
					t.Fatalf("block %d: GBA %d + runs %d cycles, lane %d; block %d",
						e.bc.Height-1, tr.GBACycles, runCycles, timers.TimerLaneCycles, r.CyclesUsed)
				}
				if tt.gbaMode == "loop" {
					calls := tr.GBACycles / timers.GBACallCycles
					if tr.GBACycles%timers.GBACallCycles != 0 || calls > (timers.TimerLaneCycles-timers.TimerCallCycles)/timers.GBACallCycles {
						t.Fatalf("block %d: %d GBA cycles", e.bc.Height-1, tr.GBACycles)
					}
					maxCalls = max(maxCalls, calls)
					if tr.Deferred > 0 && len(tr.Receipts) == 0 {
						t.Fatalf("block %d: bids took the whole lane, no timer ran", e.bc.Height-1)
					}
				}
				unasked += tr.Unasked
			}
			t.Logf("%d timers ran in %d blocks; %d candidates left unasked; at most %d looping calls in a block",
				len(runs), e.bc.Height-3, unasked, maxCalls)
			// (3) Every timer, unasked ones included, ran exactly once.
			if len(runs) != total {
				t.Fatalf("%d of %d timers ran", len(runs), total)
			}
			for id, n := range runs {
				if n != 1 {
					t.Fatalf("timer %d ran %d times", id, n)
				}
			}
			if (unasked > 0) != tt.wantUnasked {
				t.Fatalf("%d candidates left unasked, want some: %v", unasked, tt.wantUnasked)
			}
			if n, _ := timers.New(e.st).Pending(); n != 0 {
				t.Fatalf("%d timers still pending", n)
			}
			// (4) The owner paid every run and every call (its deposits came
			// back from the escrow); the GBA actor paid nothing; the calls
			// were burned.
			paid := new(big.Int).Sub(ownerBefore, e.st.Balance(owner))
			paid.Add(paid, new(big.Int).Sub(escrowBefore, e.st.Balance(timers.EscrowAddress)))
			if paid.Cmp(ownerFees) != 0 {
				t.Fatalf("owner paid %s, want runs and calls %s", paid, ownerFees)
			}
			if e.st.Balance(gba).Cmp(gbaBefore) != 0 {
				t.Fatal("the GBA actor paid for calls")
			}
			if got := new(big.Int).Sub(supplyBefore, e.st.Supply()); got.Cmp(burned) != 0 {
				t.Fatalf("supply fell by %s, want burned %s", got, burned)
			}
		})
	}
}
