package node_test

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

const askerActor = `
from cowboy_sdk import actor, runner, emit_event

@actor
class Asker:
    def ask(self):
        return runner.submit(kind="llm", model="m1", input={"prompt": "hi"}, trust="none",
                             max_price=10**18, callback="on_answer", timeout_blocks=10)

    @runner.continuation
    def on_answer(self, result):
        emit_event("answered", {"job": result.job_id, "value": result.value})
`

// TestContinuationReceiptInTheReceiptStore: a job's continuation runs in
// a block with no transaction of its own; its receipt is in the block's
// receipt store under runner.ContinuationID, found by
// cowboy_getTransactionReceipt like a transaction's, from the result
// verifier to the actor, with the continuation's events and fee, while
// cowboy_getTransactionByHash says there is no such transaction.
func TestContinuationReceiptInTheReceiptStore(t *testing.T) {
	c := devnettest.New(t)
	cby := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), runner.CBY) }
	reg := runner.RegistryAddress
	rates := map[string]*big.Int{"per_job": big.NewInt(1e15), "per_token": big.NewInt(0), "per_kb": big.NewInt(0)}
	if rc := c.Send(1, &reg, cby(10_000), runner.Payload("register", "http://127.0.0.1:1/", []string{"m1"}, []string{}, rates, cby(10), uint64(0))); rc.Status != types.ReceiptSuccess {
		t.Fatalf("register: %s", rc.Error)
	}
	asker := c.MustDeploy(2, []byte(askerActor), cby(100))
	id := uint64(c.MustCall(2, asker, "ask").(int64))
	sig, cm := runner.SignResult(c.Key(1), id, runner.StatusOK, 3, []byte("hello"))
	ver := runner.VerifierAddress
	if rc := c.Send(1, &ver, nil, runner.Payload("commit", id, cm[:])); rc.Status != types.ReceiptSuccess {
		t.Fatalf("commit: %s", rc.Error)
	}
	me := c.Addr(1)
	if rc := c.Send(1, &ver, nil, runner.Payload("reveal", id, []any{[]any{me[:], runner.StatusOK, []byte("hello"), uint64(3), sig}})); rc.Status != types.ReceiptSuccess {
		t.Fatalf("reveal: %s", rc.Error)
	}
	if _, err := c.Node.ProduceBlock(); err != nil { // the continuation's block: no transactions
		t.Fatal(err)
	}
	j, err := c.Node.Job(id)
	if err != nil || j == nil || j.Delivered == 0 || !j.CallbackOK {
		t.Fatalf("job %+v: %v", j, err)
	}
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{}))
	defer srv.Close()
	cl := rpc.NewClient(srv.URL, &http.Client{Timeout: 10 * time.Second})
	ctx := context.Background()
	jj, err := cl.Job(ctx, id)
	if err != nil || jj.ContinuationReceipt == nil || types.Hash(*jj.ContinuationReceipt) != runner.ContinuationID(id) {
		t.Fatalf("cowboy_getJob continuationReceipt %v: %v", jj.ContinuationReceipt, err)
	}
	rc, err := cl.Receipt(ctx, runner.ContinuationID(id))
	if err != nil {
		t.Fatal(err)
	}
	if uint64(rc.BlockNumber) != j.Delivered || uint64(rc.Status) != types.ReceiptSuccess || types.Address(rc.From) != ver ||
		rc.To == nil || types.Address(*rc.To) != asker || uint64(rc.CyclesUsed) != j.CallbackCycles ||
		(*big.Int)(rc.Fee).Cmp(j.CallbackFee) != 0 || len(rc.Events) != 1 || rc.Events[0].Name != "answered" {
		t.Fatalf("continuation receipt %+v, job delivered at %d, %d cycles, fee %s", rc, j.Delivered, j.CallbackCycles, j.CallbackFee)
	}
	if _, err := cl.TransactionByHash(ctx, runner.ContinuationID(id)); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("a continuation shows as a transaction: %v", err)
	}
	b, err := cl.BlockByNumber(ctx, rpc.BlockAt(j.Delivered), false)
	if err != nil || len(b.Transactions.Hashes) != 0 {
		t.Fatalf("the continuation's block: %+v %v", b, err)
	}
}
