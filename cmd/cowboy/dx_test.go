package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/rpc"
)

// nonceOf reads an account's committed nonce through the CLI.
func (h *harness) nonceOf(who string) uint64 {
	h.t.Helper()
	var b struct{ Nonce uint64 }
	if err := json.Unmarshal([]byte(h.ok("balance", who, "--json")), &b); err != nil {
		h.t.Fatal(err)
	}
	return b.Nonce
}

// TestFeeGuard: a max fee or tip more than 100× the basefee is refused
// before signing unless --yes; the worst case is shown in CBY (issue 16:
// --tip-per-cycle 2^64-1 was accepted silently).
func TestFeeGuard(t *testing.T) {
	h := devnetHarness(t)
	base := []string{"transfer", "--from", "dev0", "--to", "dev1", "--value", "1cby"}
	for _, tt := range []struct{ flag, value, want string }{
		{"--tip-per-cycle", "18446744073709551615", "--tip-per-cycle 18446744073709551615 base units per Cycle is more than 100× the current basefee"},
		{"--max-fee-per-cycle", "1000", "--max-fee-per-cycle 1000 base units per Cycle"},
		{"--tip-per-cell", "5000", "--tip-per-cell 5000 base units per Cell"},
	} {
		r := h.fails(append(base, tt.flag, tt.value), tt.want, "pass --yes if you mean it", "CBY in fees")
		if tt.flag == "--tip-per-cycle" && !strings.Contains(r.stderr, "184,467.44073709551615 CBY") {
			t.Errorf("worst case not in CBY: %s", r.stderr)
		}
	}
	if n := h.nonceOf("dev0"); n != 0 {
		t.Fatalf("a refused transfer was sent: dev0 nonce %d", n)
	}
	r := h.run(append(base, "--tip-per-cycle", "1000", "--yes")...)
	if r.code != 0 || !strings.Contains(r.stderr, "Worst-case fee 0.00000000001002 CBY (10,000 cycles × 1002 + 0 cells × 3 base units); signing") {
		t.Fatalf("--yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The node's own estimate never trips the guard.
	h.ok(base...)
}

// TestNoActorThere: query and call of an account without code fail with
// "no actor at 0x…" before anything is signed (issue 16: query printed
// null, call sent a transaction that did nothing).
func TestNoActorThere(t *testing.T) {
	h := devnetHarness(t)
	dev5 := "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"
	h.fails([]string{"actor", "query", "dev5", "get_count"}, "no actor at "+dev5)
	h.fails([]string{"actor", "call", "dev5", "increment", "--from", "dev0"}, "no actor at "+dev5)
	if n := h.nonceOf("dev0"); n != 0 {
		t.Fatalf("a call to no actor was sent: dev0 nonce %d", n)
	}
}

// TestValidatorListOnDevnet names the devnet's block producer instead of
// showing an empty set while blocks appear.
func TestValidatorListOnDevnet(t *testing.T) {
	h := devnetHarness(t)
	out := h.ok("validator", "list")
	if !strings.Contains(out, "Devnet: every block is made by 0x") {
		t.Fatalf("validator list on a devnet:\n%s", out)
	}
	var v struct{ Producer string }
	if err := json.Unmarshal([]byte(h.ok("validator", "list", "--json")), &v); err != nil || len(v.Producer) != 42 {
		t.Fatalf("--json producer %q (%v)", v.Producer, err)
	}
}

const echoActor = `class Actor:
    def __init__(self):
        self.n = 0

    def echo(self, x):
        return x

    def fail(self):
        self.n += 1
        raise ValueError("boom")
`

// TestDeployChecksAndFileNames: an oversize source is refused before
// sending with its size and the limit; error lines name the deployed file,
// not main.py.
func TestDeployChecksAndFileNames(t *testing.T) {
	h := devnetHarness(t)
	dir := t.TempDir()
	big := filepath.Join(dir, "big.py")
	mustWrite(t, big, bytes.Repeat([]byte("# padding to five mebibytes\n"), 5<<20/28+1), 0o644)
	h.fails([]string{"actor", "deploy", big, "--from", "dev0"}, "source is 5.0 MiB, the limit is 128 KiB")

	bad := filepath.Join(dir, "bad_init.py")
	mustWrite(t, bad, []byte("class Actor:\n    def __init__(self):\n        raise ValueError(\"nope\")\n"), 0o644)
	r := h.fails([]string{"actor", "deploy", bad, "--from", "dev0"}, "ValueError: nope", filepath.ToSlash(bad)+", line 3")
	if strings.Contains(r.stderr, "main.py") {
		t.Fatalf("error still names main.py: %s", r.stderr)
	}
	if n := h.nonceOf("dev0"); n != 0 {
		t.Fatalf("dev0 nonce %d: something was sent", n)
	}
}

// TestNamesInJSONArgs: dev0…dev9 and @NAME inside JSON arguments become
// addresses; other strings stay text.
func TestNamesInJSONArgs(t *testing.T) {
	h := devnetHarness(t)
	h.ok("keys", "new", "alice", "--password-file", h.pwFile)
	alice := strings.TrimSpace(h.ok("keys", "show", "alice"))
	file := filepath.Join(t.TempDir(), "echo.py")
	mustWrite(t, file, []byte(echoActor), 0o644)
	var d struct{ ContractAddress string }
	if err := json.Unmarshal([]byte(h.ok("actor", "deploy", file, "--from", "dev0", "--json")), &d); err != nil || d.ContractAddress == "" {
		t.Fatalf("deploy: %v %+v", err, d)
	}
	out := h.ok("actor", "query", d.ContractAddress, "echo", `{"to":["dev1","@alice"],"note":"dev1 and alice","n":123456789012345678901234567890}`)
	want := `{"n":123456789012345678901234567890,"to":["0x70997970C51812dc3A010C7d01b50e0d17dc79C8","` + alice + `"],"note":"dev1 and alice"}`
	if strings.TrimSpace(out) != want {
		t.Fatalf("echo printed\n%s\nwant\n%s", out, want)
	}
	if out := h.ok("actor", "query", d.ContractAddress, "echo", "dev2"); strings.TrimSpace(out) != `"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"` {
		t.Fatalf("bare dev2: %s", out)
	}
	h.fails([]string{"actor", "query", d.ContractAddress, "echo", `["@nobody"]`}, `"@nobody"`, "not an address")
}

// TestCompletionAndSuggestions: `cowboy completion` exists, and a typo
// gets one readable "did you mean" line.
func TestCompletionAndSuggestions(t *testing.T) {
	h := newHarness(t, genesis.DevnetChainID)
	if out := h.ok("completion", "bash"); !strings.Contains(out, "__start_cowboy") {
		t.Fatalf("completion bash:\n%.200s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"transfr"}, `error: unknown command "transfr" for "cowboy": did you mean transfer?`},
		{[]string{"keys", "lst"}, `error: unknown command "lst" for "cowboy keys": did you mean list?`},
		{[]string{"actor", "deplo"}, `error: unknown command "deplo" for "cowboy actor": did you mean deploy?`},
	} {
		r := h.fails(tt.args)
		if strings.TrimSpace(r.stderr) != tt.want {
			t.Errorf("cowboy %v: %q, want %q", tt.args, r.stderr, tt.want)
		}
	}
}

// syncBuffer is a log sink tests read while the node writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNodeDiesWhileWaiting: the CLI waits for a receipt by WebSocket
// subscription; when the node stops it names the transaction and how to
// check or resend it, and the node says how many pending transactions it
// dropped.
func TestNodeDiesWhileWaiting(t *testing.T) {
	var logs syncBuffer
	n, err := node.Open(node.Config{Home: t.TempDir(), Genesis: genesis.Devnet(), RPCAddr: "127.0.0.1:0", BlockTime: time.Hour,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	for n.RPCAddr() == "" {
		time.Sleep(time.Millisecond)
	}
	h := &harness{t: t, url: "http://" + n.RPCAddr(), keystore: filepath.Join(t.TempDir(), "keys")}
	res := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		a := newApp(strings.NewReader(""), &out, &errb)
		code := run(context.Background(), a, []string{"--rpc", h.url, "transfer", "--from", "dev0", "--to", "dev1", "--value", "1cby", "--timeout", "1h"})
		res <- result{out.String(), errb.String(), code}
	}()
	dev0, _ := genesis.DevAddress(0)
	c := rpc.Dial(h.url)
	for { // until the node holds the transfer
		if p, err := c.Nonce(context.Background(), dev0, true); err == nil && p == 1 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// It waits by subscription, not by polling.
	for n.Events().Len() != 1 {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	n.Close()
	r := <-res
	checkFailure(t, r, []string{"transfer"}, "lost the node at "+h.url, "while waiting for the receipt of transaction 0x", "cowboy tx get 0x", "--nonce 0")
	if !strings.Contains(logs.String(), "dropped=1") {
		t.Fatalf("node log does not report the dropped transaction:\n%s", logs.String())
	}
}

// TestExamplesPass runs `cowboy actor test` on every example directory, as
// examples/README.md tells a user to.
func TestExamplesPass(t *testing.T) {
	tests, err := filepath.Glob("../../examples/*/main_test.json")
	if err != nil || len(tests) < 5 {
		t.Fatalf("example tests: %v %v", tests, err)
	}
	h := newHarness(t, genesis.DevnetChainID)
	for _, f := range tests {
		dir := filepath.Dir(f)
		out := h.ok("actor", "test", dir)
		if !strings.Contains(out, "PASS") || strings.Contains(out, "FAIL") {
			t.Errorf("cowboy actor test %s:\n%s", dir, out)
		}
	}
}
