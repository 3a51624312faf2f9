package rpc

import (
	"context"
	"testing"
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
