package main

import (
	"context"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/rpc"
)

// TestRunnerParamsDocs runs the "Parameters" transcript of docs/runners.md:
// the file the page shows, a devnet started with it (real process, on a
// free port), whose simulated runners must stake the higher stake floor,
// and `cowboy runner params` showing what is in force.
func TestRunnerParamsDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and runs a devnet")
	}
	b, err := os.ReadFile("../../docs/runners.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- runner-params")
	if !ok {
		t.Fatal("docs/runners.md has no runner-params block")
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 4 || lines[0] != "$ cat runner-params.json" || !strings.HasPrefix(lines[2], "$ cowboyd devnet ") || lines[3] != "$ cowboy runner params" {
		t.Fatalf("the block is not cat, its output, cowboyd devnet, cowboy runner params:\n%s", block)
	}
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, bin: bin, dir: t.TempDir()}
	if err := os.WriteFile(filepath.Join(e.dir, "runner-params.json"), []byte(lines[1]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(c string) string {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = e.dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "COWBOY_RPC="+e.rpcURL)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("$ %s: %v\n%s", c, err, out)
		}
		return string(out)
	}
	if out := run(strings.TrimPrefix(lines[0], "$ ")); strings.TrimSpace(out) != lines[1] {
		t.Fatalf("cat shows %q", out)
	}
	rpcAddr := freeAddr(t)
	e.rpcURL = "http://" + rpcAddr
	e.client = rpc.NewClient(e.rpcURL, &http.Client{Timeout: 10 * time.Second})
	args := append(strings.Fields(strings.TrimPrefix(lines[2], "$ cowboyd "))[0:], "--home", filepath.Join(e.dir, "chain"), "--rpc", rpcAddr, "--log-level", "warn")
	cmd := exec.Command(filepath.Join(bin, "cowboyd"), args...)
	cmd.Dir = e.dir
	logf, err := os.Create(filepath.Join(e.dir, "cowboyd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	e.waitFor("the simulated runners", func() bool {
		rs, err := e.client.Runners(context.Background())
		return err == nil && len(rs) == 3
	})
	floor := cby(20_000)
	for _, r := range mustRunners(t, e) {
		if bigOf(r.SelfBond).Cmp(floor) != 0 || !r.Eligible {
			t.Fatalf("simulated runner %s bonds %s (eligible %v), want the stake floor of 20,000 CBY", r.Address, bigOf(r.SelfBond), r.Eligible)
		}
	}
	out := run(strings.TrimPrefix(lines[3], "$ "))
	for _, want := range []string{"stake_floor                 20,000 CBY", "committee                   2 of 3 (max_committee 9)", "challenge_window_blocks     60", "aggregator_timeout_blocks   2"} {
		if !strings.Contains(out, want) {
			t.Fatalf("cowboy runner params does not show %q:\n%s", want, out)
		}
	}
	p, err := e.client.RunnerParams(context.Background())
	if err != nil || (*big.Int)(&p.StakeFloor).Cmp(floor) != 0 || uint64(p.Committee) != 3 {
		t.Fatalf("cowboy_getRunnerParams %+v %v", p, err)
	}
}

func mustRunners(t *testing.T, e *e2e) []rpc.RunnerJSON {
	rs, err := e.client.Runners(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
