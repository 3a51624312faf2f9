package execution

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
)

const oracleActor = `
from cowboy_sdk import actor, runner

@actor
class Oracle:
    def __init__(self):
        self.storage["answers"] = []

    def ask(self, question, model, price):
        job = runner.submit(kind="llm", model=model, input={"prompt": question},
                            trust="majority_vote", committee=3, max_price=price,
                            callback="on_answer", timeout_blocks=10, seed=7)
        self.storage["pending"] = job
        return job

    @runner.continuation
    def on_answer(self, result):
        self.storage["answers"] = self.storage["answers"] + [[result.job_id, result.ok, result.value, result.error]]

    def answers(self):
        return self.storage["answers"]
`

type marketEnv struct {
	*actorEnv
	keys []*crypto.PrivateKey
}

func newMarketEnv(t *testing.T) *marketEnv {
	e := &marketEnv{actorEnv: newActorEnv(t)}
	for i := 0; i < 3; i++ {
		var b [32]byte
		b[0], b[31] = 0x51, byte(i+1)
		k, err := crypto.PrivateKeyFromBytes(b[:])
		if err != nil {
			t.Fatal(err)
		}
		e.keys = append(e.keys, k)
		a := types.Address(k.Address())
		e.st.Mint(a, cby(20_000))
		e.sys(a, runner.RegistryAddress, cby(10_000), "register", "http://127.0.0.1:1/", []string{"m1"}, []string{},
			map[string]*big.Int{"per_job": cby(1), "per_token": big.NewInt(0), "per_kb": big.NewInt(0)}, cby(100), uint64(0))
	}
	return e
}

// sys sends a runner-market transaction from a and wants it to succeed.
func (e *marketEnv) sys(from, to types.Address, value *big.Int, method string, a ...any) {
	e.t.Helper()
	rc := Simulate(e.st, e.bc, from, &to, value, runner.Payload(method, a...), 1_000_000, 100_000)
	if rc.Status != types.ReceiptSuccess {
		e.t.Fatalf("%s: %s", method, rc.Error)
	}
}

func (e *marketEnv) key(a types.Address) *crypto.PrivateKey {
	for _, k := range e.keys {
		if types.Address(k.Address()) == a {
			return k
		}
	}
	e.t.Fatalf("no key for %s", a)
	return nil
}

func TestActorGetsTheMajorityAnswerInALaterBlock(t *testing.T) {
	e := newMarketEnv(t)
	oracle := e.deployFunded(oracleActor, 0, cby(100))
	id := ret(t, e.call(oracle, "ask", "Is the sky blue?", "m1", cby(10))).(int64)
	if e.st.Balance(runner.DispatcherAddress).Cmp(cby(10)) != 0 {
		t.Fatalf("escrow %s", e.st.Balance(runner.DispatcherAddress))
	}
	j, _ := runner.ReadJob(e.st, uint64(id))
	outputs := []string{"yes", "yes", "no"}
	var entries []any
	for i, m := range j.Members {
		sig, cm := runner.SignResult(e.key(m), j.ID, runner.StatusOK, 10, []byte(outputs[i]))
		e.sys(m, runner.VerifierAddress, nil, "commit", j.ID, cm[:])
		entries = append(entries, []any{m[:], runner.StatusOK, []byte(outputs[i]), uint64(10), sig})
	}
	e.sys(j.Aggregator, runner.VerifierAddress, nil, "reveal", j.ID, entries)
	settledAt := e.bc.Height
	r := e.endBlock() // the settling block: the result is not delivered in it
	if len(r.Jobs.Continuations) != 0 {
		t.Fatal("a result was delivered in the block that settled it")
	}
	if got := ret(t, e.call(oracle, "answers")); len(got.([]any)) != 0 {
		t.Fatalf("answers before delivery: %v", got)
	}
	r = e.endBlock()
	if len(r.Jobs.Continuations) != 1 || r.Jobs.Continuations[0].Status != types.ReceiptSuccess {
		j, _ := runner.ReadJob(e.st, uint64(id))
		t.Fatalf("continuations %+v postponed %d job phase %d deliver %d height %d", r.Jobs.Continuations, r.Jobs.Postponed, j.Phase, j.DeliverAt, e.bc.Height)
	}
	got := ret(t, e.call(oracle, "answers")).([]any)
	if len(got) != 1 {
		t.Fatalf("answers %v", got)
	}
	a := got[0].([]any)
	if a[0].(int64) != id || a[1] != true || a[2] != "yes" || a[3] != nil {
		t.Fatalf("answer %v", a)
	}
	j, _ = runner.ReadJob(e.st, uint64(id))
	if j.Delivered != settledAt+1 || j.CallbackError != "" || !j.CallbackOK || j.CallbackCycles == 0 || j.CallbackFee.Sign() == 0 {
		t.Fatalf("delivered at %d (settled %d): %q", j.Delivered, settledAt, j.CallbackError)
	}
	if len(j.Slashed) != 1 {
		t.Fatalf("slashed %v: the liar should be", j.Slashed)
	}
}

