package rpc

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/internal/cputime"
)

// BenchmarkGetBalanceRoundTrip measures one cowboy_getBalance through the
// Client, HTTP on loopback, the server and the fake backend: the overhead
// the RPC layer adds to every wallet query.
func BenchmarkGetBalanceRoundTrip(b *testing.B) {
	f := newFixture(b)
	_, c := serve(b, f.b, Options{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Balance(ctx, f.alice); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServeGetBalance is the server alone, without the network.
func BenchmarkServeGetBalance(b *testing.B) {
	f := newFixture(b)
	srv := NewServer(f.b, Options{})
	body := []byte(req("cowboy_getBalance", `["`+f.alice.Hex()+`","latest"]`))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if out := srv.handleBody(ctx, body); len(out) == 0 {
			b.Fatal("no response")
		}
	}
}

// acceptAll admits every transaction of a batch without looking at it, so
// BenchmarkServeSendBatch measures the RPC layer alone.
type acceptAll struct{ *fakeBackend }

func (acceptAll) SendTransactions(txs []*types.Tx) []error { return make([]error, len(txs)) }

// BenchmarkServeSendBatch is the server's part of `cowboy bench transfers`:
// one batch of DefaultMaxBatch cowboy_sendRawTransaction requests, as the
// CLI encodes them, parsed, the transactions decoded and admitted (by a
// backend that accepts all), the answers written. No signature is
// recovered: the CPU here is what JSON-RPC adds to every transfer
// (cpu-ns/tx).
func BenchmarkServeSendBatch(b *testing.B) {
	f := newFixture(b)
	srv := NewServer(acceptAll{f.b}, Options{})
	type call struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  []any  `json:"params"`
	}
	calls := make([]call, DefaultMaxBatch)
	for i := range calls {
		tx := signedTx(f.key, uint64(i), &f.bob, 1, nil)
		calls[i] = call{"2.0", i, "cowboy_sendRawTransaction", []any{Bytes(tx.Encode())}}
	}
	body, err := json.Marshal(calls)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		if out := srv.handleBody(ctx, body); len(out) == 0 {
			b.Fatal("no response")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*DefaultMaxBatch), "ns/tx")
	// CPU time, which the load of other jobs disturbs much less than
	// wall time (garbage collection on other threads included).
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(b.N*DefaultMaxBatch), "cpu-ns/tx")
}
