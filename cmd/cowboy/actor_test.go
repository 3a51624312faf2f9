package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The actor commands against a real devnet: deploy, call, query, code,
// JSON output, failures before and after sending.
func TestActorCommands(t *testing.T) {
	h := devnetHarness(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "main.py")
	mustWrite(t, src, []byte(scaffoldMain), 0o644)

	var dep struct {
		Status          string `json:"status"`
		ContractAddress string `json:"contractAddress"`
		CyclesUsed      uint64 `json:"cyclesUsed"`
	}
	if err := json.Unmarshal([]byte(h.ok("actor", "deploy", src, "--from", "dev0", "--json")), &dep); err != nil {
		t.Fatal(err)
	}
	if dep.Status != "success" || !strings.HasPrefix(dep.ContractAddress, "0x") || dep.CyclesUsed < 50_000 {
		t.Fatalf("deploy: %+v", dep)
	}
	addr := dep.ContractAddress

	var call struct {
		Status      string          `json:"status"`
		ReturnValue json.RawMessage `json:"returnValue"`
		Messages    []struct {
			Method string `json:"method"`
			Status string `json:"status"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(h.ok("actor", "call", addr, "increment", "41", "--from", "dev1", "--json")), &call); err != nil {
		t.Fatal(err)
	}
	if call.Status != "success" || string(call.ReturnValue) != "41" || len(call.Messages) != 1 || call.Messages[0].Method != "increment" {
		t.Fatalf("call: %+v", call)
	}
	if out := h.ok("actor", "query", addr, "get_count"); strings.TrimSpace(out) != "41" {
		t.Fatalf("query: %q", out)
	}
	if out := h.ok("actor", "code", addr); out != scaffoldMain {
		t.Fatalf("code: %q", out)
	}

	// A call the estimate shows failing is not sent.
	h.fails([]string{"actor", "call", addr, "increment", "0", "--from", "dev1"}, "ValueError: by must be positive (main.py, line 14)", "execution_would_fail")
	// With both limits it is sent, fails in its block, and says why.
	r := h.run("actor", "call", addr, "increment", "0", "--from", "dev1", "--cycles-limit", "50000", "--cells-limit", "1000")
	if r.code != 1 || !strings.Contains(r.stderr, "warning:") || !strings.Contains(r.stdout, "failed: ValueError: by must be positive (main.py, line 14)") {
		t.Fatalf("forced failing call: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// Private methods, redeploys and unknown actors fail clearly.
	h.fails([]string{"actor", "query", addr, "_secret"}, "private")
	h.fails([]string{"actor", "deploy", src, "--from", "dev0"}, "already exists")
	h.fails([]string{"actor", "code", "0x" + strings.Repeat("11", 20)}, "not an actor")
	h.fails([]string{"actor", "call", addr}, "needs METHOD")
}
