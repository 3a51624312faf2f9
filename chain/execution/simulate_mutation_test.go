package execution

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/state"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestSimulateIntrinsicEdges checks Simulate (cowboy_call, fee
// estimation) at the intrinsic cost: caps of exactly the intrinsic cycles
// and cells run the transfer, one cycle less is refused with
// the reason, and a run leaves the sender's nonce where the transaction
// would (one higher), so several calls simulated on one state follow
// each other as in a block.
func TestSimulateIntrinsicEdges(t *testing.T) {
	bob := types.Address{0xb0}
	ic, ib := fees.TxIntrinsic(&types.Tx{To: &bob, Value: big.NewInt(1)})
	for _, c := range []struct {
		name          string
		cycles, cells uint64
		ok            bool
	}{
		{"exactly the intrinsic cost", ic, ib, true},
		{"one cycle short", ic - 1, ib, false},
		{"more than enough", ic + 1000, ib + 1000, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newActorEnv(t)
			nonce := e.st.Nonce(e.from)
			rc := Simulate(e.st, e.bc, e.from, &bob, big.NewInt(1), nil, c.cycles, c.cells)
			if c.ok {
				if rc.Status != types.ReceiptSuccess || rc.CyclesUsed != ic || rc.CellsUsed != ib {
					t.Fatalf("status %d %q, used %d cycles %d cells; want success using %d, %d", rc.Status, rc.Error, rc.CyclesUsed, rc.CellsUsed, ic, ib)
				}
				if got := e.st.Balance(bob); got.Cmp(big.NewInt(1)) != 0 {
					t.Fatalf("bob has %s", got)
				}
				if got := e.st.Nonce(e.from); got != nonce+1 {
					t.Fatalf("sender nonce %d after the call, want %d", got, nonce+1)
				}
				rc2 := Simulate(e.st, e.bc, e.from, &bob, big.NewInt(1), nil, c.cycles, c.cells)
				if rc2.Status != types.ReceiptSuccess || rc2.TxHash == rc.TxHash || e.st.Nonce(e.from) != nonce+2 {
					t.Fatalf("second call: status %d, same hash %v, nonce %d", rc2.Status, rc2.TxHash == rc.TxHash, e.st.Nonce(e.from))
				}
				return
			}
			if rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, "below the intrinsic cost") {
				t.Fatalf("status %d %q, want the intrinsic refusal", rc.Status, rc.Error)
			}
			if e.st.Balance(bob).Sign() != 0 || e.st.Nonce(e.from) != nonce {
				t.Fatal("a refused call changed the state")
			}
		})
	}
}

