package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/rpc"
)

var _ rpc.RandomnessReporter = (*Node)(nil)

// Randomness reports R_n of the finalized block at height with what
// proves it (cowboy_getRandomness): on a network, σ from the block's
// stored certificate and the beacon group key, or the proposer VRF output
// when the block's epoch had no beacon key; on the devnet, its keccak
// beacon. It reads the store only, so RPC may call it concurrently.
func (n *Node) Randomness(height uint64) (*rpc.RandomnessJSON, error) {
	if height == 0 || height > n.Head().Height {
		return nil, fmt.Errorf("randomness of block %d: %w", height, rpc.ErrNotFound)
	}
	out := &rpc.RandomnessJSON{Height: rpc.Quantity(height)}
	if n.net == nil {
		blk, err := n.blockByNumber(height)
		if err != nil {
			return nil, fmt.Errorf("randomness of block %d: %w", height, err)
		}
		out.Randomness = rpc.Hash(devnetBeacon(blk.Header.ParentHash, height))
		out.Source = rpc.RandomnessDevnet
		out.Note = "single-validator devnet: keccak of the parent hash and height, predictable by anyone"
		return out, nil
	}
	c, err := n.certified(height)
	if err != nil {
		return nil, fmt.Errorf("randomness of block %d: %w", height, err)
	}
	h, round, epoch := rpc.Hash(c.QC.BlockHash), rpc.Quantity(c.QC.Round), rpc.Quantity(epochOfRound(c.QC.Round))
	out.ConsensusHash, out.ConsensusRound, out.Epoch = &h, &round, &epoch
	out.Randomness = rpc.Hash(blockRandomness(c))
	rec, err := staking.ReadEpochBeacon(n.newState(), uint64(epoch))
	if err != nil {
		return nil, fmt.Errorf("randomness of block %d: %w", height, err)
	}
	if _, ok := c.QC.Randomness(); ok {
		// The key σ verifies under: the registry's record for the epoch;
		// a chain started before the records existed has the genesis key.
		var group []byte
		source, keyEpoch, members := staking.BeaconGenesis, uint64(0), len(n.cfg.Genesis.Validators)
		switch {
		case rec != nil && len(rec.Group) > 0:
			group, source, keyEpoch = rec.Group, rec.Source, rec.KeyEpoch
			if es, err := staking.ReadEpochSet(n.newState(), uint64(epoch)); err == nil {
				members = len(es.Members)
			}
		case n.cfg.Genesis.Beacon != nil:
			group = n.cfg.Genesis.Beacon.GroupKey
		}
		if group != nil {
			out.Source = rpc.RandomnessBeacon
			sigma, gk, ke := rpc.Bytes(c.QC.Beacon), rpc.Bytes(group), rpc.Quantity(keyEpoch)
			out.Sigma, out.GroupKey, out.KeySource, out.KeyEpoch = &sigma, &gk, source, &ke
			switch {
			case source == staking.BeaconCarried:
				out.Note = "threshold beacon, key carried over: " + rec.Note
			case keyEpoch == 0:
				out.Note = "threshold beacon: the genesis group key"
			default:
				out.Note = fmt.Sprintf("threshold beacon: the group key of the epoch %d DKG, in the registry's epoch record", keyEpoch)
			}
			if members == 1 {
				out.Note += "; a one-member group, so its only validator can compute R_n alone"
			}
			return out, nil
		}
	}
	out.Source = rpc.RandomnessVRF
	if rec != nil && rec.Source == staking.BeaconNone {
		out.Note = rec.Note
		return out, nil
	}
	out.Note = "no beacon key for this epoch (none in genesis, or the validator set changed and no DKG ran): the proposer's VRF output, which that proposer knows first"
	return out, nil
}
