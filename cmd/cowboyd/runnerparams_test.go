package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
)

func writeFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "runner-params.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRunnerParamsFlagRefusals: devnet, init and localnet refuse a bad
// --runner-params file before they create anything, naming the key.
func TestRunnerParamsFlagRefusals(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`{"committee": 4, "threshold": 2}`, "runner.threshold 2 must be a majority of runner.committee 4"},
		{`{"stake_floor": 0}`, "runner.stake_floor must be at least 1 CBY"},
		{`{"challenge_windw_blocks": 5}`, `unknown field "challenge_windw_blocks"`},
		{`[1]`, "cannot unmarshal array"},
	} {
		file := writeFile(t, c.body)
		for _, cmd := range [][]string{
			{"devnet", "--rpc", "127.0.0.1:0"},
			{"init"},
			{"localnet", "2", "--base-port", "23000"},
		} {
			home := filepath.Join(t.TempDir(), "home")
			out, err := run(append(cmd, "--home", home, "--runner-params", file)...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s with %s: err %v, want %q\n%s", cmd[0], c.body, err, c.want, out)
			}
			if _, err := os.Stat(home); err == nil {
				t.Errorf("%s with a bad --runner-params created %s", cmd[0], home)
			}
		}
	}
	if _, err := run("devnet", "--runner-params", filepath.Join(t.TempDir(), "none.json")); err == nil || !strings.Contains(err.Error(), "--runner-params") {
		t.Fatalf("missing file: %v", err)
	}
}

// TestRunnerParamsFlagWritesGenesis: init and localnet write the file's
// parameters into genesis.json.
func TestRunnerParamsFlagWritesGenesis(t *testing.T) {
	file := writeFile(t, `{"committee": 3, "threshold": 2, "challenge_window_blocks": 40, "stake_floor": 20000}`)
	home := filepath.Join(t.TempDir(), "val")
	if out, err := run("init", "--home", home, "--runner-params", file); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	dir := t.TempDir()
	rp, err := loadRunnerParams(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeLocalnet(dir, 2, 20000, 99, time.Second, 5, rp); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(home, genesisFile), filepath.Join(nodeHome(dir, 1), genesisFile)} {
		g, err := genesis.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := g.RunnerParams()
		if err != nil || p.Committee != 3 || p.Threshold != 2 || p.ChallengeWindowBlocks != 40 || p.StakeFloor.Cmp(genesis.BaseUnitsPerCBY) <= 0 {
			t.Fatalf("%s: runner params %+v %v", path, p, err)
		}
	}
}

// TestDevnetKeepsItsRunnerParams: a devnet's parameters are in its state
// from genesis; reopening its home with other --runner-params is refused,
// with the same ones (or the same defaults) allowed.
func TestDevnetKeepsItsRunnerParams(t *testing.T) {
	home := t.TempDir()
	custom, err := loadRunnerParams(writeFile(t, `{"committee": 3, "threshold": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	open := func(r *genesis.Runner) (*node.Node, *genesis.Genesis) {
		g := genesis.Devnet()
		g.Runner = r
		n, err := node.Open(node.Config{Home: home, Genesis: g, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		return n, g
	}
	n, g := open(custom)
	if p, err := n.RunnerParams(); err != nil || p.Committee != 3 || p.Threshold != 2 {
		t.Fatalf("devnet state holds %+v, %v", p, err)
	}
	if err := sameRunnerParams(n, g, home); err != nil {
		t.Fatal(err)
	}
	n.Close()
	n, g = open(nil)
	err = sameRunnerParams(n, g, home)
	n.Close()
	if err == nil || !strings.Contains(err.Error(), "other runner parameters") {
		t.Fatalf("reopened with the defaults: %v", err)
	}
}
