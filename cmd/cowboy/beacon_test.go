package main

import (
	"bytes"
	"math/big"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// beaconChain is the fake chain plus what a consensus node serves for
// beacon verification: randomness answers, certificates and epoch proofs.
type beaconChain struct {
	*fakeChain
	w *beaconWorld
}

func (c beaconChain) Randomness(height uint64) (*rpc.RandomnessJSON, error) {
	if r, ok := c.w.answers[height]; ok {
		return r, nil
	}
	return nil, rpc.ErrNotFound
}

func (c beaconChain) Certificate(height uint64) (*rpc.CertificateJSON, error) {
	if raw, ok := c.w.certs[height]; ok {
		return &rpc.CertificateJSON{Height: rpc.Quantity(height), Certificate: raw}, nil
	}
	return nil, rpc.ErrNotFound
}

func (c beaconChain) EpochProof(epoch uint64) (*rpc.EpochProofJSON, error) {
	if p, ok := c.w.proofs[epoch]; ok {
		return p, nil
	}
	return nil, rpc.ErrNotFound
}

// vset is a validator set with its secret keys and a beacon key dealt to it.
type vset struct {
	sks     []*bls.SecretKey
	members []staking.Member
	set     *simplex.ValidatorSet
	beacon  *simplex.BeaconKey
	shares  [][][]byte
}

func newVSet(t *testing.T, seed byte, weight uint64) *vset {
	t.Helper()
	v := &vset{}
	var vs []simplex.Validator
	for i := 0; i < 4; i++ {
		sk, err := bls.GenerateKey(bytes.Repeat([]byte{seed + byte(i)}, 32))
		if err != nil {
			t.Fatal(err)
		}
		v.sks = append(v.sks, sk)
		pk := sk.PublicKey().Bytes()
		vs = append(vs, simplex.Validator{PublicKey: pk, Possession: sk.ProvePossession().Bytes(), Stake: weight})
		stake := new(big.Int).Mul(new(big.Int).SetUint64(weight), staking.BaseUnitsPerCBY)
		v.members = append(v.members, staking.Member{Address: types.Address{seed, byte(i)}, BLSPublicKey: pk, Stake: stake, Weight: weight})
	}
	var err error
	if v.set, err = simplex.NewValidatorSet(vs); err != nil {
		t.Fatal(err)
	}
	if v.beacon, v.shares, err = simplex.DealBeacon(v.set, v.sks); err != nil {
		t.Fatal(err)
	}
	return v
}

// certify makes the certificate of a block at height in round: the
// signers' aggregate on its vote message (their keys in signedBy, named
// by index in the bitmap of a set of four) and σ from group's shares.
func certify(t *testing.T, signedBy, group *vset, signers []int, height, round uint64, anchor types.Hash) (simplex.Certified, []byte) {
	t.Helper()
	return certifyChild(t, signedBy, group, signers, simplex.Hash{byte(height)}, height, round, anchor)
}

// certifyChild is certify for a block on a given parent.
func certifyChild(t *testing.T, signedBy, group *vset, signers []int, parent simplex.Hash, height, round uint64, anchor types.Hash) (simplex.Certified, []byte) {
	t.Helper()
	payload, err := types.Marshal([]any{uint64(1_700_000_000), []any{}, anchor})
	if err != nil {
		t.Fatal(err)
	}
	b := &simplex.Block{Parent: parent, Height: height, Round: round, Payload: payload}
	msg := simplex.VoteMessage(b.Hash(), height, round)
	bm := simplex.NewBitmap(4)
	var sigs [][]byte
	for _, i := range signers {
		bm.Set(i)
		sigs = append(sigs, signedBy.sks[i].Sign(msg).Bytes())
	}
	sc, err := simplex.NewBLSScheme(nil, signedBy.set)
	if err != nil {
		t.Fatal(err)
	}
	agg, err := sc.Aggregate(sigs)
	if err != nil {
		t.Fatal(err)
	}
	parts := make([][][]byte, 4)
	for i := 0; i < 4; i++ {
		gb, err := simplex.NewBLSBeacon(group.set, group.beacon, i, group.shares[i])
		if err != nil {
			t.Fatal(err)
		}
		parts[i] = gb.Partials(msg)
	}
	gb, _ := simplex.NewBLSBeacon(group.set, group.beacon, -1, nil)
	sigma, err := gb.Combine(parts)
	if err != nil {
		t.Fatal(err)
	}
	c := simplex.Certified{Block: b, QC: &simplex.QC{BlockHash: b.Hash(), Height: height, Round: round, Signature: agg, Signers: bm, Beacon: sigma}}
	raw, err := simplex.EncodeCertified(c)
	if err != nil {
		t.Fatal(err)
	}
	return c, raw
}

// anchoredState commits the epoch's registry records into a store and
// returns the root header (at rootHeight) and the proofs a node serves.
func anchoredState(t *testing.T, epoch, rootHeight uint64, rec *staking.EpochBeacon, next []staking.Member) (types.Hash, *rpc.EpochProofJSON) {
	t.Helper()
	db, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	recRaw, err := types.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	memRaw, err := staking.EncodeDKGMembers(epoch+1, next)
	if err != nil {
		t.Fatal(err)
	}
	bk, mk := staking.EpochBeaconKey(epoch), staking.DKGMembersKey(epoch+1)
	roots, err := db.Commit(0, &store.Batch{State: []store.Write{{Key: store.Key(bk), Value: recRaw}, {Key: store.Key(mk), Value: memRaw}, {Key: store.Key{9}, Value: []byte("other")}}})
	if err != nil {
		t.Fatal(err)
	}
	hdr := &types.Header{Height: rootHeight, StateRoot: roots.State, Time: 1_700_000_000}
	out := &rpc.EpochProofJSON{Epoch: rpc.Quantity(epoch)}
	if out.Header, err = types.Marshal(hdr); err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		k     [54]byte
		value **rpc.Bytes
		proof *rpc.Bytes
	}{{bk, &out.BeaconRecord, &out.BeaconProof}, {mk, &out.NextMembers, &out.NextMembersProof}} {
		p, v, err := db.ProveValue(store.StateDB, store.Key(x.k), 0)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := p.MarshalBinary()
		b := rpc.Bytes(v)
		*x.value, *x.proof = &b, enc
	}
	return hdr.Hash(), out
}

