package node

import (
	"context"
	"errors"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store/verifier"
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

// TestDoubleSignEvidenceSlashes: anyone (here dev0) submits two votes that
// validator 3 signed for different blocks at one height and round, in the
// form the node builds from the consensus's evidence; the registry jails it
// and burns 1% of its stake, and from the next epoch boundary the other
// three run the chain without it.
func TestDoubleSignEvidenceSlashes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a four-validator network for ~15 s")
	}
	tn := newTestNet(t, 4)
	epochLen, minStake := uint64(8), uint64(1000)
	tn.gen.Staking = &genesis.Staking{EpochLength: &epochLen, MinValidatorStake: &minStake}
	var members []types.Address
	for i := range tn.gen.Validators {
		tn.gen.Validators[i].Stake = minStake
		members = append(members, tn.gen.Validators[i].Address)
	}
	for i := 0; i < 4; i++ {
		tn.start(i)
	}
	tn.waitHeights(2, 30*time.Second)

	// Validator 3 equivocates (forged here with its key).
	h1, h2 := types.Hash{1}, types.Hash{2}
	sk := tn.keys[3].BLS
	ev := simplex.Evidence{Signer: 3, Round: 77, HeightA: 5, HeightB: 5, BlockA: h1, BlockB: h2,
		SignatureA: sk.Sign(simplex.VoteMessage(h1, 5, 77)).Bytes(), SignatureB: sk.Sign(simplex.VoteMessage(h2, 5, 77)).Bytes()}
	ep := &epoch{members: members}
	// Votes of one round at two heights are evidence too (issue 19).
	if a, b, err := ep.evidenceVotes(simplex.Evidence{Signer: 3, Round: 9, HeightA: 5, HeightB: 6}); err != nil || a.Height != 5 || b.Height != 6 || a.Round != 9 {
		t.Fatalf("votes at two heights: %+v %+v %v", a, b, err)
	}
	if _, _, err := ep.evidenceVotes(simplex.Evidence{Signer: 4}); err == nil {
		t.Fatal("evidence naming no member accepted")
	}
	a, b, err := ep.evidenceVotes(ev)
	if err != nil {
		t.Fatal(err)
	}
	tx := sendSigned(t, tn.nodes[0], devKey(t, 0), staking.Address, nil, staking.EvidencePayload(a, b))
	tn.waitReceipt(tx, 30*time.Second)
	rc, loc, err := tn.nodes[1].Receipt(tx)
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("evidence: %+v %v", rc, err)
	}
	v, err := staking.ReadValidator(tn.nodes[1].newState(), members[3])
	if err != nil || !v.Jailed || v.Stake.Cmp(cby(990)) != 0 {
		t.Fatalf("validator 3 after evidence: %+v %v", v, err)
	}
	// The same evidence again is refused.
	if _, err := tn.nodes[0].EstimateFees(&types.Address{}, &staking.Address, nil, staking.EvidencePayload(a, b)); err == nil {
		t.Fatal("the same evidence was accepted twice")
	}

	// From the next boundary the set is the other three.
	next := (loc.Height/epochLen + 1) * epochLen
	tn.waitHeights(next+3, 60*time.Second)
	es, err := staking.ReadEpochSet(tn.nodes[0].newState(), next/epochLen)
	if err != nil || len(es.Members) != 3 {
		t.Fatalf("epoch %d set: %+v %v", next/epochLen, es, err)
	}
	for _, m := range es.Members {
		if m.Address == members[3] {
			t.Fatal("the jailed validator is still in the set")
		}
	}
	if ci, _ := tn.nodes[3].Consensus(); ci.Validator != -1 {
		t.Fatalf("jailed validator still validates: %+v", ci)
	}
	tn.checkAgree()
}

