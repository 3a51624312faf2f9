package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/node"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// newHarnessWith starts a devnet node (with runner parameters r, or the
// devnet's own when r is nil) and an LLM simulator for the daemons.
func newHarnessWith(t *testing.T, r *genesis.Runner) *harness {
	dir := t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := genesis.Devnet()
	if r != nil {
		g.Runner = r
	}
	n, err := node.Open(node.Config{Home: filepath.Join(dir, "chain"), BlockTime: 50 * time.Millisecond, RPCAddr: "127.0.0.1:0",
		Genesis: g, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; n.Close() })
	for n.RPCAddr() == "" {
		time.Sleep(5 * time.Millisecond)
	}
	llm := httptest.NewServer(llmsim.Handler())
	t.Cleanup(llm.Close)
	h := &harness{t: t, c: rpc.NewClient("http://"+n.RPCAddr(), &http.Client{Timeout: 10 * time.Second}), llm: llm.URL, dir: dir}
	if h.chainID, err = h.c.ChainID(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h
}

// daemonWith makes, funds and registers runner i with its daemon
// configured by set.
func (h *harness) daemonWith(i int, set func(*Config)) *Daemon {
	h.t.Helper()
	kb := crypto.Keccak256([]byte(fmt.Sprintf("watch-test/%d", i)))
	key, _ := crypto.PrivateKeyFromBytes(kb[:])
	cfg := Config{Home: filepath.Join(h.dir, fmt.Sprintf("w%d", i)), Key: key, RPC: h.c,
		Exec: executor.Kinds{runner.KindLLM: &executor.LLM{URL: h.llm}}, Listen: "127.0.0.1:0", Poll: 20 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	set(&cfg)
	d, err := Open(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { d.Close() })
	funder, _ := genesis.DevKey(9)
	h.tx(funder, d.Address(), cby(20_000), nil)
	rates := map[string]*big.Int{"per_job": cby(1), "per_token": big.NewInt(0), "per_kb": big.NewInt(0)}
	h.tx(key, runner.RegistryAddress, cby(10_000), runner.Payload("register", d.URL(), []string{"sim-1"}, []string{}, rates, cby(100), uint64(0)))
	return d
}

// TestDaemonChallengesAWrongBondResult: a daemon started with Challenge
// re-executes the economic_bond results other runners give in their
// challenge window; the honest ones it leaves alone, the liar's it
// challenges, and the re-execution by three other runners upholds the
// challenge: the liar is slashed and the challenger gets its bond back.
// With Payout it sweeps its balance above Keep to the payout address.
func TestDaemonChallengesAWrongBondResult(t *testing.T) {
	window := uint64(400)
	h := newHarnessWith(t, &genesis.Runner{ChallengeWindowBlocks: &window})
	ctx := context.Background()
	payout := types.Address{0xca, 0xfe, 19: 1}
	liar := h.daemonWith(0, func(c *Config) { c.Fault = FaultLie })
	watcher := h.daemonWith(1, func(c *Config) { c.Challenge, c.Payout, c.Keep = true, payout, cby(300) })
	ds := []*Daemon{liar, watcher}
	for i := 2; i < 5; i++ {
		ds = append(ds, h.daemonWith(i, func(*Config) {}))
	}
	// Weight the liar so that it is likely drawn for the one-runner jobs.
	delegator, _ := genesis.DevKey(7)
	la := liar.Address()
	h.tx(delegator, runner.RegistryAddress, cby(90_000), runner.Payload("delegate", la[:]))
	requester, _ := genesis.DevKey(3)
	tick := func() {
		for _, d := range ds {
			if err := d.Tick(ctx); err != nil {
				t.Logf("tick %s: %v", d.Address(), err)
			}
		}
	}
	settled := func(id uint64) *rpc.JobJSON {
		for step := 0; step < 500; step++ { // a bound for waiting, not a timing assertion
			tick()
			j, err := h.c.Job(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if j.Phase == "settled" || j.Phase == "failed" {
				return j
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("job %d never settled", id)
		return nil
	}
	var lied *rpc.JobJSON
	var honest []uint64
	liedJobs := 0 // the draw may give the liar several jobs before an honest one
	for k := 0; k < 30 && (lied == nil || len(honest) == 0); k++ {
		input, _ := types.Marshal(map[string]any{"prompt": fmt.Sprintf("Is %d even? Answer yes or no.", k)})
		spec, _ := types.Marshal(map[string]any{"kind": "llm", "model": "sim-1", "input": rawCBOR(input), "trust": "economic_bond",
			"max_price": cby(5), "timeout_blocks": uint64(40), "seed": uint64(1)})
		h.tx(requester, runner.DispatcherAddress, cby(5), runner.Payload("post", rawCBOR(spec)))
		reqAddr := rpc.Address(requester.Address()) // not a challenge's re-execution, which is the watcher's
		n, err := h.c.Jobs(ctx, rpc.JobFilterJSON{Requester: &reqAddr})
		if err != nil || len(n) == 0 {
			t.Fatal(err)
		}
		j := settled(uint64(n[0].ID))
		switch types.Address(j.Members[0]) {
		case la:
			lied = j
			liedJobs++
		case watcher.Address():
		default:
			honest = append(honest, uint64(j.ID))
		}
	}
	if lied == nil || len(honest) == 0 {
		t.Fatalf("in 30 jobs the liar was drawn: %v, honest runners %d times", lied != nil, len(honest))
	}
	var j *rpc.JobJSON
	for step := 0; step < 1000; step++ {
		tick()
		var err error
		if j, err = h.c.Job(ctx, uint64(lied.ID)); err != nil {
			t.Fatal(err)
		}
		if j.ChallengeOutcome != "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.HasPrefix(j.ChallengeOutcome, "upheld") || j.Challenger == nil || types.Address(*j.Challenger) != watcher.Address() ||
		len(j.Slashed) != 1 || types.Address(j.Slashed[0]) != la {
		t.Fatalf("challenge of the liar's job %d: outcome %q by %v, slashed %v", uint64(j.ID), j.ChallengeOutcome, j.Challenger, j.Slashed)
	}
	for _, id := range honest {
		hj, err := h.c.Job(ctx, id)
		if err != nil || uint64(hj.ChallengeJob) != 0 {
			t.Fatalf("honest job %d was challenged (%v)", id, err)
		}
	}
	s := watcher.Status()
	if s.Challenges != uint64(liedJobs) || s.Checked < uint64(len(honest)+liedJobs) || s.Sweeps == 0 {
		t.Fatalf("watcher status %+v (honest jobs %d, lies %d)", s, len(honest), liedJobs)
	}
	got, err := h.c.Balance(ctx, payout)
	if err != nil || got.Cmp(cby(9_000)) < 0 {
		t.Fatalf("payout balance %s: %v", got, err)
	}
	if b, _ := h.c.Balance(ctx, watcher.Address()); b.Cmp(cby(400)) > 0 {
		t.Fatalf("the watcher keeps %s, above its 300 CBY reserve and one sweep's margin", b)
	}
}

// TestCollectWithdrawsAnUnbondedSelfBond: after exit and the unbonding
// period the daemon withdraws its self-bond by itself.
func TestCollectWithdrawsAnUnbondedSelfBond(t *testing.T) {
	unbond := uint64(5)
	h := newHarnessWith(t, &genesis.Runner{UnbondingBlocks: &unbond})
	ctx := context.Background()
	d := h.daemonWith(0, func(*Config) {})
	kb := crypto.Keccak256([]byte("watch-test/0"))
	key, _ := crypto.PrivateKeyFromBytes(kb[:])
	h.tx(key, runner.RegistryAddress, new(big.Int), runner.Payload("exit"))
	before, _ := h.c.Balance(ctx, d.Address())
	for step := 0; step < 500 && d.Status().Withdrawals == 0; step++ {
		if err := d.Tick(ctx); err != nil {
			t.Log(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var after *big.Int
	for step := 0; step < 200; step++ {
		after, _ = h.c.Balance(ctx, d.Address())
		if after.Cmp(before) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d.Status().Withdrawals != 1 || new(big.Int).Sub(after, before).Cmp(cby(9_999)) < 0 {
		t.Fatalf("withdrawals %d, balance %s → %s", d.Status().Withdrawals, before, after)
	}
}
