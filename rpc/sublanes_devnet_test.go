package rpc_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/node/devnettest"
	"github.com/cowboy-chain/cowboy/rpc"
)

// TestTimerRunsSubscription: on a devnet, a "timers" subscription with the
// heartbeat's address gets each run of its timer as the block that ran it
// is committed, with the run's receipt (the node wires Deliver Timers'
// receipts to the hub).
func TestTimerRunsSubscription(t *testing.T) {
	c := devnettest.New(t)
	src, err := os.ReadFile("../examples/heartbeat/main.py")
	if err != nil {
		t.Fatal(err)
	}
	heart := c.MustDeploy(0, src, big.NewInt(1e18)) // set_interval(5, "beat", …)
	srv := httptest.NewServer(rpc.NewServer(c.Node, rpc.Options{Hub: c.Node.Events()}))
	defer srv.Close()
	ctx := context.Background()
	w, err := rpc.DialWS(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sub, err := w.Subscribe(ctx, rpc.SubTimers, map[string]any{"owner": rpc.Address(heart)})
	if err != nil {
		t.Fatal(err)
	}
	deployed := c.Node.Head().Height
	if _, err := c.Node.DevMine(11); err != nil { // two runs: at deploy+5 and deploy+10
		t.Fatal(err)
	}
	// A bound for a run that never comes, not a timing assertion.
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for run := uint64(1); run <= 2; run++ {
		raw, err := sub.Next(wait)
		if err != nil {
			t.Fatal(err)
		}
		var r rpc.TimerReceiptJSON
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if r.Owner != rpc.Address(heart) || r.Handler != "beat" || r.Status != 1 || uint64(r.BlockNumber) != deployed+5*run {
			t.Fatalf("run %d: %s", run, raw)
		}
	}
}
