package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
)

// runnerParamsHelp documents --runner-params on devnet, init and localnet.
const runnerParamsHelp = "JSON `FILE` with the runner market's parameters, the keys of genesis.json's \"runner\" object (docs/runners.md \"Parameters\")"

// loadRunnerParams reads --runner-params: a JSON object with the keys of
// genesis.json's "runner" object. Unknown keys and bad values are refused
// with the key named; "" means none (the defaults).
func loadRunnerParams(path string) (*genesis.Runner, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--runner-params: %w", err)
	}
	var r genesis.Runner
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("--runner-params %s: %w", path, err)
	}
	if _, err := (&genesis.Genesis{Runner: &r}).RunnerParams(); err != nil {
		return nil, fmt.Errorf("--runner-params %s: %w", path, err)
	}
	return &r, nil
}

// sameRunnerParams refuses to continue a devnet home whose chain runs on
// other runner parameters than --runner-params asks for: they are fixed at
// genesis, and a silent mismatch would make every job behave unexpectedly.
func sameRunnerParams(n *node.Node, g *genesis.Genesis, home string) error {
	want, err := g.RunnerParams()
	if err != nil {
		return err
	}
	have, err := n.RunnerParams()
	if err != nil {
		return fmt.Errorf("read the runner parameters of %s: %w", home, err)
	}
	if !have.Equal(want) {
		return fmt.Errorf("%s holds a devnet started with other runner parameters (--runner-params): they are fixed at genesis; use a new --home or the same parameters", home)
	}
	return nil
}
