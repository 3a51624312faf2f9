package node

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/rpc"
)

// withBeacon deals a beacon key for the test network's genesis set and
// gives each validator its shares (a trusted setup, as localnet's).
func (tn *testNet) withBeacon() {
	tn.t.Helper()
	var vs []simplex.Validator
	var sks []*bls.SecretKey
	for i, v := range tn.gen.Validators {
		vs = append(vs, simplex.Validator{PublicKey: v.BLSPublicKey, Stake: v.Stake})
		sks = append(sks, tn.keys[i].BLS)
	}
	set, err := simplex.NewValidatorSet(vs)
	if err != nil {
		tn.t.Fatal(err)
	}
	key, mine, err := simplex.DealBeacon(set, sks)
	if err != nil {
		tn.t.Fatal(err)
	}
	tn.gen.Beacon = &genesis.Beacon{GroupKey: key.Group, PublicShares: key.PublicShares}
	for i := range tn.keys {
		tn.keys[i].Beacon = mine[i]
	}
}

// checkBeacon asks every running node for R_n of heights from..to: the
// source is the beacon, every node reports the same R_n and σ_n, and σ_n
// verifies against the genesis group key.
func (tn *testNet) checkBeacon(from, to uint64) {
	tn.t.Helper()
	for h := from; h <= to; h++ {
		var first *rpc.RandomnessJSON
		for i, n := range tn.running() {
			r, err := n.Randomness(h)
			if err != nil {
				tn.t.Fatalf("node %d height %d: %v", i, h, err)
			}
			if r.Source != rpc.RandomnessBeacon || r.Sigma == nil {
				tn.t.Fatalf("node %d height %d: source %q (%s)", i, h, r.Source, r.Note)
			}
			if err := simplex.CheckRandomness(tn.gen.Beacon.GroupKey, [32]byte(*r.ConsensusHash), h, uint64(*r.ConsensusRound), *r.Sigma, r.Randomness); err != nil {
				tn.t.Fatalf("node %d height %d: %v", i, h, err)
			}
			if first == nil {
				first = r
			} else if r.Randomness != first.Randomness {
				tn.t.Fatalf("height %d: nodes disagree on R_n", h)
			}
		}
	}
}

// TestBeaconNetwork runs four validators with a genesis beacon key: every
// finalized block's R_n is the threshold beacon's, the same on every node
// and verifiable; with one validator stopped (f = 1) the beacon goes on.
func TestBeaconNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a four-validator network")
	}
	tn := newTestNet(t, 4)
	tn.withBeacon()
	for i := 0; i < 4; i++ {
		tn.start(i)
	}
	tn.waitHeights(6, 60*time.Second)
	h := tn.checkAgree()
	tn.checkBeacon(1, h)
	tn.stop(3)
	h2 := tn.checkAgree()
	tn.waitHeights(h2+4, 60*time.Second)
	tn.checkBeacon(h2+1, tn.checkAgree())

	// A full node that joins late syncs the blocks with their σ, verifying
	// each against the group key, and reports the same R_n.
	keys, err := GenerateKeys(filepath.Join(tn.dir, "full"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := Open(Config{Home: filepath.Join(tn.dir, "full"), Genesis: tn.gen, Logger: quietLog(),
		Network: &NetworkConfig{Keys: keys, ListenAddr: "127.0.0.1:0", Tick: 50 * time.Millisecond, Bootstrap: []string{tn.addrs[0]}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- full.Run(ctx) }()
	tn.nodes = append(tn.nodes, full)
	tn.cancel = append(tn.cancel, cancel)
	tn.done = append(tn.done, done)
	tn.waitHeights(tn.nodes[0].Head().Height+2, 60*time.Second)
	tn.checkBeacon(1, tn.checkAgree())
}
