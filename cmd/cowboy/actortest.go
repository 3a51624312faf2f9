package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// actorTestFile is main_test.json.
type actorTestFile struct {
	// Actors are deployed first, each named by "as", so the actor under
	// test can take their addresses ("$name") as __init__ arguments.
	Actors []actorTestStep `json:"actors"`
	Deploy struct {
		File  string            `json:"file"` // the actor under test, relative to DIR; default main.py
		Args  []json.RawMessage `json:"args"`
		Value string            `json:"value"`
	} `json:"deploy"`
	Steps []actorTestStep `json:"steps"`
	// RunnerSim, when set, registers simulated runners that answer the
	// actor's off-chain jobs in each advanced block (actortest_runner.go).
	RunnerSim *runnerSimConfig `json:"runner_sim"`
}

type actorTestStep struct {
	// Deploy, when set, deploys another actor from this path (relative to
	// DIR) with Args and names it As; "$As" then stands for its address in
	// later steps' args and expectations ("$self" is the actor under test).
	Deploy      string            `json:"deploy"`
	As          string            `json:"as"`
	To          string            `json:"to"` // a name given with "as"; default the actor under test
	Call        string            `json:"call"`
	Args        []json.RawMessage `json:"args"`
	From        string            `json:"from"`
	Value       string            `json:"value"`
	Expect      json.RawMessage   `json:"expect"`
	ExpectError *string           `json:"expectError"`
	// Advance, when set, finishes this block and the next Advance−1 with
	// no transactions, so timers due in them run (docs/timers.md).
	Advance uint64 `json:"advance"`
}

// emptyState is a chain with nothing in it; the test funds the dev
// accounts on top.
type emptyState struct{}

func (emptyState) GetState(state.Key) ([]byte, error) { return nil, nil }

