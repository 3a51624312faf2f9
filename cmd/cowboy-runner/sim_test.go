package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// TestDevnetRunnerSim runs `cowboyd devnet --runner-sim 3` with runner 2
// lying: an actor's job is answered by the simulated committee, offline,
// and the liar is slashed, so an actor author can test both paths.
func TestDevnetRunnerSim(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and runs a devnet")
	}
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, bin: bin, dir: t.TempDir()}
	rpcAddr := freeAddr(t)
	e.rpcURL = "http://" + rpcAddr
	e.client = rpc.NewClient(e.rpcURL, &http.Client{Timeout: 10 * time.Second})
	e.start("cowboyd", "devnet", "--home", filepath.Join(e.dir, "chain"), "--rpc", rpcAddr, "--block-time", "200ms",
		"--runner-sim", "3", "--runner-sim-fault", "2=lie", "--log-level", "warn")
	e.waitFor("three simulated runners", func() bool {
		rs, err := e.client.Runners(context.Background())
		return err == nil && len(rs) == 3
	})
	oracleSrc, _ := filepath.Abs("testdata/oracle.py")
	dep := e.cli("actor", "deploy", oracleSrc, "--from", "dev2", "--value", "100cby", "--json")
	oracle := jsonField(t, dep, "contractAddress").(string)
	q := "Is the moon made of cheese? Answer yes or no."
	out := e.cli("actor", "call", oracle, "ask", fmt.Sprintf("%q", q), `"sim-1"`, cby(1).String(), "--from", "dev2", "--json")
	id := uint64(jsonField(t, out, "returnValue").(float64))
	var j *rpc.JobJSON
	e.waitFor("the continuation", func() bool { j = e.job(id); return j.Delivered != 0 })
	if j.Outcome != runner.OutcomeSuccess || j.Output != llmsim.Answer(q) || len(j.Slashed) != 1 {
		t.Fatalf("job: %s %q slashed %v (%s)", j.Outcome, j.Output, j.Slashed, j.Error)
	}
	if a := e.answers(oracle); len(a) != 1 || a[0].Value != llmsim.Answer(q) {
		t.Fatalf("answers %+v", a)
	}
}
