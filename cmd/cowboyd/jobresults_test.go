package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/rpc"
)

// TestJobResultsSubscription runs `cowboyd devnet --runner-sim 3` and an
// oracle actor that asks the simulated runners a question: a WebSocket
// "jobResults" subscription for the oracle gets the job's result when the
// continuation on_answer is delivered, with the job id `ask` returned.
func TestJobResultsSubscription(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cowboyd and cowboy and runs a devnet")
	}
	dir := t.TempDir()
	bin, cli := filepath.Join(dir, "cowboyd"), filepath.Join(dir, "cowboy")
	for out, pkg := range map[string]string{bin: ".", cli: "../cowboy"} {
		if b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	url := "http://" + addr
	var out bytes.Buffer
	dn := exec.Command(bin, "devnet", "--home", filepath.Join(dir, "chain"), "--rpc", addr, "--block-time", "200ms",
		"--runner-sim", "3", "--log-level", "warn")
	dn.Stdout, dn.Stderr = &out, &out
	if err := dn.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		dn.Process.Signal(syscall.SIGTERM)
		dn.Wait()
		if t.Failed() {
			t.Logf("devnet output:\n%s", out.String())
		}
	}()
	// A bound for a devnet that hangs, not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := rpc.NewClient(url, nil)
	for {
		if rs, err := c.Runners(ctx); err == nil && len(rs) == 3 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the devnet's three simulated runners did not register")
		}
		time.Sleep(100 * time.Millisecond)
	}
	run := func(args ...string) string {
		t.Helper()
		b, err := exec.Command(cli, append([]string{"--rpc", url}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("cowboy %s: %v\n%s", strings.Join(args, " "), err, b)
		}
		return string(b)
	}
	var dep struct{ ContractAddress string }
	if err := json.Unmarshal([]byte(run("actor", "deploy", "../cowboy-runner/testdata/oracle.py", "--from", "dev2", "--value", "100cby", "--json")), &dep); err != nil {
		t.Fatal(err)
	}
	w, err := rpc.DialWS(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	sub, err := w.Subscribe(ctx, rpc.SubJobResults, map[string]any{"actor": dep.ContractAddress})
	if err != nil {
		t.Fatal(err)
	}
	var call struct{ ReturnValue uint64 }
	if err := json.Unmarshal([]byte(run("actor", "call", dep.ContractAddress, "ask", `"Is the sky blue? Answer yes or no."`, `"sim-1"`, "1000000000000000000", "--from", "dev2", "--json")), &call); err != nil {
		t.Fatal(err)
	}
	raw, err := sub.Next(ctx)
	if err != nil {
		t.Fatalf("no job result: %v", err)
	}
	var r rpc.JobResultJSON
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	if uint64(r.JobID) != call.ReturnValue || r.Method != "on_answer" || r.Status != 1 || !strings.EqualFold(r.Actor.String(), dep.ContractAddress) {
		t.Fatalf("job %d result: %s", call.ReturnValue, raw)
	}
}