func TestJobNobodyServesArrivesAsAnErrorBeforeItsTimeout(t *testing.T) {
	e := newMarketEnv(t)
	oracle := e.deployFunded(oracleActor, 0, cby(100))
	before := e.st.Balance(oracle)
	posted := e.bc.Height
	id := ret(t, e.call(oracle, "ask", "Hello?", "unknown-model", cby(10))).(int64)
	e.endBlock()
	e.endBlock()
	got := ret(t, e.call(oracle, "answers")).([]any)
	if len(got) != 1 {
		t.Fatalf("answers %v", got)
	}
	a := got[0].([]any)
	if a[0].(int64) != id || a[1] != false || !strings.Contains(a[3].(string), "no committee") {
		t.Fatalf("answer %v", a)
	}
	j, _ := runner.ReadJob(e.st, uint64(id))
	if j.Delivered != posted+1 || j.Delivered >= j.Spec.TimeoutBlocks+posted {
		t.Fatalf("delivered at %d, posted %d", j.Delivered, posted)
	}
	spent := new(big.Int).Sub(before, e.st.Balance(oracle))
	if spent.Cmp(big.NewInt(10_000_000)) > 0 { // only the continuation's fee, the escrow came back
		t.Fatalf("the actor spent %s", spent)
	}
}

func TestForgedContinuationIsRefused(t *testing.T) {
	e := newMarketEnv(t)
	oracle := e.deployFunded(oracleActor, 0, cby(100))
	rc := e.call(oracle, "on_answer", map[string]any{"job_id": 1, "ok": true, "outcome": "success", "json": false, "output": "forged", "error": nil})
	wantFail(t, rc, "PermissionError")
}

const greedyActor = `
from cowboy_sdk import actor, send_message, transfer
@actor
class Greedy:
    def send(self, to):
        send_message(to, "post", value=5)
    def give(self, to):
        transfer(to, 5)
`

func TestActorsCannotMoveMarketBalances(t *testing.T) {
	e := newMarketEnv(t)
	g := e.deployFunded(greedyActor, 0, cby(1))
	for _, to := range []types.Address{runner.RegistryAddress, runner.DispatcherAddress, runner.VerifierAddress, runner.TreasuryAddress} {
		rc := e.call(g, "give", to.Hex())
		wantFail(t, rc, "its balance moves only by its own methods")
		rc = e.call(g, "send", to.Hex())
		if len(rc.Messages) != 2 || rc.Messages[1].Status != types.ReceiptFailed || !strings.Contains(rc.Messages[1].Error, "its own methods") {
			t.Fatalf("send to %s: %+v", to, rc.Messages)
		}
	}
	if e.st.Balance(runner.TreasuryAddress).Sign() != 0 {
		t.Fatal("treasury received value from an actor")
	}
}

const tippingActor = `
from cowboy_sdk import actor, runner

@actor
class Tipper:
    def ask(self, price, tip):
        return runner.submit(kind="llm", model="m1", input={"prompt": "hi"}, trust="none",
                             max_price=price, tip=tip, callback="on_answer")

    @runner.continuation
    def on_answer(self, result):
        pass
`

// TestSubmitEscrowsTheTip: runner.submit(tip=…) moves max_price plus the
// tip into escrow, and the chain's parameters give the default timeout.
func TestSubmitEscrowsTheTip(t *testing.T) {
	e := newMarketEnv(t)
	a := e.deployFunded(tippingActor, 0, cby(100))
	before := e.st.Balance(a)
	id := ret(t, e.call(a, "ask", cby(10), cby(2))).(int64)
	if got := e.st.Balance(runner.DispatcherAddress); got.Cmp(cby(12)) != 0 {
		t.Fatalf("escrow %s, want max_price 10 CBY + tip 2 CBY", got)
	}
	if spent := new(big.Int).Sub(before, e.st.Balance(a)); spent.Cmp(cby(12)) < 0 {
		t.Fatalf("the actor spent %s", spent)
	}
	j, _ := runner.ReadJob(e.st, uint64(id))
	if j.Tip.Cmp(cby(2)) != 0 || j.Spec.TimeoutBlocks != runner.DefaultParams().DefaultTimeoutBlocks {
		t.Fatalf("tip %s timeout %d", j.Tip, j.Spec.TimeoutBlocks)
	}
	rc := e.call(a, "ask", cby(10), -1)
	wantFail(t, rc, "tip must be non-negative")
}
