package execution

import (
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestContinuationsGetTheCellsLeft checks the Resolve Jobs step against
// the block's cell cap (§17.8): a continuation runs only while the block
// has a continuation's CallbackCells left, counting what the transactions
// and the continuations before it used; the others wait for the next
// block.
func TestContinuationsGetTheCellsLeft(t *testing.T) {
	for _, c := range []struct {
		name           string
		used           uint64 // cells the block used before Resolve Jobs
		ran, postponed int
	}{
		{"an empty block", 0, 2, 0},
		{"one continuation's cells left", fees.CapCells - runner.CallbackCells, 1, 1},
		{"one cell less", fees.CapCells - runner.CallbackCells + 1, 0, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newMarketEnv(t)
			oracle := e.deployFunded(oracleActor, 0, cby(100))
			for range 2 {
				ret(t, e.call(oracle, "ask", "Hello?", "unknown-model", cby(10)))
			}
			e.endBlock() // no committee: both fail, to be delivered in the next block
			r := &Result{CellsUsed: c.used}
			if err := resolveJobs(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			if len(r.Jobs.Continuations) != c.ran || r.Jobs.Postponed != c.postponed {
				t.Fatalf("ran %d, postponed %d; want %d, %d", len(r.Jobs.Continuations), r.Jobs.Postponed, c.ran, c.postponed)
			}
			if c.ran > 0 && r.Jobs.CellsUsed == 0 {
				t.Fatal("continuations used no cells")
			}
			if r.CellsUsed != c.used+r.Jobs.CellsUsed {
				t.Fatalf("block cells %d, want %d + %d", r.CellsUsed, c.used, r.Jobs.CellsUsed)
			}
		})
	}
}

// TestContinuationWaitsForItsActorsCycles checks a continuation against
// its actor's §12.1 per-block cycles: it runs while the actor has at
// least a tenth of a continuation's limit left this block and waits for
// the next block with less.
func TestContinuationWaitsForItsActorsCycles(t *testing.T) {
	for _, c := range []struct {
		name      string
		actorUsed uint64 // cycles the actor's handlers used earlier in the block
		ran       bool
	}{
		{"a fresh actor", 0, true},
		{"a tenth left", PerActorBlockCycles - runner.CallbackCycles/10, true},
		{"less than a tenth left", PerActorBlockCycles - runner.CallbackCycles/10 + 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newMarketEnv(t)
			oracle := e.deployFunded(oracleActor, 0, cby(100))
			ret(t, e.call(oracle, "ask", "Hello?", "unknown-model", cby(10)))
			e.endBlock()
			e.bc.addActorCycles(oracle, c.actorUsed)
			r := &Result{}
			if err := resolveJobs(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			if ran := len(r.Jobs.Continuations) == 1; ran != c.ran || r.Jobs.Postponed != 1-len(r.Jobs.Continuations) {
				t.Fatalf("ran %d, postponed %d; want ran = %v", len(r.Jobs.Continuations), r.Jobs.Postponed, c.ran)
			}
		})
	}
}

const greedyContinuation = `
from cowboy_sdk import actor, runner

@actor
class Greedy:
    def __init__(self):
        self.storage["mode"] = ""

    def ask(self, mode):
        self.storage["mode"] = mode
        return runner.submit(kind="llm", model="unknown-model", input={"prompt": "?"},
                             trust="majority_vote", committee=3, max_price=10**19,
                             callback="on_answer", timeout_blocks=10, seed=7)

    @runner.continuation
    def on_answer(self, result):
        if self.storage["mode"] == "spin":
            while True:
                pass
        i = 0
        while True:
            self.storage["k" + str(i)] = bytes(30000)
            i += 1
`

// TestContinuationStaysWithinItsLimits checks that a continuation that
// never ends is stopped at its limits, intrinsic cost included: one that
// spins is charged exactly CallbackCycles, one that writes storage
// without end exactly CallbackCells, and both fail.
func TestContinuationStaysWithinItsLimits(t *testing.T) {
	for _, c := range []struct {
		mode string
		err  string
	}{{"spin", "out of cycles"}, {"write", "cells"}} {
		t.Run(c.mode, func(t *testing.T) {
			e := newMarketEnv(t)
			a := e.deployFunded(greedyContinuation, 0, cby(100))
			ret(t, e.call(a, "ask", c.mode))
			e.endBlock()
			r := &Result{}
			if err := resolveJobs(e.st, e.bc, r); err != nil {
				t.Fatal(err)
			}
			if len(r.Jobs.Continuations) != 1 {
				t.Fatalf("continuations %d, postponed %d", len(r.Jobs.Continuations), r.Jobs.Postponed)
			}
			k := r.Jobs.Continuations[0]
			if k.Status == types.ReceiptSuccess || !strings.Contains(k.Error, c.err) {
				t.Fatalf("status %d, error %q; want a failure with %q", k.Status, k.Error, c.err)
			}
			if k.CyclesUsed > runner.CallbackCycles || k.CellsUsed > runner.CallbackCells {
				t.Fatalf("used %d cycles and %d cells, beyond the limits %d, %d", k.CyclesUsed, k.CellsUsed, runner.CallbackCycles, runner.CallbackCells)
			}
			if c.mode == "spin" && k.CyclesUsed != runner.CallbackCycles {
				t.Fatalf("a spinning continuation used %d cycles, want all %d", k.CyclesUsed, runner.CallbackCycles)
			}
			if c.mode == "write" && k.CellsUsed != runner.CallbackCells {
				t.Fatalf("a continuation writing without end used %d cells, want all %d", k.CellsUsed, runner.CallbackCells)
			}
		})
	}
}

// TestRunnerLaneBudgetEdge checks the runner lane's cycle budget (§17.9:
// 2,500,000 a block) at its edge: a continuation runs while the lane has
// at least one continuation's CallbackCycles left. Four spinning
// continuations use 750,000, 750,000 (their actors had spent 250,000 this
// block), then exactly the 1,000,000 left; the fourth waits.
func TestRunnerLaneBudgetEdge(t *testing.T) {
	e := newMarketEnv(t)
	var actors []types.Address
	for salt := range byte(4) {
		a := e.deployFunded(greedyContinuation, salt, cby(100))
		ret(t, e.call(a, "ask", "spin"))
		actors = append(actors, a)
	}
	e.endBlock()
	for _, a := range actors[:2] {
		e.bc.addActorCycles(a, PerActorBlockCycles-750_000)
	}
	r := &Result{}
	if err := resolveJobs(e.st, e.bc, r); err != nil {
		t.Fatal(err)
	}
	var used []uint64
	for _, c := range r.Jobs.Continuations {
		used = append(used, c.CyclesUsed)
	}
	if len(used) != 3 || used[0] != 750_000 || used[1] != 750_000 || used[2] != runner.CallbackCycles || r.Jobs.Postponed != 1 {
		t.Fatalf("continuations used %v, postponed %d; want [750000 750000 1000000], 1", used, r.Jobs.Postponed)
	}
	if r.Jobs.CyclesUsed != fees.LaneCycleBudget[fees.LaneRunner] {
		t.Fatalf("runner lane used %d, want its whole budget", r.Jobs.CyclesUsed)
	}
}