// TestCallCapsExactlyWhatItUses checks that a call's caps are what the
// transaction pays for, intrinsic cost included: caps of exactly the
// cycles and cells a call used (as Simulate reports them, for fee
// estimation) run it the same way again, and one cycle or one cell less
// fails it.
func TestCallCapsExactlyWhatItUses(t *testing.T) {
	const src = "class Actor:\n    def __init__(self):\n        self.n = 0\n    def put(self, s):\n        self.n = s * 40\n        i = 0\n        while i < 50:\n            i += 1\n        return len(s)\n"
	// Each call runs on a fresh deployment: a later call loads the state
	// the first one stored, which costs more.
	call := func(cycles, cells uint64) *types.Receipt {
		e := newActorEnv(t)
		return e.callWith(e.mustDeploy(src), nil, cycles, cells, "put", "abcdef")
	}
	// The same call signed and included in a block (ApplyTx).
	apply := func(cycles, cells uint64) *types.Receipt {
		r := setup(t)
		st := state.New(r)
		deploy, err := (&types.DeployPayload{Code: src, Salt: make([]byte, 32), Args: args(t)}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		dtx := &types.Tx{ChainID: chainID, CyclesLimit: 5_000_000, CellsLimit: 100_000, MaxFeePerCycle: 10, MaxFeePerCell: 10, Payload: deploy, Value: new(big.Int)}
		dtx.Sign(aliceKey)
		drc, err := ApplyTx(st, ctx(), dtx)
		if err != nil || drc.ContractAddress == nil {
			t.Fatalf("deploy: %v %+v", err, drc)
		}
		call, err := (&types.CallPayload{Method: "put", Args: args(t, "abcdef")}).Encode()
		if err != nil {
			t.Fatal(err)
		}
		tx := &types.Tx{ChainID: chainID, Nonce: 1, To: drc.ContractAddress, CyclesLimit: cycles, CellsLimit: cells, MaxFeePerCycle: 10, MaxFeePerCell: 10, Payload: call, Value: new(big.Int)}
		tx.Sign(aliceKey)
		rc, err := ApplyTx(st, ctx(), tx)
		if err != nil {
			t.Fatal(err)
		}
		return rc
	}
	for _, run := range []struct {
		name string
		call func(cycles, cells uint64) *types.Receipt
	}{{"Simulate", call}, {"ApplyTx", apply}} {
		t.Run(run.name, func(t *testing.T) { capsExactly(t, run.call) })
	}
}

func capsExactly(t *testing.T, call func(cycles, cells uint64) *types.Receipt) {
	full := call(1_000_000, 100_000)
	if full.Status != types.ReceiptSuccess {
		t.Fatalf("call: %s", full.Error)
	}
	for _, c := range []struct {
		name          string
		cycles, cells uint64
		ok            bool
	}{
		{"exactly what it used", full.CyclesUsed, full.CellsUsed, true},
		{"one cycle less", full.CyclesUsed - 1, full.CellsUsed, false},
		{"one cell less", full.CyclesUsed, full.CellsUsed - 1, false},
	} {
		rc := call(c.cycles, c.cells)
		if ok := rc.Status == types.ReceiptSuccess; ok != c.ok {
			t.Errorf("%s (%d cycles, %d cells): status %d %q", c.name, c.cycles, c.cells, rc.Status, rc.Error)
		}
		if c.ok && (rc.CyclesUsed != full.CyclesUsed || rc.CellsUsed != full.CellsUsed) {
			t.Errorf("%s: used %d cycles %d cells, first call %d, %d", c.name, rc.CyclesUsed, rc.CellsUsed, full.CyclesUsed, full.CellsUsed)
		}
	}
}

// TestBuildCellCapEdge checks §17.8's block cell cap at its edge: a
// transaction whose cell limit is exactly what the block has left is
// included, one cell more waits for the next block.
func TestBuildCellCapEdge(t *testing.T) {
	for _, c := range []struct {
		name               string
		limit              uint64
		included, deferred int
	}{
		{"exactly what is left", fees.CapCells - 4, 2, 0},
		{"one cell more", fees.CapCells - 3, 1, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := state.New(setup(t))
			first := transferTx(func(tx *types.Tx) {
				tx.Payload = []byte{0x63, 'h', 'i', '!'} // 4 bytes of calldata: 4 cells
				tx.CellsLimit = 100
			})
			second := transferTx(func(tx *types.Tx) {
				tx.Nonce = 1
				tx.CellsLimit = c.limit
			})
			res, err := Build(st, ctx(), []*types.Tx{first, second})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Txs) != c.included || len(res.Deferred) != c.deferred || res.CellsUsed != 4 {
				t.Fatalf("included %d deferred %d cells %d; want %d, %d, 4", len(res.Txs), len(res.Deferred), res.CellsUsed, c.included, c.deferred)
			}
		})
	}
}

// TestPerActorLimitNamedOnlyWhenItBinds checks the failure message of a
// handler that runs out of cycles: it names §12.1's per-actor limit only
// when the actor's cycles left this block were below the transaction's;
// with both equal the transaction's own cap is what ran out.
func TestPerActorLimitNamedOnlyWhenItBinds(t *testing.T) {
	const spinner = "class Actor:\n    def spin(self):\n        while True:\n            pass\n"
	const cycles = 300_000
	for _, c := range []struct {
		name  string
		extra int64 // the actor's cycles left minus the transaction's
		named bool
	}{
		{"the actor has more left", 1, false},
		{"both equal", 0, false},
		{"the actor has less left", -1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newActorEnv(t)
			a := e.mustDeploy(spinner)
			e.newBlock() // the deployment's cycles count in its own block
			pl, err := (&types.CallPayload{Method: "spin", Args: args(t)}).Encode()
			if err != nil {
				t.Fatal(err)
			}
			ic, _ := fees.TxIntrinsic(&types.Tx{To: &a, Payload: pl})
			txLeft := cycles - ic
			e.bc.addActorCycles(a, PerActorBlockCycles-uint64(int64(txLeft)+c.extra))
			rc := e.callWith(a, nil, cycles, 10_000, "spin")
			wantFail(t, rc, "out of cycles")
			if named := strings.Contains(rc.Error, "per-actor per-block limit"); named != c.named {
				t.Fatalf("error %q names the per-actor limit: %v, want %v", rc.Error, named, c.named)
			}
		})
	}
}
