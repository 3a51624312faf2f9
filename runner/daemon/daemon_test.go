package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/executor"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

type harness struct {
	t       *testing.T
	c       *rpc.Client
	chainID uint64
	llm     string
	dir     string
}

func newHarness(t *testing.T) *harness { return newHarnessWith(t, nil) }

// tx sends and waits for a successful receipt.
func (h *harness) tx(key *crypto.PrivateKey, to types.Address, value *big.Int, payload []byte) {
	h.t.Helper()
	ctx := context.Background()
	hash, err := SendTx(ctx, h.c, key, h.chainID, to, value, payload)
	if err != nil {
		h.t.Fatal(err)
	}
	rc, err := h.c.WaitReceipt(ctx, hash, 10*time.Millisecond)
	if err != nil || uint64(rc.Status) != types.ReceiptSuccess {
		h.t.Fatalf("receipt: %v %+v", err, rc)
	}
}

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), runner.CBY) }

// runnerDaemon makes, funds and registers runner i and opens its daemon.
func (h *harness) runnerDaemon(i int) (*Daemon, *crypto.PrivateKey) {
	h.t.Helper()
	kb := crypto.Keccak256([]byte(fmt.Sprintf("daemon-test/%d", i)))
	key, _ := crypto.PrivateKeyFromBytes(kb[:])
	d := h.open(i, key)
	funder, _ := genesis.DevKey(9)
	h.tx(funder, d.Address(), cby(20_000), nil)
	rates := map[string]*big.Int{"per_job": cby(1), "per_token": big.NewInt(0), "per_kb": big.NewInt(0)}
	h.tx(key, runner.RegistryAddress, cby(10_000), runner.Payload("register", d.URL(), []string{"sim-1"}, []string{}, rates, cby(100), uint64(0)))
	return d, key
}

func (h *harness) open(i int, key *crypto.PrivateKey) *Daemon {
	h.t.Helper()
	d, err := Open(Config{Home: filepath.Join(h.dir, fmt.Sprintf("r%d", i)), Key: key, RPC: h.c,
		Exec: executor.Kinds{runner.KindLLM: &executor.LLM{URL: h.llm}}, Listen: "127.0.0.1:0", Poll: 20 * time.Millisecond,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		h.t.Fatal(err)
	}
	return d
}

// TestAggregatorRestartsBetweenCommitAndReveal stops the aggregator right
// after its commit is on chain and reopens it on the same home: the result
// it kept in Pebble is what it reveals, so the job settles with everyone's
// answer.
func TestAggregatorRestartsBetweenCommitAndReveal(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	ds := make([]*Daemon, 3)
	keys := make([]*crypto.PrivateKey, 3)
	for i := range ds {
		ds[i], keys[i] = h.runnerDaemon(i)
	}
	defer func() {
		for _, d := range ds {
			d.Close()
		}
	}()
	input, _ := types.Marshal(map[string]any{"prompt": "Is fire hot? Answer yes or no."})
	spec, _ := types.Marshal(map[string]any{"kind": "llm", "model": "sim-1", "input": rawCBOR(input), "trust": "majority_vote",
		"committee": uint64(3), "max_price": cby(10), "timeout_blocks": uint64(40), "seed": uint64(1)})
	requester, _ := genesis.DevKey(3)
	h.tx(requester, runner.DispatcherAddress, cby(10), runner.Payload("post", rawCBOR(spec)))
	j, err := h.c.Job(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	agg := 0
	for i, d := range ds {
		if rpc.Address(d.Address()) == j.Aggregator {
			agg = i
		}
	}
	restarted := false
	for step := 0; step < 500; step++ { // a bound for waiting, not a timing assertion
		for i, d := range ds {
			if err := d.Tick(ctx); err != nil {
				if step == 0 && i == agg {
					// The aggregator's first tick commits to the open
					// job: nothing in it fails on a healthy devnet.
					t.Fatalf("first tick of the aggregator: %v", err)
				}
				t.Logf("tick %d: %v", i, err)
			}
		}
		if j, err = h.c.Job(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if !restarted && len(j.Commits[agg]) > 0 {
			ds[agg].Close() // everything it needs is already synced to Pebble
			ds[agg] = h.open(agg, keys[agg])
			restarted = true
		}
		if j.Phase == "settled" || j.Phase == "failed" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !restarted || j.Phase != "settled" || j.Output != llmsim.Answer("Is fire hot? Answer yes or no.") || len(j.Winners) != 3 {
		t.Fatalf("restarted %v, job %s %q winners %d (%s)", restarted, j.Phase, j.Output, len(j.Winners), j.Error)
	}
}

func TestPushNeedsTheMembersSignature(t *testing.T) {
	h := newHarness(t)
	d, _ := h.runnerDaemon(0)
	defer d.Close()
	other, _ := crypto.PrivateKeyFromBytes(bytes.Repeat([]byte{7}, 32))
	sig, _ := runner.SignResult(other, 1, runner.StatusOK, 1, []byte("yes"))
	sig9, _ := runner.SignResult(other, 9, runner.StatusOK, 1, []byte("yes"))
	for _, tc := range []struct {
		name   string
		body   pushed
		status int
	}{
		{"forged signature", pushed{JobID: 1, Member: d.Address().Hex(), Output: []byte("yes"), Usage: 1, Sig: sig}, http.StatusForbidden},
		{"short signature", pushed{JobID: 1, Member: d.Address().Hex(), Output: []byte("yes"), Sig: []byte{1}}, http.StatusForbidden},
		{"bad member", pushed{JobID: 1, Member: "nobody", Sig: sig}, http.StatusBadRequest},
		{"no such job", pushed{JobID: 9, Member: types.Address(other.Address()).Hex(), Output: []byte("yes"), Usage: 1, Sig: sig9}, http.StatusNotFound},
	} {
		b, _ := json.Marshal(tc.body)
		resp, err := http.Post(d.URL()+"v1/results", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status {
			t.Errorf("%s: HTTP %d, want %d", tc.name, resp.StatusCode, tc.status)
		}
	}
	resp, err := http.Get(d.URL() + "metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Contains(b, []byte("cowboy_runner_commits_total 0")) {
		t.Fatalf("metrics:\n%s", b)
	}
}

type rawCBOR []byte

func (r rawCBOR) MarshalCBOR() ([]byte, error) { return r, nil }

func TestRevealChunks(t *testing.T) {
	e := func(n int) any { return []any{nil, uint8(0), make([]byte, n), uint64(0), nil} }
	for _, tc := range []struct {
		sizes []int
		want  []int // entries per chunk
	}{
		{[]int{10, 10, 10}, []int{3}},
		{[]int{60 << 10, 60 << 10, 10}, []int{1, 2}},
		{[]int{64 << 10, 64 << 10, 64 << 10}, []int{1, 1, 1}},
		{nil, nil},
		{[]int{100 << 10}, []int{1}},          // larger than the limit: alone, no empty chunk before it
		{[]int{48 << 10, 48 << 10}, []int{2}}, // exactly the limit together
	} {
		var in []any
		for _, n := range tc.sizes {
			in = append(in, e(n))
		}
		var got []int
		for _, c := range chunks(in, maxRevealBytes) {
			got = append(got, len(c))
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%v: chunks %v, want %v", tc.sizes, got, tc.want)
		}
	}
}
