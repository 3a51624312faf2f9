package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/cmd/internal/chainfeed"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/rpc"
)

// syncBuf is an output buffer the relay goroutine writes while the test
// reads it.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startDevnet runs an in-process devnet node (blocks on demand) with its
// RPC server on a free port and returns its URL.
func startDevnet(t *testing.T) string {
	t.Helper()
	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: genesis.Devnet(), RPCAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	for deadline := time.Now().Add(60 * time.Second); n.RPCAddr() == "" && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	if n.RPCAddr() == "" {
		t.Fatal("the devnet node did not start its RPC server within 60 s")
	}
	return "http://" + n.RPCAddr()
}

// runStart runs `cbfs-relay start` until its output shows it is serving
// (or it fails), then stops it; it returns the output and error.
func runStart(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out syncBuf
	cmd := newRoot(ctx, &out, io.Discard)
	cmd.SetArgs(append([]string{"start"}, args...))
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	for {
		select {
		case err := <-done:
			return out.String(), err
		case <-time.After(5 * time.Millisecond):
		}
		if strings.Contains(out.String(), "following revocations") {
			cancel()
			return out.String(), <-done
		}
	}
}

// `cbfs-relay start --stake` registers a funded relay in 0x0B with that
// stake, does not register again on restart, and is refused without --rpc
// or with an unfunded key.
func TestStartStakeRegisters(t *testing.T) {
	url := startDevnet(t)
	ctx := context.Background()
	c := rpc.Dial(url)
	home := t.TempDir()
	key, err := relay.LoadOrCreateKey(home)
	if err != nil {
		t.Fatal(err)
	}
	me := types.Address(key.Address())
	base := []string{"--home", home, "--listen", "127.0.0.1:0", "--capacity", "1GiB"}

	if _, err := runStart(t, append(base, "--stake", "1000cby")...); err == nil || !strings.Contains(err.Error(), "--stake needs --rpc") {
		t.Fatalf("--stake without --rpc: %v", err)
	}
	out, err := runStart(t, append(base, "--stake", "1000cby", "--rpc", url)...)
	if err == nil || !strings.Contains(err.Error(), "fund it first") {
		t.Fatalf("unfunded key: %v\n%s", err, out)
	}
	if rs, err := c.Relays(ctx); err != nil || len(rs) != 0 {
		t.Fatalf("relays after the refused start: %v %v", rs, err)
	}

	dev0, err := genesis.DevKey(0)
	if err != nil {
		t.Fatal(err)
	}
	funds, _ := types.ParseAmount("1010cby")
	if _, err := chainfeed.Send(ctx, c, dev0, me, funds, nil, 0); err != nil {
		t.Fatalf("fund the relay key: %v", err)
	}

	out, err = runStart(t, append(base, "--stake", "1000cby", "--rpc", url)...)
	if err != nil || !strings.Contains(out, "registered in block") {
		t.Fatalf("first start: %v\n%s", err, out)
	}
	rs, err := c.Relays(ctx)
	if err != nil || len(rs) != 1 {
		t.Fatalf("relays: %v %v", rs, err)
	}
	stake, _ := types.ParseAmount("1000cby")
	if r := rs[0]; types.Address(r.Address) != me || r.Stake.Int().Cmp(stake) != 0 || uint64(r.Capacity) != 1<<30 || r.Addr == "" || r.Exiting {
		t.Fatalf("registry entry %+v", r)
	}
	nonce, err := c.Nonce(ctx, me, true)
	if err != nil || nonce != 1 {
		t.Fatalf("nonce after registering: %d %v", nonce, err)
	}

	out, err = runStart(t, append(base, "--stake", "1000cby", "--rpc", url)...)
	if err != nil || !strings.Contains(out, "already registered") {
		t.Fatalf("second start: %v\n%s", err, out)
	}
	if n, err := c.Nonce(ctx, me, true); err != nil || n != nonce {
		t.Fatalf("second start sent a transaction: nonce %d → %d (%v)", nonce, n, err)
	}
}
