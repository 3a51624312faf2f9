// Package examples holds example actors; each has a test here that deploys
// it on an in-process devnet and drives it with signed transactions.
package examples

import (
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/pvm/cbor"
)

func src(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wantInt(t *testing.T, got any, want int64) {
	t.Helper()
	if g, ok := got.(int64); !ok || g != want {
		t.Fatalf("got %v (%T), want %d", got, got, want)
	}
}

func TestCounters(t *testing.T) {
	for _, file := range []string{"counter/main.py", "counter_sdk/main.py"} {
		t.Run(file, func(t *testing.T) {
			c := devnettest.New(t)
			a := c.MustDeploy(0, src(t, file), nil)
			wantInt(t, c.MustQuery(a, "get_count"), 0)
			wantInt(t, c.MustCall(0, a, "increment"), 1)
			wantInt(t, c.MustCall(1, a, "increment"), 2)
			wantInt(t, c.MustQuery(a, "get_count"), 2)
			// The same code and salt from the same creator is the same
			// address, so a second deployment fails clearly.
			rc := c.Deploy(0, src(t, file), nil)
			if rc.Status == types.ReceiptSuccess || !strings.Contains(rc.Error, "already exists") {
				t.Fatalf("redeploy: status %d error %q", rc.Status, rc.Error)
			}
			wantInt(t, c.MustQuery(a, "get_count"), 2)
		})
	}
}

func TestToken(t *testing.T) {
	c := devnettest.New(t)
	tok := c.MustDeploy(0, src(t, "token/main.py"), nil, "Gold", "GLD", int64(1000))
	dev0, dev1, dev2 := c.Addr(0).Hex(), c.Addr(1).Hex(), c.Addr(2).Hex()
	if got := c.MustQuery(tok, "symbol"); got != "GLD" {
		t.Fatalf("symbol %v", got)
	}
	wantInt(t, c.MustQuery(tok, "balance_of", dev0), 1000)

	rc := c.Call(0, tok, nil, "transfer", strings.ToLower(dev1), int64(300))
	if rc.Status != types.ReceiptSuccess {
		t.Fatal(rc.Error)
	}
	if len(rc.Events) != 1 || rc.Events[0].Name != "Transfer" || rc.Events[0].Address != tok {
		t.Fatalf("events %+v", rc.Events)
	}
	ev, err := cbor.DecodeGo(rc.Events[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := ev.(cbor.Map); !ok || len(m) != 3 {
		t.Fatalf("event data %v", ev)
	}
	wantInt(t, c.MustQuery(tok, "balance_of", dev0), 700)
	wantInt(t, c.MustQuery(tok, "balance_of", dev1), 300)

	// Overspending fails, reverts, and says why with the actor's line.
	rc = c.Call(1, tok, nil, "transfer", dev2, int64(301))
	if rc.Status != types.ReceiptFailed || !strings.HasPrefix(rc.Error, "ValueError: balance 300 is less than 301 (main.py, line") {
		t.Fatalf("overspend: %q", rc.Error)
	}
	wantInt(t, c.MustQuery(tok, "balance_of", dev1), 300)

	// Allowances: dev1 lets dev2 move 100 of its tokens.
	c.MustCall(1, tok, "approve", dev2, int64(100))
	wantInt(t, c.MustQuery(tok, "allowance", dev1, dev2), 100)
	rc = c.Call(2, tok, nil, "transfer_from", dev1, dev2, int64(150))
	if rc.Status != types.ReceiptFailed || !strings.HasPrefix(rc.Error, "PermissionError: allowance 100 is less than 150") {
		t.Fatalf("over allowance: %q", rc.Error)
	}
	c.MustCall(2, tok, "transfer_from", dev1, dev2, int64(60))
	wantInt(t, c.MustQuery(tok, "allowance", dev1, dev2), 40)
	wantInt(t, c.MustQuery(tok, "balance_of", dev2), 60)
	wantInt(t, c.MustQuery(tok, "balance_of", dev1), 240)
	wantInt(t, c.MustQuery(tok, "total_supply"), 1000)

	// Private methods cannot be called from outside.
	rc = c.Call(0, tok, nil, "_move", dev0, dev2, int64(1))
	if rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, "private") {
		t.Fatalf("private method: %q", rc.Error)
	}
}

func TestPingPong(t *testing.T) {
	c := devnettest.New(t)
	ping := c.MustDeploy(0, src(t, "pingpong/ping.py"), nil)
	pong := c.MustDeploy(0, src(t, "pingpong/pong.py"), nil)
	rc := c.Call(0, ping, nil, "start", pong.Hex(), int64(3))
	if rc.Status != types.ReceiptSuccess {
		t.Fatal(rc.Error)
	}
	// start, then ping/pong three rounds: 1 + 2*3 messages, alternating,
	// each one level deeper than its sender.
	want := []string{"start", "ping", "pong", "ping", "pong", "ping", "pong"}
	if len(rc.Messages) != len(want) {
		t.Fatalf("%d messages: %+v", len(rc.Messages), rc.Messages)
	}
	for i, m := range rc.Messages {
		if m.Method != want[i] || m.Depth != uint64(i+1) || m.Status != types.ReceiptSuccess {
			t.Fatalf("message %d: %+v", i, m)
		}
	}
	if len(rc.Events) != 3 {
		t.Fatalf("events %+v", rc.Events)
	}
	wantInt(t, c.MustQuery(ping, "pongs"), 3)
	wantInt(t, c.MustQuery(pong, "pings"), 3)
}

func TestEscrow(t *testing.T) {
	c := devnettest.New(t)
	price := new(big.Int).Mul(big.NewInt(5), big.NewInt(1e18))
	seller := c.Addr(1)
	// Deploying without value fails in __init__ and leaves no actor.
	rc := c.Deploy(0, src(t, "escrow/main.py"), nil, seller.Hex())
	if rc.Status != types.ReceiptFailed || !strings.HasPrefix(rc.Error, "ValueError: deploy the escrow with the price") {
		t.Fatalf("unfunded: %q", rc.Error)
	}
	esc := c.MustDeploy(0, src(t, "escrow/main.py"), price, seller.Hex())
	if c.Balance(esc).Cmp(price) != 0 {
		t.Fatalf("escrow holds %s", c.Balance(esc))
	}
	if rc := c.Call(2, esc, nil, "confirm"); rc.Status != types.ReceiptFailed || !strings.HasPrefix(rc.Error, "PermissionError") {
		t.Fatalf("stranger confirmed: %q", rc.Error)
	}
	before := c.Balance(seller)
	c.MustCall(0, esc, "confirm")
	if got := new(big.Int).Sub(c.Balance(seller), before); got.Cmp(price) != 0 {
		t.Fatalf("seller received %s", got)
	}
	if c.Balance(esc).Sign() != 0 {
		t.Fatalf("escrow still holds %s", c.Balance(esc))
	}
	if rc := c.Call(1, esc, nil, "refund"); rc.Status != types.ReceiptFailed || !strings.Contains(rc.Error, "already released") {
		t.Fatalf("refund after release: %q", rc.Error)
	}
	st := c.MustQuery(esc, "status").(cbor.Map)
	for _, e := range st {
		if e.Key == "state" && e.Value != "released" {
			t.Fatalf("state %v", e.Value)
		}
	}
}

// TestHeartbeat: the actor schedules itself every 5 blocks in __init__;
// blocks made by other users' transfers run it, with no keeper; stop()
// cancels and refunds the deposit.
func TestHeartbeat(t *testing.T) {
	c := devnettest.New(t)
	cby := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	hb := c.MustDeploy(0, src(t, "heartbeat/main.py"), cby) // block 1: first beat due at 6
	wantInt(t, c.MustQuery(hb, "beats"), 0)
	to := c.Addr(3)
	for range 10 { // blocks 2 … 11
		if rc := c.Send(2, &to, big.NewInt(1), nil); rc.Status != types.ReceiptSuccess {
			t.Fatalf("transfer: %s", rc.Error)
		}
	}
	wantInt(t, c.MustQuery(hb, "beats"), 2) // at 6 and 11
	before := c.Balance(hb)
	refund, ok := c.MustCall(0, hb, "stop").(int64)
	if !ok || refund <= 0 {
		t.Fatalf("stop refunded %v", refund)
	}
	if c.Balance(hb).Cmp(before) <= 0 {
		t.Fatal("the deposit did not come back")
	}
	for range 6 {
		c.Send(2, &to, big.NewInt(1), nil)
	}
	wantInt(t, c.MustQuery(hb, "beats"), 2)
}
