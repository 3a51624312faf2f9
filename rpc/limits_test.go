package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// blockingActors is a backend whose simulations wait until released, so a
// test can hold the worker pool full.
type blockingActors struct {
	*fakeBackend
	running, peak atomic.Int64
	started       chan struct{}
	release       chan struct{}
}

func (b *blockingActors) ActorCode(types.Address) (types.Hash, []byte, error) {
	return types.Hash{}, nil, ErrNotFound
}
func (b *blockingActors) ActorStorage(types.Address, byte, []byte) ([]byte, error) { return nil, nil }
func (b *blockingActors) Logs(LogFilter) ([]Log, error)                            { return nil, nil }
func (b *blockingActors) Call(CallRequest) (*types.Receipt, error) {
	n := b.running.Add(1)
	for p := b.peak.Load(); n > p && !b.peak.CompareAndSwap(p, n); p = b.peak.Load() {
	}
	b.started <- struct{}{}
	<-b.release
	b.running.Add(-1)
	return &types.Receipt{Status: types.ReceiptSuccess}, nil
}

const callReq = `{"jsonrpc":"2.0","id":1,"method":"cowboy_call","params":[{"to":"0x0000000000000000000000000000000000000007","method":"get"}]}`

// TestSimulationPool: simulations run on at most SimWorkers workers with at
// most SimQueue waiting; one more is refused at once with -32005 "busy",
// and everything admitted completes once workers free up.
func TestSimulationPool(t *testing.T) {
	b := &blockingActors{fakeBackend: newFixture(t).b, started: make(chan struct{}), release: make(chan struct{})}
	s := NewServer(b, Options{SimWorkers: 2, SimQueue: 3, SimRate: 1e6, SimBurst: 1e6})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)

	var wg sync.WaitGroup
	results := make(chan []byte, 5)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, body := post(t, srv, "application/json", callReq)
			results <- body
		}()
	}
	<-b.started
	<-b.started
	for len(s.sim.queue) < 3 { // the other three wait for a worker
		time.Sleep(time.Millisecond)
	}
	status, body := post(t, srv, "application/json", callReq)
	e, _ := rpcErr(t, body)
	if status != http.StatusOK || e.Code != CodeLimitExceeded || !strings.Contains(e.Message, "busy") {
		t.Fatalf("sixth simulation: HTTP %d %s", status, body)
	}
	var d LimitData
	if err := json.Unmarshal(e.Data, &d); err != nil || d.Limit != "busy" || d.RetryAfterMs == 0 {
		t.Fatalf("data %s", e.Data)
	}
	go func() {
		for range 3 {
			<-b.started
		}
	}()
	close(b.release)
	wg.Wait()
	close(results)
	for r := range results {
		if !strings.Contains(string(r), `"result"`) {
			t.Fatalf("admitted simulation failed: %s", r)
		}
	}
	if p := b.peak.Load(); p != 2 {
		t.Fatalf("peak concurrent simulations %d, want 2", p)
	}
}

// TestSimulationRateLimit: a client gets its burst, then -32005 "rate"
// with a retry time, for cowboy_call and cowboy_estimateFees alike; other
// methods are not limited.
func TestSimulationRateLimit(t *testing.T) {
	f := newFixture(t)
	srv, c := serve(t, f.b, Options{SimRate: 0.001, SimBurst: 2})
	est := req("cowboy_estimateFees", `[{"to":"`+f.bob.Hex()+`","value":"0x1"}]`)
	for i := range 2 {
		if _, body := post(t, srv, "application/json", est); !strings.Contains(string(body), `"result"`) {
			t.Fatalf("estimate %d within the burst: %s", i, body)
		}
	}
	_, body := post(t, srv, "application/json", est)
	e, _ := rpcErr(t, body)
	var d LimitData
	if e.Code != CodeLimitExceeded || json.Unmarshal(e.Data, &d) != nil || d.Limit != "rate" || !strings.Contains(e.Message, "per second per client") {
		t.Fatalf("over the rate: %s", body)
	}
	if _, err := c.ChainID(context.Background()); err != nil {
		t.Fatalf("a method that simulates nothing is not limited: %v", err)
	}
}

// TestRateBucket: each client has its own bucket, refilled with time.
func TestRateBucket(t *testing.T) {
	now := time.Unix(1000, 0)
	g := newSimGate(1, 1, 2, 2)
	g.now = func() time.Time { return now }
	for i, want := range []bool{true, true, false} {
		if ok, _ := g.allow("a"); ok != want {
			t.Fatalf("a call %d: allowed %v", i, ok)
		}
	}
	if ok, _ := g.allow("b"); !ok {
		t.Fatal("b shares a's bucket")
	}
	if ok, wait := g.allow("a"); ok || wait != 500*time.Millisecond {
		t.Fatalf("a empty: ok %v wait %v, want a refusal and 500ms", ok, wait)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := g.allow("a"); !ok {
		t.Fatal("a not refilled after 500ms at 2/s")
	}
}

// TestErrorsCutEchoedInput: a 900 KB address is refused in a short error,
// not echoed whole; so is an absurd id.
func TestErrorsCutEchoedInput(t *testing.T) {
	f := newFixture(t)
	srv, _ := serve(t, f.b, Options{})
	big := "0x" + strings.Repeat("ab", 450_000)
	_, body := post(t, srv, "application/json", req("cowboy_getBalance", `["`+big+`"]`))
	e, _ := rpcErr(t, body)
	if len(body) > 1024 || e.Code != CodeInvalidParams || !strings.Contains(e.Message, "bytes cut") {
		t.Fatalf("%d-byte answer: %.300s", len(body), body)
	}
	_, body = post(t, srv, "application/json", `{"jsonrpc":"2.0","id":"`+strings.Repeat("x", 10_000)+`","method":"cowboy_chainId"}`)
	if e, id := rpcErr(t, body); len(body) > 1024 || string(id) != "null" || e.Code != CodeInvalidRequest {
		t.Fatalf("huge id: %.300s", body)
	}
	if got := cutMessage(strings.Repeat("é", 400)); len(got) > MaxErrorMessage+40 || !strings.HasSuffix(got, "bytes cut)") || !strings.HasPrefix(got, "éé") {
		t.Fatalf("cutMessage: %q", got)
	}
}

// TestOversizeBodyIsJSONRPCError: HTTP 413 still carries a JSON-RPC error
// object, which the Client returns as *Error.
func TestOversizeBodyIsJSONRPCError(t *testing.T) {
	f := newFixture(t)
	srv, c := serve(t, f.b, Options{MaxBodyBytes: 512})
	status, body := post(t, srv, "application/json", req("cowboy_sendRawTransaction", `["0x`+strings.Repeat("00", 600)+`"]`))
	e, _ := rpcErr(t, body)
	if status != http.StatusRequestEntityTooLarge || e.Code != CodeInvalidRequest || !strings.Contains(e.Message, "limit of 512 bytes") {
		t.Fatalf("HTTP %d %s", status, body)
	}
	err := c.Call(context.Background(), nil, "cowboy_sendRawTransaction", Bytes(make([]byte, 600)))
	var rerr *Error
	if !errors.As(err, &rerr) || rerr.Code != CodeInvalidRequest {
		t.Fatalf("client error %v", err)
	}
}
