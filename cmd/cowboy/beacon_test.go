package main

import (
	"bytes"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/rpc"
)

// beaconChain is the fake chain plus cowboy_getRandomness answers.
type beaconChain struct {
	*fakeChain
	answers map[uint64]*rpc.RandomnessJSON
}

func (c beaconChain) Randomness(height uint64) (*rpc.RandomnessJSON, error) {
	if r, ok := c.answers[height]; ok {
		return r, nil
	}
	return nil, rpc.ErrNotFound
}

// dealt is a real beacon of four validators and σ for a block at height.
func dealt(t *testing.T, height uint64) (*simplex.BeaconKey, *rpc.RandomnessJSON) {
	t.Helper()
	var vs []simplex.Validator
	var sks []*bls.SecretKey
	for i := 0; i < 4; i++ {
		sk, _ := bls.GenerateKey(bytes.Repeat([]byte{byte(i + 1)}, 32))
		sks = append(sks, sk)
		vs = append(vs, simplex.Validator{PublicKey: sk.PublicKey().Bytes(), Stake: 1})
	}
	set, _ := simplex.NewValidatorSet(vs)
	key, mine, err := simplex.DealBeacon(set, sks)
	if err != nil {
		t.Fatal(err)
	}
	h, round := simplex.Hash{7, 7}, uint64(1<<32+6)
	msg := simplex.VoteMessage(h, height, round)
	parts := make([][][]byte, 4)
	for i := 1; i < 4; i++ { // validator 0 withheld its partials
		b, _ := simplex.NewBLSBeacon(set, key, i, mine[i])
		parts[i] = b.Partials(msg)
	}
	b, _ := simplex.NewBLSBeacon(set, key, -1, nil)
	sigma, err := b.Combine(parts)
	if err != nil {
		t.Fatal(err)
	}
	ch, r, e := rpc.Hash(h), rpc.Quantity(round), rpc.Quantity(1)
	s, g := rpc.Bytes(sigma), rpc.Bytes(key.Group)
	return key, &rpc.RandomnessJSON{Height: rpc.Quantity(height), Randomness: rpc.Hash(simplex.BeaconOutput(sigma)),
		Source: rpc.RandomnessBeacon, Sigma: &s, GroupKey: &g, ConsensusHash: &ch, ConsensusRound: &r, Epoch: &e}
}

func TestBeaconVerify(t *testing.T) {
	key, good := dealt(t, 5)
	// Height 11's epoch has the key of its DKG, not genesis's.
	_, fromDKG := dealt(t, 11)
	ke := rpc.Quantity(3)
	fromDKG.KeySource, fromDKG.KeyEpoch = "dkg", &ke
	forgedDKG := *fromDKG
	og := rpc.Bytes(key.Group)
	forgedDKG.GroupKey, forgedDKG.Height = &og, 12
	other, _ := bls.GenerateKey(bytes.Repeat([]byte{42}, 32))
	mod := func(f func(r *rpc.RandomnessJSON)) *rpc.RandomnessJSON {
		c := *good
		f(&c)
		return &c
	}
	wrongR := mod(func(r *rpc.RandomnessJSON) { r.Randomness[0] ^= 1 })
	badSigma := mod(func(r *rpc.RandomnessJSON) { s := rpc.Bytes(other.Sign([]byte("x")).Bytes()); r.Sigma = &s })
	wrongRound := mod(func(r *rpc.RandomnessJSON) { q := *r.ConsensusRound + 1; r.ConsensusRound = &q })
	otherKey := mod(func(r *rpc.RandomnessJSON) { g := rpc.Bytes(other.PublicKey().Bytes()); r.GroupKey = &g })
	vrf := &rpc.RandomnessJSON{Height: 9, Source: rpc.RandomnessVRF, Note: "no beacon key"}
	h := newHarness(t, 4242)
	answers := map[uint64]*rpc.RandomnessJSON{5: good, 6: wrongR, 7: badSigma, 8: wrongRound, 9: vrf, 10: otherKey, 11: fromDKG, 12: &forgedDKG}
	for k, r := range map[uint64]*rpc.RandomnessJSON{6: wrongR, 7: badSigma, 8: wrongRound, 10: otherKey} {
		c := *r
		c.Height = rpc.Quantity(k)
		answers[k] = &c
	}
	srv := httptest.NewServer(rpc.NewServer(beaconChain{h.chain, answers}, rpc.Options{}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	// The node's height 6..10 answers were built for height 5's block, so
	// only 5 verifies; each other one fails for its own reason.
	gpath := filepath.Join(t.TempDir(), "genesis.json")
	g := genesis.Devnet()
	g.Beacon = &genesis.Beacon{GroupKey: key.Group, PublicShares: key.PublicShares}
	if err := g.Save(gpath); err != nil {
		t.Fatal(err)
	}
	out := h.ok("beacon", "verify", "5")
	if !strings.Contains(out, "verified") || !strings.Contains(out, "from the node") {
		t.Fatalf("output: %s", out)
	}
	out = h.ok("beacon", "verify", "5", "--genesis", gpath, "--json")
	if !strings.Contains(out, `"verified": true`) || !strings.Contains(out, gpath) {
		t.Fatalf("json output: %s", out)
	}
	h.fails([]string{"beacon", "verify", "6"}, "σ is not")
	h.fails([]string{"beacon", "verify", "7"}, "σ is not")
	h.fails([]string{"beacon", "verify", "8"}, "σ is not")
	h.fails([]string{"beacon", "verify", "9"}, "no threshold beacon", "vrf")
	h.fails([]string{"beacon", "verify", "10", "--genesis", gpath}, "differs from the genesis")
	out = h.ok("beacon", "verify", "11", "--genesis", gpath)
	if !strings.Contains(out, "verified") || !strings.Contains(out, "the epoch 3 DKG") {
		t.Fatalf("a DKG-keyed epoch: %s", out)
	}
	h.fails([]string{"beacon", "verify", "12", "--genesis", gpath}, "σ is not")
	h.fails([]string{"beacon", "verify", "99"})
	h.fails([]string{"beacon", "verify", "x"}, "want a block number")
	// The same block and σ with another R_n.
	err := simplex.CheckRandomness(key.Group, [32]byte(*good.ConsensusHash), 5, uint64(*good.ConsensusRound), *good.Sigma, wrongR.Randomness)
	if err == nil || !strings.Contains(err.Error(), "BLAKE3") {
		t.Fatalf("a wrong R_n: %v", err)
	}
}
