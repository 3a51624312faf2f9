package node

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/system/staking"
)

// cby is n whole CBY in base units.
func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// sendSigned signs and submits a transaction from key to `to` with the
// fee estimate the CLI would use.
func sendSigned(t *testing.T, via *Node, key *crypto.PrivateKey, to types.Address, value *big.Int, payload []byte) types.Hash {
	t.Helper()
	from := types.Address(key.Address())
	est, err := via.EstimateFees(&from, &to, value, payload)
	if err != nil {
		t.Fatalf("estimate: %v", err)
	}
	nonce, err := via.PendingNonce(from)
	if err != nil {
		t.Fatal(err)
	}
	tx := &types.Tx{ChainID: via.ChainID(), Nonce: nonce, To: &to, Value: value,
		CyclesLimit: est.CyclesLimit, CellsLimit: est.CellsLimit,
		MaxFeePerCycle: est.MaxFeePerCycle, MaxFeePerCell: est.MaxFeePerCell,
		TipPerCycle: est.TipPerCycle, TipPerCell: est.TipPerCell, Payload: payload}
	tx.Sign(key)
	if err := via.SendTransaction(tx); err != nil {
		t.Fatalf("send: %v", err)
	}
	return tx.Hash()
}

// startExtra opens and runs a node that is not in the genesis validator
// set (keys in its own home), as tn.nodes[len].
func (tn *testNet) startExtra(name string) (*Node, *NodeKeys) {
	tn.t.Helper()
	home := filepath.Join(tn.dir, name)
	keys, err := GenerateKeys(home)
	if err != nil {
		tn.t.Fatal(err)
	}
	n, err := Open(Config{Home: home, Genesis: tn.gen, Logger: quietLog(), BlockTime: 100 * time.Millisecond,
		Network: &NetworkConfig{Keys: keys, ListenAddr: "127.0.0.1:0", Tick: 50 * time.Millisecond, TimeoutTicks: 20}})
	if err != nil {
		tn.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.Run(ctx) }()
	tn.nodes = append(tn.nodes, n)
	tn.cancel = append(tn.cancel, cancel)
	tn.done = append(tn.done, done)
	return n, keys
}

// TestEpochsChangeTheValidatorSet: with 8-block epochs and four genesis
// validators of 1,000 CBY, a fifth node starts as a full node, stakes
// 3,000 CBY through the registry, and from the next epoch boundary on
// validates: it proposes finalized blocks, and its vote counts (with two
// genesis validators stopped, 2,000 + 3,000 of 7,000 is a quorum only with
// it). Every node crosses the
// boundaries with the same blocks, and a full node that starts late
// syncs across them, each epoch's last block proven final by the stored
// epoch proof.
func TestEpochsChangeTheValidatorSet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a five-validator network for ~30 s")
	}
	tn := newTestNet(t, 4)
	epochLen, minStake := uint64(8), uint64(1000)
	tn.gen.Staking = &genesis.Staking{EpochLength: &epochLen, MinValidatorStake: &minStake}
	for i := range tn.gen.Validators {
		tn.gen.Validators[i].Stake = minStake
	}
	for i := 0; i < 4; i++ {
		tn.start(i)
	}
	joiner, keys := tn.startExtra("joiner")
	addr := types.Address(keys.Node.Address())
	if ci, _ := joiner.Consensus(); ci.Validator != -1 {
		t.Fatalf("joiner validates before staking: %+v", ci)
	}
	fund := sendSigned(t, tn.nodes[0], devKey(t, 0), addr, cby(5000), []byte{})
	tn.waitReceipt(fund, 30*time.Second)

	pop := keys.BLS.ProvePossession()
	payload, err := types.Marshal([]any{"register", keys.BLS.PublicKey().Bytes(), pop.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	reg := sendSigned(t, joiner, keys.Node, staking.Address, cby(3000), payload)
	tn.waitReceipt(reg, 30*time.Second)
	rc, loc, err := tn.nodes[0].Receipt(reg)
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("register: %+v %v", rc, err)
	}
	regHeight := loc.Height

	// From the next boundary on the joiner is in the set.
	active := (regHeight/epochLen + 1) * epochLen
	tn.waitHeights(active+2, 60*time.Second)
	ci, _ := joiner.Consensus()
	if ci.Validator < 0 {
		t.Fatalf("joiner not validating at height %d (registered at %d): %+v", joiner.Head().Height, regHeight, ci)
	}
	st := tn.nodes[0].newState()
	es, err := staking.ReadEpochSet(st, active/epochLen)
	if err != nil || len(es.Members) != 5 {
		t.Fatalf("epoch %d set: %+v %v", active/epochLen, es, err)
	}

	deadline := time.Now().Add(60 * time.Second)
	for proposed := false; !proposed; {
		for h := active; h <= tn.nodes[0].Head().Height; h++ {
			b, err := tn.nodes[0].BlockByNumber(h)
			if err == nil && b.Header.Proposer == addr {
				proposed = true
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the joiner proposed no finalized block from height %d to %d", active, tn.nodes[0].Head().Height)
		}
		time.Sleep(100 * time.Millisecond)
	}
	tn.checkAgree()

	// Its vote is needed now: with two genesis validators stopped the rest
	// hold 5,000 of 7,000 only with it.
	tn.stop(2)
	tn.stop(3)
	h := tn.checkAgree()
	tn.waitHeights(h+3, 60*time.Second)
	tn.checkAgree()

	// A full node started now syncs across every boundary so far.
	late, _ := tn.startExtra("late")
	tn.waitHeights(tn.nodes[0].Head().Height+2, 60*time.Second)
	tn.checkAgree()
	if ci, _ := late.Consensus(); ci.Synced == 0 {
		t.Fatalf("late node did not sync: %+v", ci)
	}
}
