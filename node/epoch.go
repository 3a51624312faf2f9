package node

import (
	"bytes"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
	"github.com/cowboy-chain/cowboy/p2p"
	"github.com/cowboy-chain/cowboy/store"
)

// epoch is the validator set that runs the consensus for one epoch and the
// root its consensus instance starts from (v2 "Validator Set": validator
// set updates and epoch randomness happen at epoch boundaries).
//
// Epoch k holds the blocks of heights k·E … (k+1)·E−1. Its instance of
// simplex starts on the last finalized block of epoch k−1 (block 0 for
// epoch 0) with rounds above k<<32, so no two epochs ever share a round
// (votes sign block, height and round only, §6.1). The set and seed come
// from staking.EpochSet(k), which executing the root wrote into the state.
//
// The old instance goes on past its last height only to certify a child of
// that last block, which is what makes it final; such "tail" blocks carry
// no transactions (judge refuses any) and are never executed. The proof of
// the last block's finality (the tail chain up to a block certified in the
// round right after its justify) is stored with it, under epochProofKey,
// so that sync can prove it to a node that was not there.
type epoch struct {
	number  uint64
	length  uint64         // blocks per epoch (staking params)
	last    uint64         // height of the epoch's last block
	root    *simplex.Block // where the instance starts; final
	seed    [32]byte
	set     *simplex.ValidatorSet
	scheme  *simplex.BLSScheme
	members []types.Address // validator index -> address (node key = p2p id)
	index   int             // this node's index, -1 if it does not validate
	// anchor is the hash of the root's executed header: every proposal of
	// the epoch carries it in its payload (payload.go), so the epoch's
	// certificates commit to the root's state (certificate.go).
	anchor types.Hash
	// beacon is the epoch's threshold beacon key, nil when it has none
	// (then R_n is the proposer's VRF output); beaconNote says why.
	beacon     *simplex.BLSBeacon
	beaconNote string
}

// beaconScheme is the beacon as the consensus takes it (a nil interface
// when the epoch has none).
func (ep *epoch) beaconScheme() simplex.BeaconScheme {
	if ep.beacon == nil {
		return nil
	}
	return ep.beacon
}

// loadBeacon gives the epoch its beacon key (v2 §3.4) from the registry's
// epoch record: a DKG's key (loadDKGBeacon), or the genesis key when its
// set holds exactly the genesis members with the same share allocation
// (the shares dealt at genesis are then still theirs). An epoch without a
// key (the DKG failed and the set changed, or a chain without a genesis
// key) falls back to the proposer VRF and says so in cowboy_getRandomness.
func (n *Node) loadBeacon(ep *epoch, vs []simplex.Validator) error {
	rec, err := staking.ReadEpochBeacon(n.newState(), ep.number)
	if err != nil {
		return fmt.Errorf("epoch %d: %w", ep.number, err)
	}
	if rec != nil && (rec.Source == staking.BeaconNone || rec.KeyEpoch > 0) {
		return n.loadDKGBeacon(ep, rec)
	}
	g := n.cfg.Genesis
	if g.Beacon == nil {
		ep.beaconNote = "no beacon key in genesis: proposer VRF"
		return nil
	}
	// perm[i] is the genesis index of epoch member i (matched by BLS key:
	// a later epoch's set is ordered by address).
	perm := make([]int, len(vs))
	same := len(g.Validators) == len(vs)
	for i := 0; same && i < len(vs); i++ {
		perm[i] = -1
		for j, gv := range g.Validators {
			if bytes.Equal(gv.BLSPublicKey, vs[i].PublicKey) {
				perm[i] = j
			}
		}
		same = perm[i] >= 0
	}
	var alloc *dkg.Allocation
	if same {
		gstakes, estakes := make([]uint64, len(vs)), make([]uint64, len(vs))
		for i := range vs {
			gstakes[perm[i]] = g.Validators[perm[i]].Stake
			estakes[perm[i]] = vs[i].Stake
		}
		ga, err1 := dkg.Allocate(gstakes)
		ea, err2 := dkg.Allocate(estakes)
		same = err1 == nil && err2 == nil && ga.Total == ea.Total && ga.Threshold == ea.Threshold
		for j := 0; same && j < len(vs); j++ {
			same = len(ga.Shares[j]) == len(ea.Shares[j])
		}
		if same {
			alloc = &dkg.Allocation{Total: ga.Total, Threshold: ga.Threshold, NonQuorumMax: ga.NonQuorumMax, Exact: ga.Exact,
				Shares: make([][]uint64, len(vs))}
			for i := range vs {
				alloc.Shares[i] = ga.Shares[perm[i]]
			}
		}
	}
	if !same {
		ep.beaconNote = fmt.Sprintf("epoch %d's validator set differs from genesis and no DKG ran: proposer VRF", ep.number)
		return nil
	}
	var mine [][]byte
	if ep.index >= 0 {
		mine = n.net.cfg.Keys.Beacon
		if len(mine) == 0 {
			n.log.Warn("validator has no beacon shares; it votes without partials", "file", BeaconKeyFile)
		}
	}
	b, err := simplex.NewBLSBeaconWithAllocation(ep.set, &simplex.BeaconKey{Group: g.Beacon.GroupKey, PublicShares: g.Beacon.PublicShares}, alloc, ep.index, mine)
	if err != nil {
		return fmt.Errorf("epoch %d: %w", ep.number, err)
	}
	ep.beacon = b
	ep.beaconNote = "threshold beacon (genesis key)"
	return nil
}

