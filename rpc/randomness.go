package rpc

import (
	"context"
	"errors"
)

// Sources of a block's randomness R_n (§3.4), as cowboy_getRandomness
// reports them.
const (
	// RandomnessBeacon: R_n = BLAKE3("cowboy/beacon/v1" ‖ σ), σ the epoch
	// group key's threshold signature on the block's vote message.
	RandomnessBeacon = "beacon"
	// RandomnessVRF: the epoch has no beacon key (none in genesis, or the
	// set changed and no DKG ran); R_n is the proposer's VRF output.
	RandomnessVRF = "vrf"
	// RandomnessDevnet: the single-validator devnet's keccak of the parent
	// hash and height, predictable by anyone.
	RandomnessDevnet = "devnet"
)

// RandomnessJSON is cowboy_getRandomness's result: R_n and what proves it.
type RandomnessJSON struct {
	Height     Quantity `json:"height"`
	Randomness Hash     `json:"randomness"`
	Source     string   `json:"source"`
	// Sigma is σ_n (96 bytes), null unless Source is "beacon".
	Sigma *Bytes `json:"sigma"`
	// GroupKey is the epoch's beacon group public key (48 bytes), null
	// unless Source is "beacon".
	GroupKey *Bytes `json:"groupKey"`
	// ConsensusHash, ConsensusRound (the full round, epoch<<32 + round in
	// epoch) and Height make the vote message σ signs: hash ‖ height_be8 ‖
	// round_be8. Null on a devnet.
	ConsensusHash  *Hash     `json:"consensusHash"`
	ConsensusRound *Quantity `json:"consensusRound"`
	Epoch          *Quantity `json:"epoch"`
	// KeySource is where the group key comes from: "genesis" (the genesis
	// file's), "dkg" (the epoch KeyEpoch DKG's) or "carried" (an earlier
	// epoch's DKG key, KeyEpoch, after this epoch's DKG failed); empty
	// unless Source is "beacon".
	KeySource string    `json:"keySource,omitempty"`
	KeyEpoch  *Quantity `json:"keyEpoch,omitempty"`
	// Note says why the source is what it is (e.g. the DKG did not run).
	Note string `json:"note"`
}

// RandomnessReporter is what a node offers for cowboy_getRandomness; a
// backend without it answers -32601.
type RandomnessReporter interface {
	// Randomness is R_n of the finalized block at height; unknown: an
	// error wrapping ErrNotFound.
	Randomness(height uint64) (*RandomnessJSON, error)
}

// getRandomness takes a height (0x-hex quantity).
func getRandomness(_ context.Context, b Backend, p *params) (any, *Error) {
	r, ok := b.(RandomnessReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_getRandomness is not served by this node")
	}
	var q Quantity
	if err := p.decode(0, "height", &q); err != nil {
		return nil, p.bad(0, "height", err)
	}
	out, err := r.Randomness(uint64(q))
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "no finalized block at height %s", q)
	}
	if err != nil {
		return nil, internal(err)
	}
	return out, nil
}

// Randomness calls cowboy_getRandomness.
func (c *Client) Randomness(ctx context.Context, height uint64) (*RandomnessJSON, error) {
	out := new(RandomnessJSON)
	if err := c.Call(ctx, out, "cowboy_getRandomness", Quantity(height)); err != nil {
		return nil, err
	}
	return out, nil
}
