package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store/verifier"
)

// The light-client walk behind `cowboy beacon verify` (docs/decisions.md
// "Epoch anchors"). Trust starts at genesis.json: epoch 0's validator set
// and beacon key. For each epoch j up to the target's:
//
//  1. the certificate of epoch j's first block must be signed by a stake
//     quorum of set_j (the set this walk already trusts);
//  2. that block's payload names the anchor: the hash of the executed
//     header of epoch j's root (the last block of epoch j−1, genesis for
//     epoch 0), so the header the node serves must hash to it;
//  3. store proofs against that header's state root give EpochBeacon(j)
//     (the epoch's key) and DKG(j+1)'s member list, which is set_{j+1}.
//
// Nothing is taken from the node's word: a forged record fails its proof,
// a forged header its anchor, a forged anchor or certificate the set's
// signatures.

// beaconWalk is what the walk established for the target block.
type beaconWalk struct {
	key    []byte            // the target epoch's group key
	cert   simplex.Certified // the target block, certified by its epoch's set
	epochs uint64            // epochs walked (the target's is the last)
	source string            // the key's registry source
	// final says whether the walk also proved the block final, and how
	// (or why not).
	final     bool
	finalNote string
}

// maxFinalityHops bounds how many descendants the walk fetches to find a
// certified child in the round right after its parent's (rule 6).
const maxFinalityHops = 8

// walkBeacon proves the group key and the certificate of block height from
// genesis through the node's certificates and epoch proofs.
func walkBeacon(ctx context.Context, c *rpc.Client, g *genesis.Genesis, height uint64) (*beaconWalk, error) {
	if height == 0 {
		return nil, errors.New("block 0 is genesis: it has no randomness")
	}
	if g.Beacon == nil {
		return nil, errors.New("the genesis file has no beacon key, so the chain runs no threshold beacon")
	}
	e := g.StakingParams().EpochLength
	target := height / e
	members := make([]staking.Member, len(g.Validators))
	vs := make([]simplex.Validator, len(g.Validators))
	for i, v := range g.Validators {
		members[i] = staking.Member{Address: v.Address, BLSPublicKey: v.BLSPublicKey, Weight: v.Stake}
		vs[i] = simplex.Validator{PublicKey: v.BLSPublicKey, Possession: v.Possession, Stake: v.Stake}
	}
	set, err := simplex.NewValidatorSet(vs)
	if err != nil {
		return nil, fmt.Errorf("genesis validator set: %w", err)
	}
	scheme, err := simplex.NewBLSScheme(nil, set) // checks the proofs of possession
	if err != nil {
		return nil, fmt.Errorf("genesis validator set: %w", err)
	}
	out := &beaconWalk{epochs: target + 1}
	for j := uint64(0); j <= target; j++ {
		first := max(j*e, 1)
		cert, err := certifiedBy(ctx, c, set, scheme, first, j)
		if err != nil {
			return nil, err
		}
		anchor, err := staking.PayloadAnchor(cert.Block.Payload)
		if err != nil {
			return nil, fmt.Errorf("epoch %d: block %d: %w", j, first, err)
		}
		ep, err := c.EpochProof(ctx, j)
		if err != nil {
			return nil, fmt.Errorf("epoch %d proof: %w", j, err)
		}
		var hdr types.Header
		if err := types.Unmarshal(ep.Header, &hdr); err != nil {
			return nil, fmt.Errorf("epoch %d: root header: %w", j, err)
		}
		if uint64(ep.Epoch) != j {
			return nil, fmt.Errorf("epoch %d: the node answered for epoch %d", j, uint64(ep.Epoch))
		}
		if hdr.Hash() != anchor {
			return nil, fmt.Errorf("epoch %d: the root header the node serves (%s) is not the one epoch %d's certified blocks anchor (%s)", j, hdr.Hash(), j, anchor)
		}
		if root := max(j*e, 1) - 1; hdr.Height != root {
			return nil, fmt.Errorf("epoch %d: the anchored header is of block %d, not the root %d", j, hdr.Height, root)
		}
		if j == target {
			raw, err := provenRecord(hdr.StateRoot, staking.EpochBeaconKey(j), ep.BeaconRecord, ep.BeaconProof)
			if err != nil {
				return nil, fmt.Errorf("epoch %d beacon record: %w", j, err)
			}
			if raw == nil {
				return nil, fmt.Errorf("epoch %d: the anchored state proves it has no beacon record", j)
			}
			rec, err := staking.DecodeEpochBeacon(raw, j)
			if err != nil {
				return nil, err
			}
			if rec.Source == staking.BeaconNone || len(rec.Group) == 0 {
				return nil, fmt.Errorf("epoch %d has no beacon key (%s): R_n is the proposer's VRF output", j, rec.Note)
			}
			if rec.KeyEpoch == 0 && !bytes.Equal(rec.Group, g.Beacon.GroupKey) {
				return nil, fmt.Errorf("epoch %d: the registry's genesis-made key is not the genesis file's", j)
			}
			out.key, out.source = rec.Group, rec.Source
			break
		}
		raw, err := provenRecord(hdr.StateRoot, staking.DKGMembersKey(j+1), ep.NextMembers, ep.NextMembersProof)
		if err != nil {
			return nil, fmt.Errorf("epoch %d: the next set (DKG %d members): %w", j, j+1, err)
		}
		if raw == nil {
			return nil, fmt.Errorf("epoch %d: the anchored state proves no DKG %d is open, so epoch %d's set cannot be derived", j, j+1, j+1)
		}
		dkgMembers, err := staking.DecodeDKGMembers(raw, j+1)
		if err != nil {
			return nil, err
		}
		members = staking.SetAfterDKG(dkgMembers, members)
		vs = make([]simplex.Validator, len(members))
		for i, m := range members {
			vs[i] = simplex.Validator{PublicKey: m.BLSPublicKey, Stake: m.Weight}
		}
		if set, err = simplex.NewValidatorSet(vs); err != nil {
			return nil, fmt.Errorf("epoch %d validator set: %w", j+1, err)
		}
		// Registered keys: the registry checked each proof of possession.
		if scheme, err = simplex.NewBLSSchemeRegistered(nil, set); err != nil {
			return nil, fmt.Errorf("epoch %d validator set: %w", j+1, err)
		}
	}
	if out.cert, err = certifiedBy(ctx, c, set, scheme, height, target); err != nil {
		return nil, err
	}
	out.final, out.finalNote = provenFinal(ctx, c, set, scheme, out.cert, target, (target+1)*e-1)
	return out, nil
}