// roundBase is the round below which an epoch's instance never goes.
func roundBase(k uint64) uint64 { return k << 32 }

// epochOfRound is the epoch whose instance certified a QC of this round.
func epochOfRound(r uint64) uint64 { return r >> 32 }

// loadEpoch reads the epoch of the block after the finalized head from the
// committed state.
func (n *Node) loadEpoch() (*epoch, error) {
	st := n.newState()
	params, err := staking.ReadParams(st)
	if err != nil {
		return nil, fmt.Errorf("staking params: %w", err)
	}
	if params.EpochLength == 0 {
		return nil, fmt.Errorf("staking params: epoch length 0")
	}
	head := n.Head().Height
	k := (head + 1) / params.EpochLength
	ep := &epoch{number: k, length: params.EpochLength, last: (k+1)*params.EpochLength - 1, index: -1}
	var vs []simplex.Validator
	registered := k > 0
	if k == 0 {
		// Epoch 0 is the genesis file's set (staking.EpochSet(0) holds the
		// same); its proofs of possession are checked here.
		ep.root, ep.seed = n.net.genesis, n.cfg.Genesis.EpochSeed
		for _, v := range n.cfg.Genesis.Validators {
			vs = append(vs, simplex.Validator{PublicKey: v.BLSPublicKey, Possession: v.Possession, Stake: v.Stake})
			ep.members = append(ep.members, v.Address)
		}
	} else {
		es, err := staking.ReadEpochSet(st, k)
		if err != nil {
			return nil, fmt.Errorf("validator set of epoch %d: %w", k, err)
		}
		c, err := n.certified(k*params.EpochLength - 1)
		if err != nil {
			return nil, fmt.Errorf("root of epoch %d: %w", k, err)
		}
		ep.root, ep.seed = c.Block, es.Seed
		for _, m := range es.Members {
			vs = append(vs, simplex.Validator{PublicKey: m.BLSPublicKey, Stake: m.Weight})
			ep.members = append(ep.members, m.Address)
		}
	}
	if ep.set, err = simplex.NewValidatorSet(vs); err != nil {
		return nil, fmt.Errorf("validator set of epoch %d: %w", k, err)
	}
	var sk *bls.SecretKey
	for i, a := range ep.members {
		if a != n.proposer {
			continue
		}
		sk = n.net.cfg.Keys.BLS
		if sk == nil {
			return nil, fmt.Errorf("validator %s (epoch %d) has no %s in its home", n.proposer, k, BLSKeyFile)
		}
		if !bytes.Equal(sk.PublicKey().Bytes(), vs[i].PublicKey) {
			return nil, fmt.Errorf("validator %s (epoch %d): %s does not match the registered BLS public key", n.proposer, k, BLSKeyFile)
		}
		ep.index = i
	}
	if registered {
		ep.scheme, err = simplex.NewBLSSchemeRegistered(sk, ep.set)
	} else {
		ep.scheme, err = simplex.NewBLSScheme(sk, ep.set)
	}
	if err != nil {
		return nil, fmt.Errorf("validator set of epoch %d: %w", k, err)
	}
	if err := n.loadBeacon(ep, vs); err != nil {
		return nil, err
	}
	if err := n.anchorEpoch(ep); err != nil {
		return nil, err
	}
	return ep, nil
}

