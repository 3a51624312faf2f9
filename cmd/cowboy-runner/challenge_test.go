package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/daemon"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

type rawCBOR []byte

func (r rawCBOR) MarshalCBOR() ([]byte, error) { return r, nil }

// TestChallengeProcesses runs, as real processes, a devnet with three
// honest simulated runners and a 100-block challenge window
// (--runner-params), a lying cowboy-runner and a watching one started with
// --challenge and --payout. One-runner economic_bond jobs are posted until
// the liar has answered one and an honest runner another: the watcher
// challenges the liar's result alone, the three simulated runners
// re-execute it, the challenge is upheld and the liar slashed; the
// watcher's earnings above its reserve are at the payout address.
func TestChallengeProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and runs three processes")
	}
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, bin: bin, dir: t.TempDir()}
	llm := httptest.NewServer(llmsim.Handler())
	defer llm.Close()
	params := filepath.Join(e.dir, "runner-params.json")
	mustWrite(t, params, []byte(`{"challenge_window_blocks": 100}`), 0o644)
	rpcAddr := freeAddr(t)
	e.rpcURL = "http://" + rpcAddr
	e.client = rpc.NewClient(e.rpcURL, &http.Client{Timeout: 10 * time.Second})
	e.start("cowboyd", "devnet", "--home", filepath.Join(e.dir, "chain"), "--rpc", rpcAddr, "--block-time", "200ms",
		"--log-level", "warn", "--runner-sim", "3", "--runner-params", params)
	ctx := context.Background()
	e.waitFor("the simulated runners", func() bool { rs, err := e.client.Runners(ctx); return err == nil && len(rs) == 3 })

	card := filepath.Join(e.dir, "card.json")
	mustWrite(t, card, []byte(`{"per_job": "0.5cby", "per_token": "0", "per_kb": "0"}`), 0o644)
	payout := types.Address{0xca, 0xfe, 19: 2}
	type proc struct {
		home, listen string
		addr         types.Address
	}
	mk := func(name string) proc {
		p := proc{home: filepath.Join(e.dir, name), listen: freeAddr(t)}
		out, err := exec.Command(filepath.Join(bin, "cowboy-runner"), "init", "--home", p.home).CombinedOutput()
		if err != nil {
			t.Fatalf("init: %v %s", err, out)
		}
		if p.addr, err = types.ParseAddress(strings.Fields(string(out))[1]); err != nil {
			t.Fatalf("init printed %q: %v", out, err)
		}
		e.cli("transfer", "--from", "dev0", "--to", p.addr.Hex(), "--value", "20000cby")
		e.cli("runner", "register", "--home", p.home, "--stake", "10000cby", "--models", "sim-1",
			"--endpoint", "http://"+p.listen+"/", "--rate-card", card, "--max-job-value", "100cby")
		return p
	}
	liar, watcher := mk("liar"), mk("watcher")
	// Weight the liar so that it is likely drawn for one-runner jobs.
	e.cli("runner", "delegate", liar.addr.Hex(), "--value", "90000cby", "--from", "dev1")
	e.start("cowboy-runner", "start", "--home", liar.home, "--rpc", e.rpcURL, "--llm-url", llm.URL, "--listen", liar.listen,
		"--poll", "100ms", "--fault", "lie")
	e.start("cowboy-runner", "start", "--home", watcher.home, "--rpc", e.rpcURL, "--llm-url", llm.URL, "--listen", watcher.listen,
		"--poll", "100ms", "--challenge", "--payout", payout.Hex(), "--keep", "300cby")

	requester, _ := genesis.DevKey(3)
	reqAddr := rpc.Address(requester.Address())
	chainID, err := e.client.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var lied, honest []uint64
	for k := 0; k < 30 && (len(lied) == 0 || len(honest) == 0); k++ {
		input, _ := types.Marshal(map[string]any{"prompt": fmt.Sprintf("Is %d even? Answer yes or no.", k)})
		spec, _ := types.Marshal(map[string]any{"kind": "llm", "model": "sim-1", "input": rawCBOR(input), "trust": "economic_bond",
			"max_price": cby(5), "timeout_blocks": uint64(30), "seed": uint64(1)})
		h, err := daemon.SendTx(ctx, e.client, requester, chainID, runner.DispatcherAddress, cby(5), runner.Payload("post", rawCBOR(spec)))
		if err != nil {
			t.Fatal(err)
		}
		rc, err := e.client.WaitReceipt(ctx, h, 50*time.Millisecond)
		if err != nil || uint64(rc.Status) != types.ReceiptSuccess {
			t.Fatalf("post: %v %+v", err, rc)
		}
		// The requester's newest job: a challenge's re-execution may be
		// newer, but its requester is the watcher.
		jobs, err := e.client.Jobs(ctx, rpc.JobFilterJSON{Requester: &reqAddr})
		if err != nil || len(jobs) == 0 {
			t.Fatal(err)
		}
		id := uint64(jobs[0].ID)
		var j *rpc.JobJSON
		e.waitFor(fmt.Sprintf("job %d to settle", id), func() bool { j = e.job(id); return j.Phase == "settled" || j.Phase == "failed" })
		switch types.Address(j.Members[0]) {
		case liar.addr:
			lied = append(lied, id)
		case watcher.addr:
		default:
			honest = append(honest, id)
		}
	}
	if len(lied) == 0 || len(honest) == 0 {
		t.Fatalf("in 30 jobs the liar answered %d, honest runners %d", len(lied), len(honest))
	}
	for _, id := range lied {
		var j *rpc.JobJSON
		e.waitFor("the watcher's challenge to be resolved", func() bool { j = e.job(id); return j.ChallengeOutcome != "" })
		if !strings.HasPrefix(j.ChallengeOutcome, "upheld") || j.Challenger == nil || types.Address(*j.Challenger) != watcher.addr ||
			len(j.Slashed) != 1 || types.Address(j.Slashed[0]) != liar.addr {
			t.Fatalf("job %d: challenge %q by %v, slashed %v", id, j.ChallengeOutcome, j.Challenger, j.Slashed)
		}
		re := e.job(uint64(j.ChallengeJob))
		for _, m := range re.Members {
			if types.Address(m) == liar.addr || types.Address(m) == watcher.addr {
				t.Fatalf("the re-execution's committee %v holds the liar or the challenger", re.Members)
			}
		}
	}
	for _, id := range honest {
		if hj := e.job(id); uint64(hj.ChallengeJob) != 0 {
			t.Fatalf("the honest job %d was challenged", id)
		}
	}
	e.waitFor("the watcher's sweep", func() bool {
		b, err := e.client.Balance(ctx, payout)
		return err == nil && b.Cmp(cby(9_000)) >= 0
	})
	out, err := exec.Command(filepath.Join(bin, "cowboy-runner"), "status", "--home", watcher.home).CombinedOutput()
	if err != nil || !strings.Contains(string(out), fmt.Sprintf("challenges %d ", len(lied))) || !strings.Contains(string(out), "payout "+payout.Hex()) {
		t.Fatalf("status: %v\n%s", err, out)
	}
}