// beaconWorld is what a node serves: honest (newBeaconWorld), or with
// forgeries swapped in by a test.
type beaconWorld struct {
	certs   map[uint64][]byte
	proofs  map[uint64]*rpc.EpochProofJSON
	answers map[uint64]*rpc.RandomnessJSON
}

// answer is the node's cowboy_getRandomness for a certified block.
func answer(c simplex.Certified, key []byte, source string, keyEpoch uint64) *rpc.RandomnessJSON {
	h, r, e, ke := rpc.Hash(c.QC.BlockHash), rpc.Quantity(c.QC.Round), rpc.Quantity(c.QC.Round>>32), rpc.Quantity(keyEpoch)
	s, g := rpc.Bytes(c.QC.Beacon), rpc.Bytes(key)
	return &rpc.RandomnessJSON{Height: rpc.Quantity(c.Block.Height), Randomness: rpc.Hash(simplex.BeaconOutput(c.QC.Beacon)),
		Source: rpc.RandomnessBeacon, Sigma: &s, GroupKey: &g, ConsensusHash: &h, ConsensusRound: &r, Epoch: &e, KeySource: source, KeyEpoch: &ke}
}

const testEpochLen = 10

func TestBeaconVerify(t *testing.T) {
	// Genesis set A (key dealt at genesis) runs epoch 0; DKG(1), opened at
	// genesis, makes set B and its key for epoch 1.
	a, b := newVSet(t, 1, 1000), newVSet(t, 40, 2000)
	forger := newVSet(t, 80, 2000) // keys nobody trusts
	all := []int{0, 1, 2, 3}
	anchor0, proof0 := anchoredState(t, 0, 0, &staking.EpochBeacon{Epoch: 0, Source: staking.BeaconGenesis, Group: a.beacon.Group, PublicShares: a.beacon.PublicShares}, b.members)
	rec1 := &staking.EpochBeacon{Epoch: 1, Source: staking.BeaconDKG, KeyEpoch: 1, Group: b.beacon.Group, PublicShares: b.beacon.PublicShares, Qualified: []uint64{0, 1, 2, 3}}
	anchor1, proof1 := anchoredState(t, 1, 9, rec1, b.members)
	e0, e1 := uint64(0), uint64(1)<<32
	_, first0 := certify(t, a, a, all, 1, e0+1, anchor0)
	c5, raw5 := certify(t, a, a, []int{0, 1, 3}, 5, e0+5, anchor0)
	_, first1 := certify(t, b, b, all, 10, e1+1, anchor1)
	c15, raw15 := certify(t, b, b, all, 15, e1+6, anchor1)
	// Block 15 is final: its child 16 is certified in the next round.
	_, raw16 := certifyChild(t, b, b, all, c15.QC.BlockHash, 16, e1+7, anchor1)
	honest := func() *beaconWorld {
		return &beaconWorld{
			certs:   map[uint64][]byte{1: first0, 5: raw5, 10: first1, 15: raw15, 16: raw16},
			proofs:  map[uint64]*rpc.EpochProofJSON{0: proof0, 1: proof1},
			answers: map[uint64]*rpc.RandomnessJSON{5: answer(c5, a.beacon.Group, "genesis", 0), 15: answer(c15, b.beacon.Group, "dkg", 1)},
		}
	}

	h := newHarness(t, 4242)
	world := honest()
	srv := httptest.NewServer(rpc.NewServer(beaconChain{h.chain, nil}.with(&world), rpc.Options{}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	gpath := filepath.Join(t.TempDir(), "genesis.json")
	g := genesis.Devnet()
	g.Staking = &genesis.Staking{EpochLength: ptr(uint64(testEpochLen))}
	for i, m := range a.members {
		g.Validators = append(g.Validators, genesis.Validator{Address: m.Address, BLSPublicKey: m.BLSPublicKey, Possession: a.sks[i].ProvePossession().Bytes(), Stake: m.Weight})
	}
	g.Beacon = &genesis.Beacon{GroupKey: a.beacon.Group, PublicShares: a.beacon.PublicShares}
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
	for _, c := range []struct {
		args []string
		want []string // in stdout
	}{
		{v("5", gen), []string{"verified", "from " + gpath, "1 epoch(s)", "genesis key", "finality not proven"}},
		{v("15", gen), []string{"verified", "from " + gpath, "2 epoch(s)", "dkg key", "finality proven: block 16"}},
		{v("15", gen, []string{"--json"}), []string{`"verified": true`, `"groupKeyFromGenesis": true`, `"final": true`}},
		{v("5", gen, []string{"--json"}), []string{`"verified": true`, `"final": false`}},
		{v("15", []string{"--home", filepath.Dir(gpath)}), []string{"verified", "2 epoch(s)"}},
		{v("15", trust), []string{"verified", "from the node's word"}},
	} {
		out := h.ok(c.args...)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Fatalf("cowboy %s: no %q in\n%s", strings.Join(c.args, " "), w, out)
			}
		}
	}

	// Each forgery below is consistent as far as the forger can make it:
	// it rebuilds states, headers, proofs, certificates and σ with the
	// keys it holds (set F and F's beacon key), and refused each time.
	forgedRec := *rec1
	forgedRec.Group, forgedRec.PublicShares = forger.beacon.Group, forger.beacon.PublicShares
	anchorF, proofF := anchoredState(t, 1, 9, &forgedRec, b.members)
	_, forgedNext0 := anchoredState(t, 0, 0, &staking.EpochBeacon{Epoch: 0, Source: staking.BeaconGenesis, Group: a.beacon.Group, PublicShares: a.beacon.PublicShares}, forger.members)
	cF, rawF15 := certify(t, b, forger, all, 15, e1+6, anchor1) // B's votes (copied), F's σ: a σ no quorum of B's shares made
	tampered := *proof1
	tamperedRec, _ := types.Marshal(&forgedRec)
	tr := rpc.Bytes(tamperedRec)
	tampered.BeaconRecord = &tr
	// A child on another parent, or certified a round later, proves
	// nothing: the block still verifies, its finality is not proven.
	for _, child := range []func() []byte{
		func() []byte { _, raw := certify(t, b, b, all, 16, e1+7, anchor1); return raw },
		func() []byte { _, raw := certifyChild(t, b, b, all, c15.QC.BlockHash, 16, e1+8, anchor1); return raw },
	} {
		world = honest()
		world.certs[16] = child()
		if out := h.ok(v("15", gen)...); !strings.Contains(out, "verified") || !strings.Contains(out, "finality not proven") {
			t.Fatalf("an unlinked or late child:\n%s", out)
		}
	}
	for _, c := range []struct {
		name   string
		forge  func(w *beaconWorld)
		height string
		want   []string
	}{
		{"forged key, honest anchor", func(w *beaconWorld) {
			w.proofs[1] = proofF
			w.answers[15] = answer(c15, forger.beacon.Group, "dkg", 1)
		}, "15", []string{"root header", "not the one epoch 1's certified blocks anchor"}},
		{"forged key, anchor re-signed by the forger", func(w *beaconWorld) {
			w.proofs[1] = proofF
			_, w.certs[10] = certify(t, forger, forger, all, 10, e1+1, anchorF)
			c, raw := certify(t, forger, forger, all, 15, e1+6, anchorF)
			w.certs[15], w.answers[15] = raw, answer(c, forger.beacon.Group, "dkg", 1)
		}, "15", []string{"certificate of block 10", "aggregate signature does not verify"}},
		{"forged record, proof unchanged", func(w *beaconWorld) { w.proofs[1] = &tampered }, "15", []string{"store proof"}},
		{"forged next set, honest anchor", func(w *beaconWorld) { w.proofs[0] = forgedNext0 }, "15", []string{"epoch 0", "root header"}},
		{"forged next set, anchor re-signed by the forger", func(w *beaconWorld) {
			w.proofs[0] = forgedNext0
			var h0 types.Header
			if err := types.Unmarshal(forgedNext0.Header, &h0); err != nil {
				t.Fatal(err)
			}
			_, w.certs[1] = certify(t, forger, a, all, 1, e0+1, h0.Hash())
		}, "15", []string{"certificate of block 1", "aggregate signature does not verify"}},
		{"σ from another key on B's certificate", func(w *beaconWorld) {
			w.certs[15], w.answers[15] = rawF15, answer(cF, forger.beacon.Group, "dkg", 1)
		}, "15", []string{"group key differs from the one proven"}},
		{"σ from another key, node names the proven key", func(w *beaconWorld) {
			w.certs[15], w.answers[15] = rawF15, answer(cF, b.beacon.Group, "dkg", 1)
		}, "15", []string{"σ is not"}},
		{"too little stake", func(w *beaconWorld) {
			c, raw := certify(t, b, b, []int{0, 1}, 15, e1+6, anchor1)
			w.certs[15], w.answers[15] = raw, answer(c, b.beacon.Group, "dkg", 1)
		}, "15", []string{"at most 2/3"}},
		{"half the stake in epoch 0", func(w *beaconWorld) {
			_, w.certs[1] = certify(t, a, a, []int{0, 2}, 1, e0+1, anchor0)
		}, "5", []string{"certificate of block 1", "at most 2/3"}},
		{"the previous epoch's set", func(w *beaconWorld) {
			c, raw := certify(t, a, b, all, 15, e1+6, anchor1)
			w.certs[15], w.answers[15] = raw, answer(c, b.beacon.Group, "dkg", 1)
		}, "15", []string{"certificate of block 15", "aggregate signature does not verify"}},
		{"a certificate of another epoch's round", func(w *beaconWorld) {
			c, raw := certify(t, b, b, all, 15, e0+15, anchor1)
			w.certs[15], w.answers[15] = raw, answer(c, b.beacon.Group, "dkg", 1)
		}, "15", []string{"not of epoch 1's consensus"}},
		{"wrong R_n", func(w *beaconWorld) { w.answers[15].Randomness[0] ^= 1 }, "15", []string{"BLAKE3"}},
		{"another block in the randomness answer", func(w *beaconWorld) {
			w.answers[15].ConsensusHash = &rpc.Hash{1}
		}, "15", []string{"names another block"}},
		{"no epoch proofs", func(w *beaconWorld) { delete(w.proofs, 1) }, "15", []string{"no anchor proofs for epoch"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			world = honest()
			// The answers are shared with honest(); copy before forging.
			for k, r := range world.answers {
				cp := *r
				world.answers[k] = &cp
			}
			c.forge(world)
			h.fails(v(c.height, gen), c.want...)
		})
	}
	world = honest()
	vrf := &rpc.RandomnessJSON{Height: 9, Source: rpc.RandomnessVRF, Note: "no beacon key"}
	world.answers[9] = vrf
	for _, c := range []struct {
		args []string
		want []string
	}{
		{v("9", gen), []string{"no threshold beacon", "vrf"}},
		{v("15"), []string{"pass --genesis FILE"}},
		{v("99", gen), nil},
		{v("x"), []string{"want a block number"}},
	} {
		h.fails(c.args, c.want...)
	}
}

// with makes the chain serve whatever *w points to at each request.
func (c beaconChain) with(w **beaconWorld) rpcBeaconChain { return rpcBeaconChain{c.fakeChain, w} }

// rpcBeaconChain serves the current world of a test.
type rpcBeaconChain struct {
	*fakeChain
	w **beaconWorld
}

func (c rpcBeaconChain) Randomness(height uint64) (*rpc.RandomnessJSON, error) {
	return beaconChain{c.fakeChain, *c.w}.Randomness(height)
}

func (c rpcBeaconChain) Certificate(height uint64) (*rpc.CertificateJSON, error) {
	return beaconChain{c.fakeChain, *c.w}.Certificate(height)
}

func (c rpcBeaconChain) EpochProof(epoch uint64) (*rpc.EpochProofJSON, error) {
	return beaconChain{c.fakeChain, *c.w}.EpochProof(epoch)
}

func ptr[T any](v T) *T { return &v }
