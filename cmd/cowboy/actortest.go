package main

import (
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
	Deploy struct {
		Args  []json.RawMessage `json:"args"`
		Value string            `json:"value"`
	} `json:"deploy"`
	Steps []actorTestStep `json:"steps"`
}

type actorTestStep struct {
	Call        string            `json:"call"`
	Args        []json.RawMessage `json:"args"`
	From        string            `json:"from"`
	Value       string            `json:"value"`
	Expect      json.RawMessage   `json:"expect"`
	ExpectError *string           `json:"expectError"`
}

// emptyState is a chain with nothing in it; the test funds the dev
// accounts on top.
type emptyState struct{}

func (emptyState) GetState(state.Key) ([]byte, error) { return nil, nil }

// runActorTest deploys DIR/main.py on an in-memory chain and runs
// DIR/main_test.json against it with the real executor.
func (a *app) runActorTest(dir string) error {
	src, err := os.ReadFile(filepath.Join(dir, "main.py"))
	if err != nil {
		return fmt.Errorf("read the actor: %w", err)
	}
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
	fmt.Fprintf(a.stdout, "ok   deploy -> %s (%s cycles, %s cells)\n", actor, types.GroupDigits(decU(rc.CyclesUsed)), types.GroupDigits(decU(rc.CellsUsed)))

	failed := 0
	for i, s := range tf.Steps {
		bc.Height++
		bc.Time++
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
		rc := execution.Simulate(st, bc, from, &actor, v, pl, fees.MaxTxCycles, fees.MaxTxCells)
		got := rpc.CBORToJSON(rc.ReturnData)
		label := fmt.Sprintf("%s(%s)", s.Call, joinJSON(s.Args))
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

func joinJSON(args []json.RawMessage) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = string(a)
	}
	return strings.Join(parts, ", ")
}