// useEpoch makes ep the node's epoch: routing tables for direct messages
// and the consensus configuration (the instance itself is built by the
// caller, with whatever it restores).
func (n *Node) useEpoch(ep *epoch) {
	net := n.net
	net.ep = ep
	net.mu.Lock() // read by Consensus
	net.index, net.epoch = ep.index, ep.number
	net.mu.Unlock()
	net.peers = net.peers[:0]
	net.byPeer = map[p2p.PeerID]int{}
	for i, a := range ep.members {
		net.peers = append(net.peers, p2p.PeerID(a))
		net.byPeer[p2p.PeerID(a)] = i
	}
	net.scfg = simplex.Config{ID: ep.index, Validators: ep.set, Scheme: ep.scheme, Seed: ep.seed,
		Genesis: ep.root, RoundBase: roundBase(ep.number), TimeoutTicks: net.cfg.TimeoutTicks,
		KeepFinalized: net.cfg.KeepFinalized, Store: certStore{n}, Beacon: ep.beaconScheme()}
}

// enterNextEpoch runs after the last block of the epoch was applied: the
// next epoch's set is in the state now; a new consensus instance starts on
// that block. The validator's HardState carries over (its rounds are all
// below the new instance's, so it restricts nothing there but is never
// lowered).
func (n *Node) enterNextEpoch() error {
	net := n.net
	old := net.ep
	ep, err := n.loadEpoch()
	if err != nil {
		return err
	}
	n.useEpoch(ep)
	cfg := net.scfg
	if ep.index >= 0 {
		hs, err := n.restoreState(nil)
		if err != nil {
			return err
		}
		cfg.Restore = hs
	}
	sx, err := simplex.NewNode(cfg)
	if err != nil {
		return fmt.Errorf("epoch %d consensus: %w", ep.number, err)
	}
	net.sx = sx
	net.pending = nil
	net.mu.Lock()
	net.round = sx.Status().Round
	net.mu.Unlock()
	n.log.Info("epoch", "number", ep.number, "validators", len(ep.members), "index", ep.index,
		"from", old.number, "first_height", ep.root.Height+1)
	early := net.early
	net.early = nil
	for _, pm := range early {
		n.stepNet(pm)
	}
	return nil
}

// maxEarlyMessages bounds the next epoch's messages a node keeps while it
// finishes the current one: a few rounds of proposals, votes and NEW_VIEWs
// of a large set.
const maxEarlyMessages = 1024

// messageRound is the round a consensus message belongs to (0 for FETCH
// and BLOCK, which carry none).
func messageRound(m simplex.Message) uint64 {
	if m.Type == simplex.MsgPropose && m.Block != nil {
		return m.Block.Round
	}
	return m.Round
}

