package genesis

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
)

func u(v uint64) *uint64 { return &v }

// TestRunnerParamsDefaults: a genesis without "runner", one with an empty
// object and one that writes every default are the same chain, with the
// defaults of §13 in force and no record written at genesis.
func TestRunnerParamsDefaults(t *testing.T) {
	d := runner.DefaultParams()
	if d.StakeFloor.Cmp(new(big.Int).Mul(big.NewInt(10_000), BaseUnitsPerCBY)) != 0 || d.Committee != 5 || d.Threshold != 3 ||
		d.MinSelfBondBps != 1_000 || d.UnbondingBlocks != 7_200 || d.ChallengeWindowBlocks != 900 ||
		d.ChallengeBond.Cmp(new(big.Int).Mul(big.NewInt(100), BaseUnitsPerCBY)) != 0 || d.MaxDelegators != 200 || d.MaxTranches != 8 {
		t.Fatalf("defaults differ from §13: %+v", d)
	}
	plain := Devnet()
	empty := Devnet()
	empty.Runner = &Runner{}
	written := Devnet()
	written.Runner = &Runner{StakeFloor: u(10_000), MinSelfBondBps: u(1_000), UnbondingBlocks: u(7_200), MaxDelegators: u(200),
		MaxTranches: u(8), ModelDeposit: u(1_000), Committee: u(5), Threshold: u(3), MaxCommittee: u(9), ReexecutionCommittee: u(3),
		MinTimeoutBlocks: u(6), DefaultTimeoutBlocks: u(50), MaxTimeoutBlocks: u(7_200), AggregatorTimeoutBlocks: u(2),
		ChallengeWindowBlocks: u(900), ChallengeBond: u(100), SlashBps: u(1_000), AggregatorBonusBps: u(500),
		InitialReputation: u(5_000), MinReputation: u(1_000), RepSuccess: u(100), RepTimeout: u(500), RepInvalid: u(1_000),
		RepSlashed: u(3_000), RepUsage: u(1_000), UsageReviewBps: u(20_000)}
	for _, g := range []*Genesis{empty, written} {
		if g.Hash() != plain.Hash() {
			t.Fatalf("runner %+v changed the genesis hash", g.Runner)
		}
		p, err := g.RunnerParams()
		if err != nil || !p.Equal(d) {
			t.Fatalf("params %+v, %v", p, err)
		}
		st := state.New(memReader{})
		if err := g.Apply(st); err != nil {
			t.Fatal(err)
		}
		w, err := st.Writes()
		if err != nil {
			t.Fatal(err)
		}
		base := state.New(memReader{})
		if err := plain.Apply(base); err != nil {
			t.Fatal(err)
		}
		bw, _ := base.Writes()
		if len(w) != len(bw) {
			t.Fatalf("default runner params wrote %d keys, no runner object %d", len(w), len(bw))
		}
	}
}

// TestRunnerParamsInState: genesis.json's "runner" object survives a save
// and load, changes the chain's hash, and is what the market reads from
// block 0's state.
func TestRunnerParamsInState(t *testing.T) {
	g := Devnet()
	g.Runner = &Runner{StakeFloor: u(500), Committee: u(3), Threshold: u(2), ChallengeWindowBlocks: u(20), ChallengeBond: u(7)}
	path := filepath.Join(t.TempDir(), "genesis.json")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(strings.Join(strings.Fields(string(raw)), ""), `"stake_floor":500`) {
		t.Fatalf("genesis.json has no runner.stake_floor:\n%s", raw)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != g.Hash() || g.Hash() == Devnet().Hash() {
		t.Fatal("runner parameters do not identify the chain")
	}
	st := state.New(memReader{})
	if err := back.Apply(st); err != nil {
		t.Fatal(err)
	}
	p, err := runner.LoadParams(st)
	if err != nil {
		t.Fatal(err)
	}
	want := runner.DefaultParams()
	want.StakeFloor = new(big.Int).Mul(big.NewInt(500), BaseUnitsPerCBY)
	want.ChallengeBond = new(big.Int).Mul(big.NewInt(7), BaseUnitsPerCBY)
	want.Committee, want.Threshold, want.ChallengeWindowBlocks = 3, 2, 20
	if !p.Equal(want) {
		t.Fatalf("state holds %+v, want %+v", p, want)
	}
}

// TestRunnerParamsRefused: every bad value is refused when the genesis is
// loaded, with the key it comes from.
func TestRunnerParamsRefused(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"stake_floor": 0}`, "runner.stake_floor must be at least 1 CBY"},
		{`{"stake_floor": 2000000000000}`, "runner.stake_floor 2000000000000: at most"},
		{`{"challenge_bond": 0}`, "runner.challenge_bond must be at least 1 CBY"},
		{`{"min_self_bond_bps": 0}`, "runner.min_self_bond_bps 0: want 1 … 10000"},
		{`{"slash_bps": 10001}`, "runner.slash_bps 10001"},
		{`{"committee": 7}`, "runner.threshold 3 must be a majority of runner.committee 7"},
		{`{"committee": 3, "threshold": 1}`, "runner.threshold 1 must be a majority of runner.committee 3"},
		{`{"committee": 10}`, "runner.committee 10: want 1 … 9"},
		{`{"max_committee": 16}`, "runner.max_committee 16: want 1 … 15"},
		{`{"reexecution_committee": 0}`, "runner.reexecution_committee 0"},
		{`{"unbonding_blocks": 0}`, "runner.unbonding_blocks 0"},
		{`{"challenge_window_blocks": 0}`, "runner.challenge_window_blocks 0"},
		{`{"aggregator_timeout_blocks": 3}`, "runner.min_timeout_blocks 6 leaves no room for individual reveals after aggregator_timeout_blocks 3: want at least 7"},
		{`{"default_timeout_blocks": 5}`, "runner.default_timeout_blocks 5 must be within"},
		{`{"max_timeout_blocks": 40}`, "runner.default_timeout_blocks 50 must be within min_timeout_blocks 6 … max_timeout_blocks 40"},
		{`{"initial_reputation": 500}`, "runner.initial_reputation 500: want 1000 … 10000"},
		{`{"usage_review_bps": 9999}`, "runner.usage_review_bps 9999: want 10000"},
		{`{"committe": 3}`, `unknown field "committe"`},
		{`{"committee": -1}`, "cannot unmarshal"},
	} {
		t.Run(c.json, func(t *testing.T) {
			g := Devnet()
			b, err := json.Marshal(g)
			if err != nil {
				t.Fatal(err)
			}
			doc := strings.Replace(string(b), `"chain_id"`, `"runner": `+c.json+`, "chain_id"`, 1)
			path := filepath.Join(t.TempDir(), "genesis.json")
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Load(path)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}
