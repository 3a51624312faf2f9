package main

import (
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/node"
)

type validatorsOut struct {
	Height  string
	Epoch   string
	Members []struct {
		Address string
		Weight  string
	}
	Validators []struct {
		Address     string
		Status      string
		Stake       string
		UnbondUntil string
		JailUntil   string
	}
}

func (h *harness) validators(args ...string) validatorsOut {
	h.t.Helper()
	var v validatorsOut
	out := h.ok(append([]string{"validator", "list", "--json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		h.t.Fatalf("validator list --json: %v\n%s", err, out)
	}
	return v
}

// TestValidatorLifecycle runs the user's path on a devnet with 4-block
// epochs (a block per transaction): fund a fresh validator home, register,
// become active at the boundary, get caught double signing, exit, and
// withdraw after unbonding.
func TestValidatorLifecycle(t *testing.T) {
	g := genesis.Devnet()
	e, unbond := uint64(4), uint64(2)
	g.Staking = &genesis.Staking{EpochLength: &e, UnbondingPeriod: &unbond}
	h := devnetHarnessWith(t, g)
	home := filepath.Join(t.TempDir(), "val")
	keys, err := node.GenerateKeys(home)
	if err != nil {
		t.Fatal(err)
	}
	me := types.Address(keys.Node.Address())
	tick := func() { h.ok("transfer", "--from", "dev9", "--to", "dev8", "--value", "1") } // one more block

	h.ok("transfer", "--from", "dev0", "--to", me.Hex(), "--value", "5000cby") // block 1
	h.fails([]string{"validator", "register", "--home", home, "--stake", "10cby"}, "below min_validator_stake 1,000 CBY")
	h.fails([]string{"validator", "register", "--home", t.TempDir(), "--stake", "2000cby"}, "--home")
	out := h.ok("validator", "register", "--home", home, "--stake", "2000cby", "--json") // block 2
	var rc struct {
		Status string
		Events []struct {
			Name  string
			Value map[string]any
		}
	}
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		t.Fatalf("register --json: %v\n%s", err, out)
	}
	if rc.Status != "success" || len(rc.Events) != 1 || rc.Events[0].Name != "Registered" || rc.Events[0].Value["validator"] != me.Hex() {
		t.Fatalf("register receipt:\n%s", out)
	}
	v := h.validators()
	if len(v.Members) != 0 || len(v.Validators) != 1 || v.Validators[0].Status != "pending" || v.Validators[0].Address != me.Hex() {
		t.Fatalf("after register: %+v", v)
	}
	h.fails([]string{"validator", "list", "--epoch", "1"}, "no validator set for epoch 1")
	tick() // block 3: the last of epoch 0
	tick() // block 4: epoch 1
	v = h.validators()
	if v.Epoch != "0x1" || len(v.Members) != 1 || v.Members[0].Address != me.Hex() || v.Members[0].Weight != "0x7d0" || v.Validators[0].Status != "active" {
		t.Fatalf("epoch 1: %+v", v)
	}
	text := h.ok("validator", "list")
	for _, want := range []string{"Epoch 1", me.Hex(), "active", "2,000 CBY", "epoch_length 4"} {
		if !strings.Contains(text, want) {
			t.Fatalf("validator list lacks %q:\n%s", want, text)
		}
	}

	// Two votes for different blocks at one height and round.
	vote := func(hash byte) map[string]any {
		bh := types.Hash{hash}
		return map[string]any{"height": 7, "round": 1, "block_hash": bh.Hex(), "validator": me.Hex(),
			"signature": "0x" + hex.EncodeToString(keys.BLS.Sign(types.VoteMessage(bh, 7, 1)).Bytes())}
	}
	ev, err := json.Marshal(map[string]any{"vote_a": vote(1), "vote_b": vote(2)})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "ev.json")
	mustWrite(t, file, ev, 0o600)
	h.ok("validator", "evidence", file, "--from", "dev3") // block 5
	v = h.validators()
	if v.Validators[0].Status != "jailed" || v.Validators[0].Stake != "0x6b56051582a9700000" /* 1980 CBY */ {
		t.Fatalf("after evidence: %+v", v.Validators[0])
	}
	h.fails([]string{"validator", "evidence", file, "--from", "dev3"}, "already punished")

	h.ok("validator", "exit", "--home", home) // block 6
	h.fails([]string{"validator", "withdraw", "--home", home}, "leaving the set at the next epoch boundary")
	tick() // block 7: the boundary; unbonding until 8 + 2
	v = h.validators()
	if v.Validators[0].Status != "exiting" || v.Validators[0].UnbondUntil != "0xa" {
		t.Fatalf("after exit: %+v", v.Validators[0])
	}
	h.fails([]string{"validator", "withdraw", "--home", home}, "unbonding until block 10")
	tick()                                        // block 8
	tick()                                        // block 9
	h.ok("validator", "withdraw", "--home", home) // block 10
	if v = h.validators(); len(v.Validators) != 0 {
		t.Fatalf("after withdraw: %+v", v)
	}
}
