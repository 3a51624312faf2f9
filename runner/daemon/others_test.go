package daemon

import (
	"context"
	"io"
	"log/slog"
	"math/big"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

// openOn opens a daemon with key seed's key on the stand-in chain c.
func openOn(t *testing.T, seed string, c *rpc.Client, exec executor.Executor, set func(*Config)) *Daemon {
	t.Helper()
	kb := crypto.Keccak256([]byte(seed))
	key, err := crypto.PrivateKeyFromBytes(kb[:])
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Home: filepath.Join(t.TempDir(), "d"), Key: key, RPC: c, Exec: exec, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if set != nil {
		set(&cfg)
	}
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	d.chainID = 1
	return d
}

// bondJob is another runner's economic_bond success on sim-1 whose
// challenge window ends at height 10.
func bondJob(id uint64, output string) rpc.JobJSON {
	j := rpc.JobJSON{ID: rpc.Quantity(id), Trust: runner.TrustBond, Phase: "settled", Members: []rpc.Address{{9}},
		Kind: runner.KindLLM, Model: "sim-1", Output: output, ChallengeEnd: 10, MaxWallMS: 1500}
	(*big.Int)(&j.Held).SetInt64(1)
	return j
}

// TestWatchable pins which jobs the challenge watch re-executes: each
// condition of watchable on its own, at the window's last height and just
// past it.
func TestWatchable(t *testing.T) {
	_, c := newStandIn(t)
	d := openOn(t, "daemon-watchable", c, executor.Kinds{}, nil)
	me := &rpc.RunnerJSON{Models: []string{"sim-1"}, Domains: []string{"example.com"}}
	for _, tt := range []struct {
		name   string
		edit   func(j *rpc.JobJSON)
		height uint64
		want   bool
	}{
		{"a bond result in its window", nil, 5, true},
		{"at the window's last block", nil, 9, true},
		{"the window closed", nil, 10, false},
		{"not economic_bond", func(j *rpc.JobJSON) { j.Trust = runner.TrustMajority }, 5, false},
		{"not settled", func(j *rpc.JobJSON) { j.Phase = "revealing" }, 5, false},
		{"two members", func(j *rpc.JobJSON) { j.Members = append(j.Members, rpc.Address{8}) }, 5, false},
		{"its own result", func(j *rpc.JobJSON) { j.Members[0] = rpc.Address(d.me) }, 5, false},
		{"payment no longer held", func(j *rpc.JobJSON) { j.Held = rpc.BigQuantity{} }, 5, false},
		{"already challenged", func(j *rpc.JobJSON) { j.ChallengeJob = 3 }, 5, false},
		{"a model not served", func(j *rpc.JobJSON) { j.Model = "sim-2" }, 5, false},
		{"an http job on a served domain", func(j *rpc.JobJSON) { j.Kind, j.Domain = runner.KindHTTP, "example.com" }, 5, true},
		{"an http job elsewhere", func(j *rpc.JobJSON) { j.Kind, j.Domain = runner.KindHTTP, "example.org" }, 5, false},
		{"an unknown kind", func(j *rpc.JobJSON) { j.Kind = "other" }, 5, false},
	} {
		j := bondJob(1, "yes")
		if tt.edit != nil {
			tt.edit(&j)
		}
		if got := d.watchable(&j, me, tt.height); got != tt.want {
			t.Errorf("%s: watchable %v, want %v", tt.name, got, tt.want)
		}
	}
}

// jobLog is an executor answering "yes" that records the jobs it runs.
type jobLog struct {
	mu   sync.Mutex
	jobs []executor.Job
}

func (l *jobLog) Execute(_ context.Context, j executor.Job) executor.Result {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.jobs = append(l.jobs, j)
	return executor.Result{Status: runner.StatusOK, Output: []byte("yes"), Usage: 1}
}

// TestWatchChecksEveryJob: every watchable job of the list, the oldest
// too, is re-executed once with its posted limits, and only the wrong one
// is challenged, with the challenge bond plus the job's max price.
func TestWatchChecksEveryJob(t *testing.T) {
	chain, c := newStandIn(t)
	wrong := bondJob(2, "no")
	(*big.Int)(&wrong.MaxPrice).SetInt64(7)
	chain.jobs = []rpc.JobJSON{wrong, bondJob(1, "yes")} // newest first
	exec := &jobLog{}
	d := openOn(t, "daemon-watch", c, exec, nil)
	me := &rpc.RunnerJSON{Models: []string{"sim-1"}}
	params := &rpc.RunnerParamsJSON{}
	(*big.Int)(&params.ChallengeBond).SetInt64(100)
	for round, want := range [][]string{{"challenge"}, nil} {
		if err := d.watch(context.Background(), me, params, 5); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		chain.mu.Lock()
		values := strings.Join(chain.values, ",")
		chain.mu.Unlock()
		if got := chain.take(nil); strings.Join(got, "|") != strings.Join(want, "|") || (want != nil && values != "107") {
			t.Fatalf("round %d: sent %q value %s, want %q value 107", round, got, values, want)
		}
	}
	if len(exec.jobs) != 2 || exec.jobs[0].ID != 1 || exec.jobs[1].ID != 2 || exec.jobs[0].MaxWall != 1500*time.Millisecond {
		t.Fatalf("executed %+v", exec.jobs)
	}
	if d.stats.Checked.Load() != 2 || d.stats.Challenges.Load() != 1 {
		t.Fatalf("checked %d challenged %d", d.stats.Checked.Load(), d.stats.Challenges.Load())
	}
}

// TestCollect: the self-bond is withdrawn only once the unbonding period
// after the exit has passed and something is unbonding; the balance above
// the reserve is swept only when it reaches MinSweep; nothing is sent
// while a transaction of the runner's is pending.
func TestCollect(t *testing.T) {
	keep := new(big.Int).Mul(big.NewInt(2), MinSweep)
	payout := types.Address{5}
	for _, tt := range []struct {
		name    string
		exiting bool
		unbond  int64
		height  uint64
		payout  bool
		balance *big.Int
		pending uint64
		want    []string
	}{
		{"exiting, unbonded", true, 1, 15, false, nil, 0, []string{"withdraw"}},
		{"exiting, one block early", true, 1, 14, false, nil, 0, nil},
		{"exiting, nothing unbonding", true, 0, 15, false, nil, 0, nil},
		{"not exiting", false, 1, 15, false, nil, 0, nil},
		{"a transaction pending", true, 1, 15, false, nil, 1, nil},
		{"exactly MinSweep over the reserve", false, 0, 15, true, new(big.Int).Add(keep, MinSweep), 0, []string{"transfer " + MinSweep.String()}},
		{"less than MinSweep over the reserve", false, 0, 15, true, new(big.Int).Sub(new(big.Int).Add(keep, MinSweep), big.NewInt(1)), 0, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			chain, c := newStandIn(t)
			chain.pending = tt.pending
			if tt.balance != nil {
				chain.balance = tt.balance.Int64()
			}
			d := openOn(t, "daemon-collect", c, executor.Kinds{}, func(cfg *Config) {
				if tt.payout {
					cfg.Payout, cfg.Keep = payout, keep
				}
			})
			me := &rpc.RunnerJSON{Exiting: tt.exiting, ExitAt: 10}
			(*big.Int)(&me.SelfUnbonding).SetInt64(tt.unbond)
			params := &rpc.RunnerParamsJSON{UnbondingBlocks: 5}
			if err := d.collect(context.Background(), me, params, tt.height); err != nil {
				t.Fatal(err)
			}
			if got := chain.take(nil); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("sent %q, want %q", got, tt.want)
			}
		})
	}
}
