package node

import (
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestInvalidProposalJailed: one of four validators proposes payloads that
// are not the canonical [time, [tx…]]. The others refuse them, submit the
// signed proposal as evidence, and the registry jails the proposer
// without slashing it; at the next boundary it leaves the set, and the
// chain goes on.
func TestInvalidProposalJailed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a four-validator network")
	}
	tn := newTestNet(t, 4)
	epochLen, minStake := uint64(10), uint64(1000)
	tn.gen.Staking = &genesis.Staking{EpochLength: &epochLen, MinValidatorStake: &minStake}
	for i := range tn.gen.Validators {
		tn.gen.Validators[i].Stake = minStake
		tn.gen.Alloc = append(tn.gen.Alloc, genesis.Alloc{Address: tn.gen.Validators[i].Address, Balance: cby(100)})
	}
	for i := 0; i < 3; i++ {
		tn.start(i)
	}
	byz := tn.open(3)
	byz.net.mangle = func(enc []byte) []byte { return append(enc, 0x00) } // trailing byte: not canonical
	tn.run(3, byz)
	bad := tn.gen.Validators[3].Address

	deadline := time.Now().Add(90 * time.Second)
	var v *staking.Validator
	for {
		var err error
		if v, err = staking.ReadValidator(tn.nodes[0].newState(), bad); err != nil {
			t.Fatal(err)
		}
		if v.Jailed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("validator 3 not jailed by height %d", tn.nodes[0].Head().Height)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if v.Stake.Cmp(cby(int64(minStake))) != 0 {
		t.Fatalf("jailed validator's stake %s: invalid proposals jail without slashing", v.Stake)
	}
	// The evidence transaction is in the chain, with the registry's event.
	// The state can show the jail a moment before Head() names the block
	// that did it (the store commits, then the head moves), so the scan
	// goes on over new blocks until the deadline.
	found := false
	for h := uint64(1); !found; h++ {
		for h > tn.nodes[0].Head().Height {
			if time.Now().After(deadline) {
				t.Fatal("no successful invalid_proposal transaction in the chain")
			}
			time.Sleep(50 * time.Millisecond)
		}
		b, err := tn.nodes[0].BlockByNumber(h)
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range b.Txs {
			rc, _, err := tn.nodes[0].Receipt(tx.Hash())
			if err == nil && rc.Status == types.ReceiptSuccess && len(rc.Events) == 1 && rc.Events[0].Name == "JailedInvalidProposal" {
				found = true
			}
		}
	}
	// From the next boundary on the set has three members; blocks go on.
	next := (tn.nodes[0].Head().Height/epochLen + 1) * epochLen
	tn.waitHeights(next+2, 90*time.Second)
	es, err := staking.ReadEpochSet(tn.nodes[0].newState(), next/epochLen)
	if err != nil || len(es.Members) != 3 {
		t.Fatalf("epoch %d set: %+v %v", next/epochLen, es, err)
	}
	tn.checkAgree()
}