// waitFor polls cond every 50 ms until it holds or timeout passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDowntimeJailAndUnjail runs the downtime lifecycle of v2 "Slashing"
// with short windows: a validator that is down for more than half of a
// 16-block window is jailed (no slash) and leaves the set at the next
// boundary while the others go on; restarted, it follows as a full node,
// sends unjail once its jail period is over, and validates again from the
// boundary after that.
func TestDowntimeJailAndUnjail(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a four-validator network for ~30 s")
	}
	tn := newTestNet(t, 4)
	epochLen, minStake, window, jail := uint64(8), uint64(1000), uint64(16), uint64(8)
	tn.gen.Staking = &genesis.Staking{EpochLength: &epochLen, MinValidatorStake: &minStake, DowntimeWindow: &window, JailPeriod: &jail}
	for i := range tn.gen.Validators {
		tn.gen.Validators[i].Stake = minStake
	}
	who := tn.gen.Validators[3].Address
	for i := 0; i < 4; i++ {
		tn.start(i)
	}
	fund := sendSigned(t, tn.nodes[0], devKey(t, 0), who, cby(10), []byte{})
	tn.waitReceipt(fund, 30*time.Second)
	tn.stop(3)

	var v *staking.Validator
	waitFor(t, "validator 3 jailed for downtime", 90*time.Second, func() bool {
		var err error
		v, err = staking.ReadValidator(tn.nodes[0].newState(), who)
		return err == nil && v != nil && v.Jailed
	})
	if v.Stake.Cmp(cby(int64(minStake))) != 0 {
		t.Fatalf("downtime slashed the stake: %v", v.Stake)
	}
	jailedAt := v.JailUntil - jail // the block whose end jailed it
	next := (jailedAt/epochLen + 1) * epochLen
	tn.waitHeights(next+1, 60*time.Second)
	if es, err := staking.ReadEpochSet(tn.nodes[0].newState(), next/epochLen); err != nil || len(es.Members) != 3 {
		t.Fatalf("epoch %d after jailing: %+v %v", next/epochLen, es, err)
	}

	tn.start(3)
	n3 := tn.nodes[3]
	tn.waitHeights(max(v.JailUntil, next)+1, 60*time.Second)
	if ci, _ := n3.Consensus(); ci.Validator != -1 {
		t.Fatalf("jailed validator votes: %+v", ci)
	}
	unjail := sendSigned(t, n3, tn.keys[3].Node, staking.Address, nil, staking.MethodPayload("unjail"))
	tn.waitReceipt(unjail, 30*time.Second)
	rc, loc, err := n3.Receipt(unjail)
	if err != nil || rc.Status != types.ReceiptSuccess {
		t.Fatalf("unjail: %+v %v", rc, err)
	}
	back := (loc.Height/epochLen + 1) * epochLen
	tn.waitHeights(back+2, 60*time.Second)
	waitFor(t, "validator 3 validating again", 30*time.Second, func() bool {
		ci, _ := n3.Consensus()
		return ci.Validator >= 0
	})
	if es, err := staking.ReadEpochSet(tn.nodes[0].newState(), back/epochLen); err != nil || len(es.Members) != 4 {
		t.Fatalf("epoch %d after unjail: %+v %v", back/epochLen, es, err)
	}
	tn.checkAgree()
}

// A validator's node turns the consensus's double-signing evidence into a
// registry transaction signed by its own key (it pays the fee), once per
// validator and round; evidence at two heights is not sent.
func TestNodeSubmitsEvidence(t *testing.T) {
	tn := newTestNet(t, 4)
	minStake := uint64(1000)
	tn.gen.Staking = &genesis.Staking{MinValidatorStake: &minStake}
	reporter := tn.gen.Validators[0].Address
	tn.gen.Alloc = append(tn.gen.Alloc, genesis.Alloc{Address: reporter, Balance: cby(10)})
	n := tn.open(0) // opened, not running: reportEvidence runs on the caller
	defer n.Close()
	sk := tn.keys[3].BLS
	h1, h2 := types.Hash{1}, types.Hash{2}
	ev := simplex.Evidence{Signer: 3, Round: 9, HeightA: 4, HeightB: 4, BlockA: h1, BlockB: h2,
		SignatureA: sk.Sign(simplex.VoteMessage(h1, 4, 9)).Bytes(), SignatureB: sk.Sign(simplex.VoteMessage(h2, 4, 9)).Bytes()}

	n.reportEvidence(simplex.Evidence{Signer: 3, Round: 8, HeightA: 4, HeightB: 5, BlockA: h1, BlockB: h2,
		SignatureA: ev.SignatureA, SignatureB: ev.SignatureB})
	if n.pool.Len() != 0 {
		t.Fatal("evidence at two heights was submitted")
	}
	n.reportEvidence(ev)
	n.reportEvidence(ev) // once per validator and round
	if n.pool.Len() != 1 {
		t.Fatalf("pool holds %d transactions, want the one evidence", n.pool.Len())
	}
	nonce, err := n.PendingNonce(reporter)
	if err != nil || nonce != 1 {
		t.Fatalf("reporter's pending nonce %d (%v), want 1", nonce, err)
	}
}

// A consensus message of the next epoch that reaches a node still in the
// current one is kept for replay when the node gets there; one from
// further ahead, or a message of this epoch, is not.
func TestNextEpochMessagesAreKept(t *testing.T) {
	tn := newTestNet(t, 4)
	n := tn.open(0)
	defer n.Close()
	msg := func(round uint64) p2p.Message {
		m := simplex.Message{Type: simplex.MsgNewView, From: 1, To: simplex.Broadcast, Round: round,
			Signature: make([]byte, 96), QC: &simplex.QC{}}
		b, err := simplex.EncodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		return p2p.Message{Topic: p2p.TopicVote, From: p2p.PeerID(tn.gen.Validators[1].Address), Payload: b}
	}
	n.stepNet(msg(roundBase(1) + 1))
	n.stepNet(msg(roundBase(2) + 1))
	n.stepNet(msg(3))
	if len(n.net.early) != 1 {
		t.Fatalf("kept %d messages, want the one of epoch 1", len(n.net.early))
	}
}

