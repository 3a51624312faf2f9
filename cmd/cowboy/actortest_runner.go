package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// runnerSimConfig is main_test.json's "runner_sim": simulated runners on
// the in-memory chain that answer LLM jobs (models sim-1 and sim-2) with
// runner/llmsim's deterministic rules, as `cowboyd devnet --runner-sim`
// does; Faults maps a runner's index to "lie" or "timeout".
type runnerSimConfig struct {
	Runners int               `json:"runners"`
	Faults  map[string]string `json:"faults"`
}

// testRunners is the simulated committee of an actor test.
type testRunners struct {
	keys   []*crypto.PrivateKey
	faults map[types.Address]string
}

// setupTestRunners registers the simulated runners with 10,000 CBY each
// (minted on the in-memory chain).
func setupTestRunners(st *state.StateDB, bc *execution.BlockContext, cfg *runnerSimConfig) (*testRunners, error) {
	if cfg.Runners < 1 || cfg.Runners > 16 {
		return nil, fmt.Errorf("runner_sim.runners %d: want 1 … 16", cfg.Runners)
	}
	tr := &testRunners{faults: map[types.Address]string{}}
	rates := map[string]*big.Int{"per_job": big.NewInt(1e16), "per_token": big.NewInt(1e14), "per_kb": big.NewInt(1e14)}
	for i := 0; i < cfg.Runners; i++ {
		h := crypto.Keccak256([]byte("cowboy/runner-sim/" + strconv.Itoa(i)))
		k, err := crypto.PrivateKeyFromBytes(h[:])
		if err != nil {
			return nil, err
		}
		a := types.Address(k.Address())
		stake := new(big.Int).Mul(big.NewInt(10_000), runner.CBY)
		st.Mint(a, stake)
		if _, err := runner.Apply(st, runner.Call{To: runner.RegistryAddress, From: a, Value: stake, Height: bc.Height, Cycles: 1_000_000,
			Payload: runner.Payload("register", "http://127.0.0.1:1/", []string{"sim-1", "sim-2"}, []string{}, rates,
				new(big.Int).Mul(big.NewInt(1_000), runner.CBY), uint64(0))}); err != nil {
			return nil, fmt.Errorf("runner_sim: %w", err)
		}
		tr.keys = append(tr.keys, k)
	}
	for i, f := range cfg.Faults {
		n, err := strconv.Atoi(i)
		if err != nil || n < 0 || n >= cfg.Runners || (f != "lie" && f != "timeout") {
			return nil, fmt.Errorf("runner_sim.faults %q: %q: want an index below %d and \"lie\" or \"timeout\"", i, f, cfg.Runners)
		}
		tr.faults[types.Address(tr.keys[n].Address())] = f
	}
	return tr, nil
}

// answer has every simulated member of every open job commit its answer
// and then reveal it, in the block bc (as their transactions would).
func (tr *testRunners) answer(st *state.StateDB, bc *execution.BlockContext) error {
	for id := runner.JobCount(st); id >= 1; id-- {
		j, err := runner.ReadJob(st, id)
		if err != nil {
			return err
		}
		if j == nil || (j.Phase != runner.PhaseCommitting && j.Phase != runner.PhaseRevealing) {
			continue
		}
		var in struct {
			Prompt string `json:"prompt"`
		}
		var v map[string]any
		if types.Unmarshal(j.Spec.Input, &v) == nil {
			b, _ := json.Marshal(v)
			json.Unmarshal(b, &in)
		}
		var entries []any
		for i, m := range j.Members {
			var k *crypto.PrivateKey
			for _, key := range tr.keys {
				if types.Address(key.Address()) == m {
					k = key
				}
			}
			if k == nil || tr.faults[m] == "timeout" {
				continue
			}
			resp, _, msg := llmsim.Complete(llmsim.Request{Model: j.Spec.Model, Messages: []llmsim.Message{{Role: "user", Content: in.Prompt}}, MaxTokens: int(j.Spec.MaxTokens)})
			status, out, usage := runner.StatusOK, []byte(msg), uint64(0)
			if resp == nil {
				status = runner.StatusExternal
			} else {
				out, usage = []byte(resp.Choices[0].Message.Content), uint64(resp.Usage.TotalTokens)
			}
			if tr.faults[m] == "lie" {
				out = append([]byte("NOT "), out...)
			}
			sig, cm := runner.SignResult(k, j.ID, status, usage, out)
			if j.Phase == runner.PhaseCommitting && len(j.Commits[i]) == 0 {
				if _, err := runner.Apply(st, runner.Call{To: runner.VerifierAddress, From: m, Height: bc.Height, Cycles: 1_000_000,
					Payload: runner.Payload("commit", j.ID, cm[:])}); err != nil {
					return fmt.Errorf("runner_sim commit to job %d: %w", j.ID, err)
				}
			}
			entries = append(entries, []any{m[:], status, out, usage, sig})
		}
		if j, err = runner.ReadJob(st, id); err != nil {
			return err
		}
		if j.Phase != runner.PhaseRevealing {
			continue
		}
		var todo []any
		for _, e := range entries {
			m := types.Address(e.([]any)[0].([]byte))
			for i, mm := range j.Members {
				if mm == m && j.Reveals[i] == nil {
					todo = append(todo, e)
				}
			}
		}
		if len(todo) > 0 {
			if _, err := runner.Apply(st, runner.Call{To: runner.VerifierAddress, From: j.Aggregator, Height: bc.Height, Cycles: 10_000_000,
				Payload: runner.Payload("reveal", j.ID, todo)}); err != nil {
				return fmt.Errorf("runner_sim reveal of job %d: %w", j.ID, err)
			}
		}
	}
	return st.Err()
}