// runActorTest deploys DIR/main.py on an in-memory chain and runs
// DIR/main_test.json against it with the real executor.
func (a *app) runActorTest(dir string) error {
	raw, err := os.ReadFile(filepath.Join(dir, "main_test.json"))
	if err != nil {
		return fmt.Errorf("read the test: %w", err)
	}
	var tf actorTestFile
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "main_test.json"), err)
	}
	file := tf.Deploy.File
	if file == "" {
		file = "main.py"
	}
	src, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return fmt.Errorf("read the actor: %w", err)
	}
	st := state.New(emptyState{})
	for i := 0; i < genesis.DevAccounts; i++ {
		addr, err := genesis.DevAddress(i)
		if err != nil {
			return err
		}
		st.Mint(addr, new(big.Int).Set(genesis.DevBalance))
	}
	bc := &execution.BlockContext{ChainID: genesis.DevnetChainID, Height: 1, Time: genesis.DevnetGenesisTime, Basefees: execution.Basefees{Cycle: 1, Cell: 1}}
	dev0, _ := genesis.DevAddress(0)
	var sim *testRunners
	if tf.RunnerSim != nil {
		if sim, err = setupTestRunners(st, bc, tf.RunnerSim); err != nil {
			return err
		}
	}

	// "$dev0" … "$dev9" are the funded accounts' addresses.
	names := map[string]types.Address{}
	for i := 0; i < genesis.DevAccounts; i++ {
		names[fmt.Sprintf("dev%d", i)], _ = genesis.DevAddress(i)
	}
	for i, d := range tf.Actors {
		if d.Deploy == "" || d.As == "" || d.As == "self" {
			return fmt.Errorf("actors[%d]: want {\"deploy\": PATH, \"as\": NAME} (NAME not \"self\")", i)
		}
		dargs, err := substituteAll(d.Args, names)
		if err != nil {
			return fmt.Errorf("actors[%d] args: %w", i, err)
		}
		addr, err := a.testDeploy(st, bc, dev0, filepath.Join(dir, d.Deploy), dargs, byte(200+i))
		if err != nil {
			fmt.Fprintf(a.stdout, "FAIL deploy %s: %v\n", d.Deploy, err)
			return errMismatch
		}
		names[d.As] = addr
		fmt.Fprintf(a.stdout, "ok   deploy %s as %s -> %s\n", d.Deploy, d.As, addr)
	}
	if tf.Deploy.Args, err = substituteAll(tf.Deploy.Args, names); err != nil {
		return fmt.Errorf("deploy args: %w", err)
	}
	args, err := rpc.ArgsCBOR(tf.Deploy.Args)
	if err != nil {
		return fmt.Errorf("deploy args: %w", err)
	}
	value := new(big.Int)
	if tf.Deploy.Value != "" {
		if value, err = types.ParseAmount(tf.Deploy.Value); err != nil {
			return fmt.Errorf("deploy value: %w", err)
		}
	}
	payload, err := (&types.DeployPayload{Code: string(src), Salt: make([]byte, types.SaltSize), Args: args}).Encode()
	if err != nil {
		return err
	}
	rc := execution.Simulate(st, bc, dev0, nil, value, payload, fees.MaxTxCycles, fees.MaxTxCells)
	if rc.Status != types.ReceiptSuccess {
		fmt.Fprintf(a.stdout, "FAIL deploy: %s\n", rc.Error)
		return errMismatch
	}
	actor := *rc.ContractAddress
	names["self"] = actor
	fmt.Fprintf(a.stdout, "ok   deploy -> %s (%s cycles, %s cells)\n", actor, types.GroupDigits(decU(rc.CyclesUsed)), types.GroupDigits(decU(rc.CellsUsed)))

	failed := 0
	for i, s := range tf.Steps {
		bc.Height++
		bc.Time++
		if s.Args, err = substituteAll(s.Args, names); err != nil {
			return fmt.Errorf("step %d args: %w", i+1, err)
		}
		if s.Expect, err = substitute(s.Expect, names); err != nil {
			return fmt.Errorf("step %d expect: %w", i+1, err)
		}
		if s.Advance > 0 {
			if s.Call != "" || s.Deploy != "" {
				return fmt.Errorf("step %d: an advance step has no \"call\" or \"deploy\"", i+1)
			}
			if s.Advance > 100_000 {
				return fmt.Errorf("step %d: advance at most 100000 blocks", i+1)
			}
			runs, failedRuns := 0, 0
			for j := uint64(0); j < s.Advance; j++ {
				if j > 0 {
					bc.Height++
					bc.Time++
				}
				if sim != nil {
					if err := sim.answer(st, bc); err != nil {
						return fmt.Errorf("step %d: block %d: %w", i+1, bc.Height, err)
					}
				}
				r, err := execution.Build(st, bc, nil)
				if err != nil {
					return fmt.Errorf("step %d: block %d: %w", i+1, bc.Height, err)
				}
				for _, rc := range r.Timers.Receipts {
					runs++
					if rc.Status != types.ReceiptSuccess {
						failedRuns++
						fmt.Fprintf(a.stdout, "     block %d: timer %d %s failed: %s\n", bc.Height, rc.TimerID, rc.Handler, rc.Error)
					}
				}
			}
			fmt.Fprintf(a.stdout, "ok   advance %d blocks -> block %d (%d timer runs, %d failed)\n", s.Advance, bc.Height, runs, failedRuns)
			continue
		}
		if s.Deploy != "" {
			if s.As == "" || s.Call != "" {
				return fmt.Errorf("step %d: a deploy step needs \"as\" (a name) and no \"call\"", i+1)
			}
			addr, err := a.testDeploy(st, bc, dev0, filepath.Join(dir, s.Deploy), s.Args, byte(i+1))
			if err != nil {
				fmt.Fprintf(a.stdout, "FAIL deploy %s: %v\n", s.Deploy, err)
				failed++
				continue
			}
			names[s.As] = addr
			fmt.Fprintf(a.stdout, "ok   deploy %s as %s -> %s\n", s.Deploy, s.As, addr)
			continue
		}
		target := actor
		if s.To != "" {
			t, ok := names[s.To]
			if !ok {
				return fmt.Errorf("step %d: no actor deployed as %q", i+1, s.To)
			}
			target = t
		}
		from := dev0
		if s.From != "" {
			if from, err = a.resolveAddress(s.From); err != nil {
				return fmt.Errorf("step %d from: %w", i+1, err)
			}
		}
		v := new(big.Int)
		if s.Value != "" {
			if v, err = types.ParseAmount(s.Value); err != nil {
				return fmt.Errorf("step %d value: %w", i+1, err)
			}
		}
		cb, err := rpc.ArgsCBOR(s.Args)
		if err != nil {
			return fmt.Errorf("step %d args: %w", i+1, err)
		}
		pl, err := (&types.CallPayload{Method: s.Call, Args: cb}).Encode()
		if err != nil {
			return err
		}
		rc := execution.Simulate(st, bc, from, &target, v, pl, fees.MaxTxCycles, fees.MaxTxCells)
		got := rpc.CBORToJSON(rc.ReturnData)
		label := fmt.Sprintf("%s(%s)", s.Call, joinJSON(s.Args))
		if s.To != "" {
			label = s.To + "." + label
		}
		cost := fmt.Sprintf("(%s cycles, %s cells)", types.GroupDigits(decU(rc.CyclesUsed)), types.GroupDigits(decU(rc.CellsUsed)))
		switch {
		case s.ExpectError != nil && rc.Status == types.ReceiptSuccess:
			fmt.Fprintf(a.stdout, "FAIL %s returned %s, want error %q\n", label, jsonText(got), *s.ExpectError)
			failed++
		case s.ExpectError != nil && !strings.HasPrefix(rc.Error, *s.ExpectError):
			fmt.Fprintf(a.stdout, "FAIL %s failed with %q, want %q\n", label, rc.Error, *s.ExpectError)
			failed++
		case s.ExpectError != nil:
			fmt.Fprintf(a.stdout, "ok   %s raised %s %s\n", label, rc.Error, cost)
		case rc.Status != types.ReceiptSuccess:
			fmt.Fprintf(a.stdout, "FAIL %s: %s\n", label, rc.Error)
			failed++
		case s.Expect != nil && !checkReturn(got, s.Expect):
			fmt.Fprintf(a.stdout, "FAIL %s returned %s, want %s\n", label, jsonText(got), s.Expect)
			failed++
		default:
			fmt.Fprintf(a.stdout, "ok   %s -> %s %s\n", label, jsonText(got), cost)
		}
	}
	if failed > 0 {
		fmt.Fprintf(a.stdout, "%d of %d steps failed\n", failed, len(tf.Steps))
		return errMismatch
	}
	fmt.Fprintf(a.stdout, "PASS %d steps\n", len(tf.Steps))
	return nil
}

