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

// EncodeDKGMembers is the record DKG(epoch)'s member list is stored as
// (what openDKG writes): for tests and tools that build a state.
func EncodeDKGMembers(epoch uint64, members []Member) ([]byte, error) {
	rec := storedSet{Epoch: epoch, Members: make([]storedMember, len(members))}
	for i, m := range members {
		rec.Members[i] = storedMember{Address: m.Address, BLSPublicKey: m.BLSPublicKey, Stake: m.Stake}
	}
	b, err := types.Marshal(&rec)
	if err != nil {
		return nil, fmt.Errorf("encode dkg %d members: %w", epoch, err)
	}
	return b, nil
}

// PayloadAnchor is the epoch anchor a consensus payload names: the hash of
// the executed header of its epoch's root block (node/payload.go).
func PayloadAnchor(payload []byte) (types.Hash, error) {
	var w proposalWire
	if err := types.Unmarshal(payload, &w); err != nil {
		return types.Hash{}, fmt.Errorf("payload is not the CBOR array [time, [tx…], anchor]: %w", err)
	}
	return w.Anchor, nil
}
