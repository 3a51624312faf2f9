package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// wsFixture serves the fake chain with a hub over HTTP and WebSocket.
func wsFixture(t *testing.T, opts Options) (*fixture, *Hub, *httptest.Server) {
	t.Helper()
	f := newFixture(t)
	hub := NewHub()
	opts.Hub = hub
	srv, _ := serve(t, f.b, opts)
	return f, hub, srv
}

// nextBlock is a block 2 with one transaction and two events, as the node
// would publish it.
func nextBlock(f *fixture, height uint64) (*types.Block, []*types.Receipt) {
	tx := signedTx(f.key, height+10, &f.bob, 1, nil)
	b := &types.Block{Header: &types.Header{Height: height, Time: 1767225600 + height, BasefeeCycle: 1, BasefeeCell: 1}, Txs: []*types.Tx{tx}}
	rc := &types.Receipt{TxHash: tx.Hash(), Status: types.ReceiptSuccess, Fee: newBig(1), Burned: newBig(1), Tip: newBig(0),
		Events: []types.Event{{Address: f.bob, Name: "Paid", Data: []byte{0x01}}, {Address: f.alice, Name: "Other", Data: []byte{0x02}}}}
	return b, []*types.Receipt{rc}
}

func newBig(v int64) *big.Int { return big.NewInt(v) }

// runtimeGosched yields while the server catches up (no wall-time limit: the
// loops that call it end when the state they wait for is reached).
func runtimeGosched() { time.Sleep(time.Millisecond) }

func firstKey(h *Hub) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	for k := range h.subs {
		return k
	}
	return ""
}

// allActive reports whether the hub holds n subscriptions, all active.
func allActive(h *Hub, n int) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) != n {
		return false
	}
	for _, s := range h.subs {
		if !s.active.Load() {
			return false
		}
	}
	return true
}

// waitActive waits until every subscription the hub holds is active. A
// client gets its subscription id before the server marks the
// subscription active, so a block published in between is (rightly) not
// delivered to it; tests publish only after this returns.
func waitActive(h *Hub) {
	for {
		h.mu.Lock()
		all := true
		for _, s := range h.subs {
			if !s.active.Load() {
				all = false
				break
			}
		}
		h.mu.Unlock()
		if all {
			return
		}
		runtimeGosched()
	}
}

func mustSub(t *testing.T, w *WSClient, kind string, args ...any) *Subscription {
	t.Helper()
	s, err := w.Subscribe(context.Background(), kind, args...)
	if err != nil {
		t.Fatalf("subscribe %s: %v", kind, err)
	}
	return s
}

func next(t *testing.T, s *Subscription, v any) {
	t.Helper()
	raw, err := s.Next(context.Background())
	if err != nil {
		t.Fatalf("subscription %s: %v", s.ID, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("notification %s: %v", raw, err)
	}
}

// TestWSSubscriptions: heads, filtered logs, pending transactions and a
// receipt (already included: delivered at once) over one WebSocket; plain
// calls work on it too; unsubscribe stops a stream.
func TestWSSubscriptions(t *testing.T) {
	f, hub, srv := wsFixture(t, Options{})
	ctx := context.Background()
	w, err := DialWS(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var id Quantity
	if err := w.Call(ctx, &id, "cowboy_chainId"); err != nil || id != testChainID {
		t.Fatalf("chainId over ws: %v %v", id, err)
	}
	heads := mustSub(t, w, SubNewHeads)
	final := mustSub(t, w, SubFinalizedHeads)
	logs := mustSub(t, w, SubLogs, map[string]any{"address": Address(f.bob), "name": "Paid"})
	pend := mustSub(t, w, SubPendingTransactions)
	rcpt := mustSub(t, w, SubReceipt, Hash(f.transfer.Hash()))

	var r ReceiptJSON
	next(t, rcpt, &r)
	if r.TransactionHash != Hash(f.transfer.Hash()) || r.BlockNumber != 1 {
		t.Fatalf("receipt %+v", r)
	}
	b, rcs := nextBlock(f, 2)
	waitActive(hub)
	hub.PublishPendingTx(b.Txs[0])
	hub.PublishBlock(b, rcs)
	var h BlockJSON
	next(t, heads, &h)
	if h.Height != 2 || h.Hash != Hash(b.Header.Hash()) {
		t.Fatalf("head %+v", h)
	}
	next(t, final, &h)
	var l LogJSON
	next(t, logs, &l)
	if l.Name != "Paid" || l.BlockNumber != 2 || l.LogIndex != 0 || l.TransactionHash != Hash(b.Txs[0].Hash()) {
		t.Fatalf("log %+v", l)
	}
	var ph Hash
	next(t, pend, &ph)
	if ph != Hash(b.Txs[0].Hash()) {
		t.Fatalf("pending %s", ph)
	}

	// A receipt subscription for a transaction not yet included: it
	// arrives with its block, and the subscription ends by itself.
	b3, rcs3 := nextBlock(f, 3)
	later := mustSub(t, w, SubReceipt, Hash(b3.Txs[0].Hash()))
	if err := heads.Unsubscribe(ctx); err != nil {
		t.Fatal(err)
	}
	waitActive(hub)
	hub.PublishBlock(b3, rcs3)
	next(t, later, &r)
	if r.BlockNumber != 3 {
		t.Fatalf("receipt %+v", r)
	}
	next(t, final, &h)
	if _, err := heads.Next(ctx); err == nil {
		t.Fatal("unsubscribed stream still delivers")
	}
	if n := hub.Len(); n != 3 { // final, logs, pending
		t.Fatalf("hub holds %d subscriptions, want 3", n)
	}

	// Bad subscriptions are refused by name.
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"newBlocks"}, "unknown subscription"},
		{[]any{SubReceipt}, "params[1] (hash): missing"},
		{[]any{SubLogs, map[string]any{"adress": "x"}}, "unknown field"},
	} {
		_, err := w.Subscribe(ctx, tc.args[0].(string), tc.args[1:]...)
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != CodeInvalidParams || !strings.Contains(rerr.Message, tc.want) {
			t.Errorf("subscribe %v: %v, want -32602 %q", tc.args, err, tc.want)
		}
	}
	// Over plain HTTP there is nothing to subscribe on.
	_, body := post(t, srv, "application/json", req("cowboy_subscribe", `["newHeads"]`))
	if e, _ := rpcErr(t, body); e.Code != CodeInvalidRequest || !strings.Contains(e.Message, "needs a WebSocket") {
		t.Fatalf("subscribe over HTTP: %s", body)
	}
	w.Close()
	for hub.Len() != 0 { // the server forgets a closed connection's subscriptions
		runtimeGosched()
	}
}

