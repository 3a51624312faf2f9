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

// dealt is a real beacon of four validators and σ for a block at height;
// seed picks the validators' keys, so another seed is another chain (or a
// node's forgery: its own key and a σ that verifies under it).
func dealt(t *testing.T, height uint64, seed byte) (*simplex.BeaconKey, *rpc.RandomnessJSON) {
	t.Helper()
	var vs []simplex.Validator
	var sks []*bls.SecretKey
	for i := 0; i < 4; i++ {
		sk, _ := bls.GenerateKey(bytes.Repeat([]byte{seed + byte(i) + 1}, 32))
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
	key, good := dealt(t, 5, 0)
	// Height 11's epoch has the key of its DKG, not genesis's.
	_, fromDKG := dealt(t, 11, 0)
	ke := rpc.Quantity(3)
	fromDKG.KeySource, fromDKG.KeyEpoch = "dkg", &ke
	forgedDKG := *fromDKG
	og := rpc.Bytes(key.Group)
	forgedDKG.GroupKey, forgedDKG.Height = &og, 12
	// A lying node: its own key and a σ that verifies under it, for a
	// genesis-keyed block (13) and a DKG-keyed one (14).
	_, lieGenesis := dealt(t, 13, 100)
	_, lieDKG := dealt(t, 14, 100)
	lieDKG.KeySource, lieDKG.KeyEpoch = "dkg", &ke
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
	answers := map[uint64]*rpc.RandomnessJSON{5: good, 6: wrongR, 7: badSigma, 8: wrongRound, 9: vrf, 10: otherKey,
		11: fromDKG, 12: &forgedDKG, 13: lieGenesis, 14: lieDKG}
	for k, r := range map[uint64]*rpc.RandomnessJSON{6: wrongR, 7: badSigma, 8: wrongRound, 10: otherKey} {
		c := *r
		c.Height = rpc.Quantity(k)
		answers[k] = &c
	}
	srv := httptest.NewServer(rpc.NewServer(beaconChain{h.chain, answers}, rpc.Options{}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	gpath := filepath.Join(t.TempDir(), "genesis.json")
	g := genesis.Devnet()
	g.Beacon = &genesis.Beacon{GroupKey: key.Group, PublicShares: key.PublicShares}
	if err := g.Save(gpath); err != nil {
		t.Fatal(err)
	}
	gen, trust := []string{"--genesis", gpath}, []string{"--trust-node-key"}
	v := func(height string, flags ...[]string) []string {
		out := []string{"beacon", "verify", height}
		for _, f := range flags {
			out = append(out, f...)
		}
		return out
	}
	// The node's height 6..10 answers were built for height 5's block, so
	// only 5 verifies; each other one fails for its own reason.
	for _, c := range []struct {
		args []string
		want []string // in stdout
	}{
		{v("5", gen), []string{"verified", "from " + gpath}},
		{v("5", gen, []string{"--json"}), []string{`"verified": true`, `"groupKeyFromGenesis": true`, gpath}},
		{v("5", trust), []string{"verified", "from the node's word"}},
		{v("5", []string{"--home", filepath.Dir(gpath)}), []string{"verified", "from " + gpath}},
		{v("5", gen, trust), []string{"verified", "from " + gpath}},
		// With the flag a DKG-keyed block is checked under the node's key,
		// and the output says whose word that is; so is a lie.
		{v("11", gen, trust), []string{"verified", "the node's word (the epoch 3 DKG"}},
		{v("14", trust, []string{"--json"}), []string{`"groupKeyFromGenesis": false`}},
	} {
		out := h.ok(c.args...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Fatalf("cowboy %s: no %q in\n%s", strings.Join(c.args, " "), w, out)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want []string // in the error
	}{
		{v("6", gen), []string{"σ is not"}},
		{v("7", gen), []string{"σ is not"}},
		{v("8", gen), []string{"σ is not"}},
		{v("9", gen), []string{"no threshold beacon", "vrf"}},
		{v("10", gen), []string{"differs from the genesis"}},
		{v("12", gen, trust), []string{"σ is not"}},
		// The node lies about the key, with a σ its own key signed.
		{v("13", gen), []string{"differs from the genesis"}},
		{v("13"), []string{"pass --genesis FILE"}},
		{v("13", []string{"--home", filepath.Dir(gpath)}), []string{"differs from the genesis"}},
		{v("14", gen), []string{"epoch 3 DKG's", "only the node vouches", "--trust-node-key"}},
		{v("14"), []string{"epoch 3 DKG's", "--trust-node-key"}},
		{v("11", gen), []string{"epoch 3 DKG's", "--trust-node-key"}},
		{v("99", gen), nil},
		{v("x"), []string{"want a block number"}},
	} {
		h.fails(c.args, c.want...)
	}
	// The same block and σ with another R_n.
	err := simplex.CheckRandomness(key.Group, [32]byte(*good.ConsensusHash), 5, uint64(*good.ConsensusRound), *good.Sigma, wrongR.Randomness)
	if err == nil || !strings.Contains(err.Error(), "BLAKE3") {
		t.Fatalf("a wrong R_n: %v", err)
	}
}