// provenFinal looks for what makes the block final (docs/consensus.md rule
// 6): descendants in its epoch, each the child of the one before and
// certified by the epoch's set, up to a child certified in the round
// right after its parent's; that parent is final, and so are its
// ancestors. Unavailable or unlinked descendants leave finality unproven,
// which is no error: a certified block is what carries σ. A node's store
// holds only final blocks, but a node that lies could serve a certified
// block a fork dropped; this is what tells them apart.
func provenFinal(ctx context.Context, c *rpc.Client, set *simplex.ValidatorSet, scheme simplex.Scheme, cert simplex.Certified, epoch, last uint64) (bool, string) {
	parent := cert
	for hop := 0; hop < maxFinalityHops; hop++ {
		h := parent.Block.Height + 1
		if h > last {
			return false, fmt.Sprintf("not proven: block %d ends its epoch (its proof is the tail chain, not served)", parent.Block.Height)
		}
		child, err := certifiedBy(ctx, c, set, scheme, h, epoch)
		if err != nil {
			return false, fmt.Sprintf("not proven: %v", err)
		}
		if child.Block.Parent != parent.QC.BlockHash {
			return false, fmt.Sprintf("not proven: block %d is not the child of block %d", h, h-1)
		}
		if child.Block.Round == parent.Block.Round+1 {
			return true, fmt.Sprintf("proven: block %d, certified in the next round, extends block %d", h, h-1)
		}
		parent = child
	}
	return false, fmt.Sprintf("not proven within %d descendants", maxFinalityHops)
}

// certifiedBy fetches the finalized block of height and checks that a
// stake quorum of epoch's set certified it.
func certifiedBy(ctx context.Context, c *rpc.Client, set *simplex.ValidatorSet, scheme simplex.Scheme, height, epoch uint64) (simplex.Certified, error) {
	cj, err := c.Certificate(ctx, height)
	if err != nil {
		return simplex.Certified{}, fmt.Errorf("certificate of block %d: %w", height, err)
	}
	cert, err := simplex.DecodeCertified(cj.Certificate)
	if err != nil {
		return simplex.Certified{}, fmt.Errorf("certificate of block %d: %w", height, err)
	}
	if cert.Block.Height != height {
		return simplex.Certified{}, fmt.Errorf("certificate of block %d: the node sent block %d", height, cert.Block.Height)
	}
	if cert.QC == nil || cert.QC.Round>>32 != epoch {
		return simplex.Certified{}, fmt.Errorf("certificate of block %d: not of epoch %d's consensus", height, epoch)
	}
	if err := simplex.VerifyCertified(set, scheme, cert); err != nil {
		return simplex.Certified{}, fmt.Errorf("certificate of block %d (epoch %d): %w", height, epoch, err)
	}
	return cert, nil
}

// provenRecord checks a store proof of key against root; value nil is a
// proof of absence, and then the result is nil.
func provenRecord(root types.Hash, key [54]byte, value *rpc.Bytes, proofRaw rpc.Bytes) ([]byte, error) {
	proof, err := verifier.DecodeProof(proofRaw)
	if err != nil {
		return nil, err
	}
	var v []byte
	if value != nil {
		v = []byte(*value)
		if v == nil {
			v = []byte{}
		}
	}
	if err := verifier.Verify(root, key[:], v, proof); err != nil {
		return nil, fmt.Errorf("store proof against the anchored state root: %w", err)
	}
	return v, nil
}