// signersOf maps a certificate's bitmap to validator addresses, for the
// staking downtime count; the unsigned root certificate has none.
func (ep *epoch) signersOf(qc *simplex.QC) []types.Address {
	if qc == nil || epochOfRound(qc.Round) != ep.number || qc.Round <= max(ep.root.Round, roundBase(ep.number)) {
		return nil
	}
	var out []types.Address
	for _, i := range qc.Signers.Indices() {
		if i < len(ep.members) {
			out = append(out, ep.members[i])
		}
	}
	return out
}

// proposerOf is the address of a block's proposer in this epoch.
func (ep *epoch) proposerOf(b *simplex.Block) types.Address {
	if b.Proposer >= 0 && b.Proposer < len(ep.members) {
		return ep.members[b.Proposer]
	}
	return types.Address{}
}

// encodeEpochProof stores the tail chain that proves an epoch's last block
// final: certified blocks, each the child of the one before, the first a
// child of the last block.
func encodeEpochProof(chain []simplex.Certified) ([]byte, error) {
	raws := make([][]byte, 0, len(chain))
	for _, c := range chain {
		enc, err := simplex.EncodeCertified(c)
		if err != nil {
			return nil, err
		}
		raws = append(raws, enc)
	}
	return types.Marshal(raws)
}

// readEpochProof returns the stored proof for epoch k, raw certified
// blocks as sync sends them.
func (n *Node) readEpochProof(k uint64) ([][]byte, error) {
	raw, err := n.db.GetRaw(epochProofKey(k))
	if err != nil {
		return nil, fmt.Errorf("finality proof of epoch %d: %w", k, err)
	}
	var raws [][]byte
	if err := types.Unmarshal(raw, &raws); err != nil {
		return nil, fmt.Errorf("finality proof of epoch %d: %w", k, err)
	}
	return raws, nil
}

// epochProofWrite is the raw write that stores the proof with the block.
func epochProofWrite(k uint64, chain []simplex.Certified) (store.RawWrite, error) {
	enc, err := encodeEpochProof(chain)
	if err != nil {
		return store.RawWrite{}, err
	}
	return store.RawWrite{Key: epochProofKey(k), Value: enc}, nil
}

// loadDKGBeacon gives the epoch the key its record names: a DKG's group
// key, this validator's shares rebuilt from that DKG's transcript on chain
// (node/dkg.go), or no key when the record says the DKG failed and none
// carries over.
func (n *Node) loadDKGBeacon(ep *epoch, rec *staking.EpochBeacon) error {
	if rec.Source == staking.BeaconNone {
		ep.beaconNote = rec.Note
		return nil
	}
	var mine [][]byte
	if ep.index >= 0 {
		r, err := staking.ReadDKG(n.newState(), rec.KeyEpoch)
		switch {
		case err != nil:
			return fmt.Errorf("epoch %d: %w", ep.number, err)
		case r == nil:
			n.log.Warn("beacon: no shares; this validator votes without partials", "epoch", ep.number, "err", errNoDKGKey)
		case r.Index(n.proposer) != ep.index:
			n.log.Warn("beacon: not a member of the key's DKG; this validator votes without partials", "epoch", ep.number, "dkg", rec.KeyEpoch)
		default:
			if mine, err = dkgShares(r, rec, ep.index, n.net.cfg.Keys.BLS); err != nil {
				n.log.Warn("beacon: no shares; this validator votes without partials", "epoch", ep.number, "dkg", rec.KeyEpoch, "err", err)
				mine = nil
			}
		}
	}
	b, err := simplex.NewBLSBeacon(ep.set, &simplex.BeaconKey{Group: rec.Group, PublicShares: rec.PublicShares}, ep.index, mine)
	if err != nil {
		return fmt.Errorf("epoch %d: %w", ep.number, err)
	}
	ep.beacon = b
	ep.beaconNote = fmt.Sprintf("threshold beacon (the epoch %d DKG's key)", rec.KeyEpoch)
	if rec.Source == staking.BeaconCarried {
		ep.beaconNote = "threshold beacon (carried over: " + rec.Note + ")"
	}
	return nil
}