// TestWSSlowClientDropped: a client that stops reading is dropped once its
// queue is full; publishing never waits for it, and others are served.
func TestWSSlowClientDropped(t *testing.T) {
	f, hub, srv := wsFixture(t, Options{SubQueue: 4})
	ctx := context.Background()
	slow, _, err := websocket.Dial(ctx, wsURL(srv.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.CloseNow()
	if err := slow.Write(ctx, websocket.MessageText, []byte(req("cowboy_subscribe", `["newHeads"]`))); err != nil {
		t.Fatal(err)
	}
	if _, _, err := slow.Read(ctx); err != nil { // the subscription id; then it reads no more
		t.Fatal(err)
	}
	for hub.Len() != 1 {
		runtimeGosched()
	}
	for !allActive(hub, 1) {
		runtimeGosched()
	}
	b, rcs := nextBlock(f, 2)
	published := 0
	for hub.Dropped() == 0 {
		hub.PublishBlock(b, rcs) // returns at once however full the slow queue is
		published++
		if published > 1_000_000 {
			t.Fatal("a client that never reads was not dropped")
		}
	}
	// The dropped client's connection ends (after what its socket
	// already held; a close frame with the reason when the socket has
	// room for one) and the server forgets it.
	var ce websocket.CloseError
	for {
		if _, _, err := slow.Read(ctx); err != nil {
			if errors.As(err, &ce) && (ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "too slow")) {
				t.Fatalf("slow client closed with %v", err)
			}
			break
		}
	}
	for hub.Len() != 0 {
		runtimeGosched()
	}
	// Everyone else still gets blocks.
	w, err := DialWS(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s := mustSub(t, w, SubNewHeads)
	waitActive(hub)
	hub.PublishBlock(b, rcs)
	var h BlockJSON
	next(t, s, &h)
	t.Logf("slow client dropped after %d publishes", published)
}

// TestWS1000Subscribers: 1,000 connections each subscribed to new heads
// all receive every block, in order.
func TestWS1000Subscribers(t *testing.T) {
	f, hub, srv := wsFixture(t, Options{})
	ctx := context.Background()
	const n, blocks = 1000, 5
	subs := make([]*Subscription, n)
	for i := range subs {
		w, err := DialWS(ctx, srv.URL)
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		defer w.Close()
		subs[i] = mustSub(t, w, SubNewHeads)
	}
	for !allActive(hub, n) {
		runtimeGosched()
	}
	for h := uint64(2); h < 2+blocks; h++ {
		b, rcs := nextBlock(f, h)
		hub.PublishBlock(b, rcs)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for h := uint64(2); h < 2+blocks; h++ {
				raw, err := s.Next(ctx)
				if err != nil {
					errs <- fmt.Errorf("client %d: %w", i, err)
					return
				}
				var b BlockJSON
				if err := json.Unmarshal(raw, &b); err != nil || uint64(b.Height) != h {
					errs <- fmt.Errorf("client %d: got %s, want height %d", i, raw, h)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if d := hub.Dropped(); d != 0 {
		t.Fatalf("%d subscribers dropped", d)
	}
}