// substitute replaces every JSON string "$name" in v by the address of
// the actor deployed under that name.
func substitute(v json.RawMessage, names map[string]types.Address) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	var x any
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber() // big integers stay exact
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	var walk func(any) (any, error)
	walk = func(x any) (any, error) {
		switch t := x.(type) {
		case string:
			if name, ok := strings.CutPrefix(t, "$"); ok {
				a, ok := names[name]
				if !ok {
					return nil, fmt.Errorf("%q: no actor deployed as %q", t, name)
				}
				return a.Hex(), nil
			}
		case []any:
			for i := range t {
				var err error
				if t[i], err = walk(t[i]); err != nil {
					return nil, err
				}
			}
		case map[string]any:
			for k := range t {
				var err error
				if t[k], err = walk(t[k]); err != nil {
					return nil, err
				}
			}
		}
		return x, nil
	}
	x, err := walk(x)
	if err != nil {
		return nil, err
	}
	// json.Number keeps big integers exact through the round trip.
	return json.Marshal(x)
}

func substituteAll(args []json.RawMessage, names map[string]types.Address) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(args))
	for i, a := range args {
		var err error
		if out[i], err = substitute(a, names); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func joinJSON(args []json.RawMessage) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = string(a)
	}
	return strings.Join(parts, ", ")
}

// testDeploy deploys the actor in path for a test step, with a salt of its
// own so that the same file can be deployed twice.
func (a *app) testDeploy(st *state.StateDB, bc *execution.BlockContext, from types.Address, path string, args []json.RawMessage, salt byte) (types.Address, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return types.Address{}, err
	}
	cb, err := rpc.ArgsCBOR(args)
	if err != nil {
		return types.Address{}, err
	}
	s := make([]byte, types.SaltSize)
	s[0] = 0x7e
	s[31] = salt
	pl, err := (&types.DeployPayload{Code: string(src), Salt: s, Args: cb}).Encode()
	if err != nil {
		return types.Address{}, err
	}
	rc := execution.Simulate(st, bc, from, nil, new(big.Int), pl, fees.MaxTxCycles, fees.MaxTxCells)
	if rc.Status != types.ReceiptSuccess {
		return types.Address{}, fmt.Errorf("%s", rc.Error)
	}
	return *rc.ContractAddress, nil
}
