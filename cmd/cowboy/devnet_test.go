package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
)

// devnetHarness runs the CLI against a real in-process devnet node, as a
// user would after `cowboyd devnet --block-time 0`.
func devnetHarness(t *testing.T) *harness {
	t.Helper()
	return devnetHarnessWith(t, genesis.Devnet())
}

// devnetHarnessWith is devnetHarness on a devnet variant (e.g. short
// epochs).
func devnetHarnessWith(t *testing.T, g *genesis.Genesis) *harness {
	t.Helper()
	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: g, RPCAddr: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	// A deadline, not an iteration count: a loaded machine may take a
	// while to start the server, and an empty address must not go on.
	for deadline := time.Now().Add(60 * time.Second); n.RPCAddr() == "" && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	if n.RPCAddr() == "" {
		t.Fatal("the devnet node did not start its RPC server within 60 s")
	}
	dir := t.TempDir()
	h := &harness{t: t, url: "http://" + n.RPCAddr(), keystore: filepath.Join(dir, "keys"), pwFile: filepath.Join(dir, "pw")}
	mustWrite(t, h.pwFile, []byte("correct horse battery\n"), 0o600)
	return h
}

func TestDevnetEndToEnd(t *testing.T) {
	h := devnetHarness(t)
	out := h.ok("transfer", "--from", "dev0", "--to", "dev5", "--value", "2.5cby", "--json")
	var rc struct {
		Status      string `json:"status"`
		BlockNumber uint64 `json:"blockNumber"`
		Fee, Burned string
	}
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		t.Fatal(err)
	}
	if rc.Status != "success" || rc.BlockNumber != 1 || rc.Fee != "20000" || rc.Burned != "10000" {
		t.Fatalf("transfer receipt: %s", out)
	}
	var bal struct{ Balance string }
	if err := json.Unmarshal([]byte(h.ok("balance", "dev5", "--json")), &bal); err != nil {
		t.Fatal(err)
	}
	if bal.Balance != "1000002500000000000000000" {
		t.Fatalf("dev5 balance %s", bal.Balance)
	}

	// Prove dev5's account, save it, verify it offline; tamper and fail.
	proof := h.ok("state", "proof", "dev5", "--json")
	file := filepath.Join(t.TempDir(), "dev5.json")
	mustWrite(t, file, []byte(proof), 0o600)
	if out := h.ok("state", "verify", file); !strings.Contains(out, "Valid proof") || !strings.Contains(out, "1,000,002.5 CBY") {
		t.Fatalf("verify output: %s", out)
	}
	var fields map[string]any
	json.Unmarshal([]byte(proof), &fields)
	for _, name := range []string{"proof", "value", "stateRoot", "blockHash", "storeKey", "header", "address"} {
		v := fields[name].(string)
		i := len(v) - 3
		c := "1"
		if v[i] == '1' {
			c = "2"
		}
		bad := map[string]any{}
		for k, x := range fields {
			bad[k] = x
		}
		bad[name] = v[:i] + c + v[i+1:]
		if name == "address" {
			bad[name] = strings.ToLower(bad[name].(string)) // parses; must still fail
		}
		b, err := json.Marshal(bad)
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, file, b, 0o600)
		h.fails([]string{"state", "verify", file}, "invalid proof")
	}
	// A never-used address proves absent.
	if out := h.ok("state", "proof", "0x0000000000000000000000000000000000000123"); !strings.Contains(out, "absent") {
		t.Fatalf("absent proof: %s", out)
	}
}
