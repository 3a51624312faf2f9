package staking

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// What a light client proves about the registry (docs/decisions.md "Epoch
// anchors"): the state keys of the records that carry one epoch's trust to
// the next, and their decoders, so that a client holding only a state root
// and a store proof can read them.

// EpochBeaconKey is the state key of EpochBeacon(epoch).
func EpochBeaconKey(epoch uint64) state.Key { return beaconKey(epoch) }

// DKGMembersKey is the state key of DKG(epoch)'s member list, which is
// EpochSet(epoch)'s membership on a chain that runs the beacon DKG. It is
// written when DKG(epoch) opens, at the end of epoch epoch−2 (at genesis for
// epoch 1), so it is in the state an epoch epoch−1 anchor commits to.
func DKGMembersKey(epoch uint64) state.Key { return dkgKey(epoch, dkgMembers, 0) }

// DecodeEpochBeacon decodes an EpochBeacon record and checks it is epoch's.
func DecodeEpochBeacon(raw []byte, epoch uint64) (*EpochBeacon, error) {
	var b EpochBeacon
	if err := types.Unmarshal(raw, &b); err != nil {
		return nil, fmt.Errorf("decode epoch %d beacon: %w", epoch, err)
	}
	if b.Epoch != epoch {
		return nil, fmt.Errorf("epoch %d beacon record says epoch %d", epoch, b.Epoch)
	}
	return &b, nil
}

// DecodeDKGMembers decodes DKG(epoch)'s member list (address order, each
// with its consensus weight).
func DecodeDKGMembers(raw []byte, epoch uint64) ([]Member, error) {
	s, err := decodeSet(raw, epoch)
	if err != nil {
		return nil, fmt.Errorf("dkg %d members: %w", epoch, err)
	}
	return s.Members, nil
}

// SetAfterDKG is EpochSet(epoch)'s membership from DKG(epoch)'s member list
// and the set before it, as nextSet computes it: the DKG's members, or the
// previous set's when nobody was eligible (a chain cannot run without
// validators).
func SetAfterDKG(dkgMembers, previous []Member) []Member {
	if len(dkgMembers) == 0 {
		return previous
	}
	return dkgMembers
}
