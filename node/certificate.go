package node

import (
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// Epoch anchors (docs/decisions.md "Epoch anchors"): every proposal of
// epoch k names the hash of the executed header of the epoch's root block
// (payload.go), so a certificate of any block of epoch k, signed by
// EpochSet(k), commits to the root's state root. Entering epoch k the
// node keeps that header with store proofs of EpochBeacon(k) (the epoch's
// beacon key) and DKG(k+1)'s members (the next set) against it, because
// the store proves only its last RetainHeights heights and a light client
// walking from genesis needs them for every epoch (cowboy beacon verify).

var _ rpc.CertificateReporter = (*Node)(nil)

// epochAnchor is the record under epochAnchorKey.
type epochAnchor struct {
	_            struct{} `cbor:",toarray"`
	Epoch        uint64
	Header       []byte // canonical CBOR of the root's header
	Beacon       []byte // EpochBeacon(k) record, nil: absent
	BeaconProof  []byte
	Members      []byte // DKG(k+1) members record, nil: absent
	MembersProof []byte
}

// anchorEpoch sets ep.anchor from the root's executed header and stores
// the epoch's record proofs if this node does not hold them yet and can
// still prove the root's state.
func (n *Node) anchorEpoch(ep *epoch) error {
	blk, err := n.blockByNumber(ep.root.Height)
	if err != nil {
		return fmt.Errorf("epoch %d anchor: %w", ep.number, err)
	}
	ep.anchor = blk.Header.Hash()
	if _, err := n.db.GetRaw(epochAnchorKey(ep.number)); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("epoch %d anchor: %w", ep.number, err)
	}
	rec := epochAnchor{Epoch: ep.number}
	if rec.Header, err = types.Marshal(blk.Header); err != nil {
		return fmt.Errorf("epoch %d anchor: encode header: %w", ep.number, err)
	}
	prove := func(k [54]byte) (value, proof []byte, err error) {
		p, v, err := n.db.ProveValue(store.StateDB, store.Key(k), ep.root.Height)
		if err != nil {
			return nil, nil, err
		}
		enc, err := p.MarshalBinary()
		return v, enc, err
	}
	rec.Beacon, rec.BeaconProof, err = prove(staking.EpochBeaconKey(ep.number))
	if err == nil {
		rec.Members, rec.MembersProof, err = prove(staking.DKGMembersKey(ep.number + 1))
	}
	if errors.Is(err, store.ErrNotRetained) {
		// A node restarted long after the boundary: it never held them
		// (it ran a version that did not keep them), and cannot now.
		n.log.Warn("epoch anchor proofs not kept: the root's state is no longer retained", "epoch", ep.number, "root", ep.root.Height)
		return nil
	}
	if err != nil {
		return fmt.Errorf("epoch %d anchor proofs: %w", ep.number, err)
	}
	raw, err := types.Marshal(&rec)
	if err != nil {
		return fmt.Errorf("epoch %d anchor: %w", ep.number, err)
	}
	if err := n.db.PutRaw([]store.RawWrite{{Key: epochAnchorKey(ep.number), Value: raw}}); err != nil {
		return fmt.Errorf("epoch %d anchor: %w", ep.number, err)
	}
	return nil
}

// Certificate is cowboy_getCertificate: the finalized consensus block of
// height with its QC, as stored.
func (n *Node) Certificate(height uint64) (*rpc.CertificateJSON, error) {
	if n.net == nil {
		return nil, fmt.Errorf("certificate of block %d: a devnet has no consensus: %w", height, rpc.ErrNotFound)
	}
	raw, err := n.db.GetRaw(certKey(height))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("certificate of block %d: %w", height, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("certificate of block %d: %w", height, err)
	}
	return &rpc.CertificateJSON{Height: rpc.Quantity(height), Certificate: raw}, nil
}

// EpochProof is cowboy_getEpochProof: the epoch's anchor header and the
// proofs of its registry records this node kept on entering the epoch.
func (n *Node) EpochProof(epoch uint64) (*rpc.EpochProofJSON, error) {
	if n.net == nil {
		return nil, fmt.Errorf("epoch %d proof: a devnet has no consensus: %w", epoch, rpc.ErrNotFound)
	}
	raw, err := n.db.GetRaw(epochAnchorKey(epoch))
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("epoch %d proof: %w", epoch, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("epoch %d proof: %w", epoch, err)
	}
	var rec epochAnchor
	if err := types.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("epoch %d proof: %w", epoch, err)
	}
	out := &rpc.EpochProofJSON{Epoch: rpc.Quantity(rec.Epoch), Header: rec.Header, BeaconProof: rec.BeaconProof, NextMembersProof: rec.MembersProof}
	if rec.Beacon != nil {
		v := rpc.Bytes(rec.Beacon)
		out.BeaconRecord = &v
	}
	if rec.Members != nil {
		v := rpc.Bytes(rec.Members)
		out.NextMembers = &v
	}
	return out, nil
}
