package rpc

import (
	"context"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// ConsensusReporter is what a node offers for cowboy_consensusStatus. It is
// optional: a backend without it answers -32601.
type ConsensusReporter interface {
	// ConsensusStatus describes where the node's consensus stands.
	ConsensusStatus() ConsensusStatus
}

// ConsensusStatus is where a node's consensus stands, as the node knows
// it; cowboy_consensusStatus renders it as ConsensusStatusJSON (the node
// returns values, the RPC layer owns their JSON).
type ConsensusStatus struct {
	Mode            string  // "devnet", "validator" or "full"
	Validator       *uint64 // index in the validator set; nil unless a validator
	Round, Epoch    *uint64 // round within the epoch and the epoch; nil on a devnet
	FinalizedHeight uint64
	// Committed and Proposed are the certified and the uncertified blocks
	// above the finalized height, lowest first.
	Committed, Proposed []ConsensusBlock
	Peers               uint64
}

// ConsensusBlock is a consensus block above the finalized height.
type ConsensusBlock struct {
	Hash                 types.Hash // consensus (simplex) block hash
	Height, Round, Epoch uint64     // Round within Epoch, from 0
	Proposer             types.Address
	Parent               types.Hash // consensus hash of the parent
}

// NewConsensusStatusJSON renders s; the block lists are [] when empty.
func NewConsensusStatusJSON(s ConsensusStatus) ConsensusStatusJSON {
	return ConsensusStatusJSON{Mode: s.Mode, Validator: optQuantity(s.Validator), Round: optQuantity(s.Round),
		Epoch: optQuantity(s.Epoch), FinalizedHeight: Quantity(s.FinalizedHeight), Peers: Quantity(s.Peers),
		Committed: consensusBlocksJSON(s.Committed), Proposed: consensusBlocksJSON(s.Proposed)}
}

func consensusBlocksJSON(bs []ConsensusBlock) []ConsensusBlockJSON {
	out := make([]ConsensusBlockJSON, len(bs))
	for i, b := range bs {
		out[i] = ConsensusBlockJSON{Hash: Hash(b.Hash), Height: Quantity(b.Height), Round: Quantity(b.Round),
			Epoch: Quantity(b.Epoch), Proposer: Address(b.Proposer), Parent: Hash(b.Parent)}
	}
	return out
}

// optQuantity is nil for nil, else the value as a Quantity.
func optQuantity(v *uint64) *Quantity {
	if v == nil {
		return nil
	}
	q := Quantity(*v)
	return &q
}

// ConsensusStatusJSON is cowboy_consensusStatus's result. Blocks of a
// multi-validator chain pass three states (§6.1): proposed (a leader sent
// it), committed (it gathered a quorum certificate) and finalized (its
// child was certified in the next round; only then is it executed and
// served by cowboy_getBlockByNumber). Committed lists the certified
// blocks above the finalized height and Proposed the blocks the consensus
// holds above it without a certificate, by consensus block hash, lowest
// first.
type ConsensusStatusJSON struct {
	// Mode is "devnet" (one validator, every block final when made),
	// "validator" or "full" (follows without voting).
	Mode            string               `json:"mode"`
	Validator       *Quantity            `json:"validator"` // index in the validator set; null unless a validator
	Round           *Quantity            `json:"round"`     // within the epoch, from 0; null on a devnet
	Epoch           *Quantity            `json:"epoch"`     // of the current round (node/epoch.go); null on a devnet
	FinalizedHeight Quantity             `json:"finalizedHeight"`
	Committed       []ConsensusBlockJSON `json:"committed"`
	Proposed        []ConsensusBlockJSON `json:"proposed"`
	Peers           Quantity             `json:"peers"`
}

// ConsensusBlockJSON is a consensus block above the finalized height: not
// executed yet, so it has no chain header, only its consensus identity.
type ConsensusBlockJSON struct {
	Hash     Hash     `json:"hash"` // consensus (simplex) block hash
	Height   Quantity `json:"height"`
	Round    Quantity `json:"round"` // within Epoch, from 0
	Epoch    Quantity `json:"epoch"`
	Proposer Address  `json:"proposer"` // the proposing validator's address
	Parent   Hash     `json:"parent"`   // consensus hash of the parent
}

func consensusStatus(_ context.Context, b Backend, _ *params) (any, *Error) {
	c, ok := b.(ConsensusReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_consensusStatus is not served by this node")
	}
	return NewConsensusStatusJSON(c.ConsensusStatus()), nil
}
