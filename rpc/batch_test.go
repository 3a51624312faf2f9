package rpc

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// batchBackend is the fake chain with BatchSender: it admits a batch as
// the fake admits one transaction, in order, and records each call.
type batchBackend struct {
	*fakeBackend
	calls [][]types.Hash
	panic bool
	short bool // answer one error too few
}

func (b *batchBackend) SendTransactions(txs []*types.Tx) []error {
	if b.panic {
		panic("fake backend: SendTransactions")
	}
	hs := make([]types.Hash, len(txs))
	errs := make([]error, len(txs))
	for i, tx := range txs {
		hs[i] = tx.Hash()
		errs[i] = b.SendTransaction(tx)
	}
	b.calls = append(b.calls, hs)
	if b.short {
		return errs[1:]
	}
	return errs
}

// TestServerBatchAdmission: a batch's cowboy_sendRawTransaction requests
// reach a BatchSender in one call, in batch order, and every request gets
// the answer it gets without BatchSender (one SendTransaction each), in
// order, undecodable ones and notifications included.
func TestServerBatchAdmission(t *testing.T) {
	send := func(id string, tx *types.Tx) string {
		return `{"jsonrpc":"2.0",` + id + `"method":"cowboy_sendRawTransaction","params":["` + Bytes(tx.Encode()).String() + `"]}`
	}
	f := newFixture(t)
	ok3 := signedTx(f.key, 3, &f.bob, 1, nil)
	ok4 := signedTx(f.key, 4, &f.bob, 1, nil)
	low := signedTx(f.key, 0, &f.bob, 1, nil) // alice is at nonce 2
	wrongChain := signedTx(f.key, 5, &f.bob, 1, func(tx *types.Tx) { tx.ChainID = 1 })
	body := "[" + strings.Join([]string{
		send(`"id":1,`, ok3),
		`{"jsonrpc":"2.0","id":2,"method":"cowboy_sendRawTransaction","params":["0x00"]}`,
		`{"jsonrpc":"2.0","id":3,"method":"cowboy_sendRawTransaction","params":[]}`,
		send(`"id":4,`, low),
		`{"jsonrpc":"2.0","id":5,"method":"cowboy_chainId"}`,
		send(``, ok4), // a notification is admitted and not answered
		send(`"id":"w",`, wrongChain),
		send(`"id":7,`, ok3), // the fake accepts a repeat
		`7`,
	}, ",") + "]"
	run := func(b Backend) []byte {
		srv, _ := serve(t, b, Options{})
		status, out := post(t, srv, "application/json", body)
		if status != http.StatusOK {
			t.Fatalf("HTTP %d: %s", status, out)
		}
		return out
	}

	plain := newFixture(t).b
	one := run(plain)
	bb := &batchBackend{fakeBackend: newFixture(t).b}
	batched := run(bb)
	sameJSON(t, batched, string(one))
	if len(bb.calls) != 1 {
		t.Fatalf("SendTransactions called %d times, want once", len(bb.calls))
	}
	wantHashes := []types.Hash{ok3.Hash(), low.Hash(), ok4.Hash(), wrongChain.Hash(), ok3.Hash()}
	if fmt.Sprint(bb.calls[0]) != fmt.Sprint(wantHashes) {
		t.Fatalf("admitted %v, want %v in batch order", bb.calls[0], wantHashes)
	}
	for _, tx := range []*types.Tx{ok3, ok4} {
		if _, ok := bb.pool[tx.Hash()]; !ok {
			t.Fatalf("%s not in the pool", tx.Hash())
		}
	}
	// And the answers are what each request says on its own.
	sameJSON(t, one, `[
		{"jsonrpc":"2.0","id":1,"result":"`+ok3.Hash().Hex()+`"},
		`+string(mustRPC(t, plain, `{"jsonrpc":"2.0","id":2,"method":"cowboy_sendRawTransaction","params":["0x00"]}`))+`,
		`+string(mustRPC(t, plain, `{"jsonrpc":"2.0","id":3,"method":"cowboy_sendRawTransaction","params":[]}`))+`,
		`+string(mustRPC(t, plain, send(`"id":4,`, low)))+`,
		{"jsonrpc":"2.0","id":5,"result":"0x1e61"},
		`+string(mustRPC(t, plain, send(`"id":"w",`, wrongChain)))+`,
		{"jsonrpc":"2.0","id":7,"result":"`+ok3.Hash().Hex()+`"},
		{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: want a JSON object"}}]`)
}

// mustRPC posts one request to a fresh server over b.
func mustRPC(t *testing.T, b Backend, body string) []byte {
	t.Helper()
	srv, _ := serve(t, b, Options{})
	_, out := post(t, srv, "application/json", body)
	return out
}

// TestServerBatchAdmissionFailures: a BatchSender that panics or answers
// the wrong number of errors fails the batch's sends with -32603, and the
// rest of the batch is answered.
func TestServerBatchAdmissionFailures(t *testing.T) {
	for _, tt := range []struct {
		name  string
		panic bool
		short bool
	}{
		{"panic", true, false},
		{"one answer short", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			bb := &batchBackend{fakeBackend: f.b, panic: tt.panic, short: tt.short}
			srv, _ := serve(t, bb, Options{})
			tx := Bytes(signedTx(f.key, 3, &f.bob, 1, nil).Encode()).String()
			_, out := post(t, srv, "application/json", `[
				{"jsonrpc":"2.0","id":1,"method":"cowboy_sendRawTransaction","params":["`+tx+`"]},
				{"jsonrpc":"2.0","id":2,"method":"cowboy_chainId"}]`)
			sameJSON(t, out, `[
				{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: admitting the batch's transactions failed"}},
				{"jsonrpc":"2.0","id":2,"result":"0x1e61"}]`)
		})
	}
}