// Blocks past the epoch's last height only certify it: the proposer builds
// them without transactions and a validator refuses to vote for one that
// carries any (docs/consensus.md "Tail blocks").
func TestTailBlocksCarryNoTransactions(t *testing.T) {
	tn := newTestNet(t, 4)
	n := tn.open(0)
	defer n.Close()
	last := n.net.ep.last
	tx := signedTransfer(t, n, devKey(t, 0), types.Address{0xbe}, big.NewInt(1))
	if err := n.SendTransaction(tx); err != nil {
		t.Fatal(err)
	}
	root := n.net.ep.root.Hash()
	for _, tc := range []struct {
		height uint64
		txs    bool // may carry transactions
	}{{1, true}, {last, true}, {last + 1, false}, {last + 5, false}} {
		p := n.buildPayload(&simplex.ProposeRequest{Round: 1, Height: tc.height, Parent: root})
		if (len(p.Txs) > 0) != tc.txs {
			t.Errorf("height %d: proposal built with %d transactions", tc.height, len(p.Txs))
		}
		full := &payload{Time: n.cfg.Genesis.Time, Txs: []*types.Tx{tx}, Anchor: n.net.ep.anchor}
		enc, err := full.encode()
		if err != nil {
			t.Fatal(err)
		}
		err = n.judge(&simplex.Block{Parent: root, Height: tc.height, Payload: enc})
		if (err == nil) != tc.txs {
			t.Errorf("height %d: a block with a transaction judged %v", tc.height, err)
		}
	}
}

// A proposal names its epoch's anchor, the hash of the root's executed
// header (genesis here): the proposer builds it so, a validator refuses
// one that names anything else, and the node serves the anchored header
// with proofs of the epoch's registry records (cowboy_getEpochProof).
func TestProposalsNameTheEpochAnchor(t *testing.T) {
	tn := newTestNet(t, 4)
	tn.withBeacon()
	n := tn.open(0)
	defer n.Close()
	gen, err := n.blockByNumber(0)
	if err != nil {
		t.Fatal(err)
	}
	if n.net.ep.anchor != gen.Header.Hash() {
		t.Fatalf("epoch 0 anchor %s, genesis header %s", n.net.ep.anchor, gen.Header.Hash())
	}
	root := n.net.ep.root.Hash()
	built := n.buildPayload(&simplex.ProposeRequest{Round: 1, Height: 1, Parent: root})
	if built.Anchor != n.net.ep.anchor {
		t.Fatalf("built with anchor %s", built.Anchor)
	}
	for _, tc := range []struct {
		anchor types.Hash
		ok     bool
	}{{n.net.ep.anchor, true}, {types.Hash{}, false}, {types.Hash{1}, false}} {
		enc, err := (&payload{Time: n.cfg.Genesis.Time, Anchor: tc.anchor}).encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := n.judge(&simplex.Block{Parent: root, Height: 1, Payload: enc}); (err == nil) != tc.ok {
			t.Errorf("anchor %s judged %v", tc.anchor, err)
		}
	}
	ep, err := n.EpochProof(0)
	if err != nil {
		t.Fatal(err)
	}
	var hdr types.Header
	if err := types.Unmarshal(ep.Header, &hdr); err != nil || hdr.Hash() != n.net.ep.anchor {
		t.Fatalf("served root header %v (%v)", hdr.Hash(), err)
	}
	if ep.BeaconRecord == nil || ep.NextMembers == nil {
		t.Fatalf("epoch 0 proofs without the beacon record or DKG 1's members: %+v", ep)
	}
	for _, x := range []struct {
		key   [54]byte
		value []byte
		proof []byte
	}{{staking.EpochBeaconKey(0), *ep.BeaconRecord, ep.BeaconProof}, {staking.DKGMembersKey(1), *ep.NextMembers, ep.NextMembersProof}} {
		p, err := verifier.DecodeProof(x.proof)
		if err != nil {
			t.Fatal(err)
		}
		if err := verifier.Verify(hdr.StateRoot, x.key[:], x.value, p); err != nil {
			t.Fatalf("served proof: %v", err)
		}
	}
	if _, err := n.EpochProof(1); !errors.Is(err, rpc.ErrNotFound) {
		t.Fatalf("epoch 1 not entered yet: %v", err)
	}
}
