package rpc

import (
	"context"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Block states, in the order a block passes them (§6.1; issue 8: RPC
// reports proposed, committed, finalized).
const (
	StatusProposed  = "proposed"  // a leader sent it; the consensus holds it
	StatusCommitted = "committed" // it gathered a quorum certificate
	StatusFinalized = "finalized" // its child was certified in the next round; executed
)

// BlockStatusJSON is cowboy_getBlockStatus's result.
type BlockStatusJSON struct {
	// Hash is the chain block hash once the block is finalized (what
	// cowboy_getBlockByHash takes), and the consensus block hash before:
	// a block has no chain header until it is executed.
	Hash Hash `json:"hash"`
	// ConsensusHash is the consensus (simplex) block hash, the same in
	// every state; null on a devnet, which has no consensus.
	ConsensusHash *Hash    `json:"consensusHash"`
	Height        Quantity `json:"height"`
	// Round is the consensus round the block was proposed in, counted
	// from 0 within its epoch (0 for genesis); null on a devnet.
	Round *Quantity `json:"round"`
	// Epoch is the epoch of that round; null on a devnet.
	Epoch  *Quantity `json:"epoch"`
	Status string    `json:"status"`
}

// BlockStatus is a block's state as the node knows it;
// cowboy_getBlockStatus renders it as BlockStatusJSON.
type BlockStatus struct {
	Hash          types.Hash  // chain block hash once finalized, consensus block hash before
	ConsensusHash *types.Hash // nil on a devnet
	Height        uint64
	Round, Epoch  *uint64 // round within its epoch, and the epoch; nil on a devnet
	Status        string  // StatusProposed, StatusCommitted or StatusFinalized
}

// NewBlockStatusJSON renders s.
func NewBlockStatusJSON(s *BlockStatus) *BlockStatusJSON {
	out := &BlockStatusJSON{Hash: Hash(s.Hash), Height: Quantity(s.Height), Round: optQuantity(s.Round),
		Epoch: optQuantity(s.Epoch), Status: s.Status}
	if s.ConsensusHash != nil {
		h := Hash(*s.ConsensusHash)
		out.ConsensusHash = &h
	}
	return out
}

// BlockStatusReporter is what a node offers for cowboy_getBlockStatus. It
// is optional: a backend without it answers -32601.
type BlockStatusReporter interface {
	// BlockStatusByHash finds a block by its chain block hash or its
	// consensus block hash; unknown: an error wrapping ErrNotFound.
	BlockStatusByHash(h types.Hash) (*BlockStatus, error)
	// BlockStatusByHeight finds the finalized block at height or, above
	// the finalized height, the block the consensus holds there that is
	// furthest along (committed before proposed, then the latest round);
	// none: an error wrapping ErrNotFound.
	BlockStatusByHeight(height uint64) (*BlockStatus, error)
}

// getBlockStatus takes a 32-byte hash (chain or consensus block hash) or a
// height. Unknown blocks are error -32001 rather than null: null would not
// say whether the node never saw the block or dropped it as a losing fork
// it no longer holds, and a status poller must not read it as "pending".
func getBlockStatus(_ context.Context, b Backend, p *params) (any, *Error) {
	r, ok := b.(BlockStatusReporter)
	if !ok {
		return nil, newError(CodeMethodNotFound, "method cowboy_getBlockStatus is not served by this node")
	}
	var s string
	if err := p.decode(0, "block", &s); err != nil {
		return nil, p.bad(0, "block", errors.New("want a 32-byte 0x hash or a 0x-hex height"))
	}
	if len(s) == 66 {
		var h Hash
		if err := h.UnmarshalText([]byte(s)); err != nil {
			return nil, p.bad(0, "block", err)
		}
		st, err := r.BlockStatusByHash(types.Hash(h))
		if errors.Is(err, ErrNotFound) {
			return nil, newError(CodeNotFound, "block %s is not known to this node (never seen, or a fork it dropped)", s)
		}
		if err != nil {
			return nil, internal(err)
		}
		return NewBlockStatusJSON(st), nil
	}
	var q Quantity
	if err := q.UnmarshalText([]byte(s)); err != nil {
		return nil, p.bad(0, "block", fmt.Errorf("want a 32-byte 0x hash or a 0x-hex height: %w", err))
	}
	st, err := r.BlockStatusByHeight(uint64(q))
	if errors.Is(err, ErrNotFound) {
		return nil, newError(CodeNotFound, "no block at height %s is known to this node", q)
	}
	if err != nil {
		return nil, internal(err)
	}
	return NewBlockStatusJSON(st), nil
}

// BlockStatusByHash calls cowboy_getBlockStatus with a chain or consensus
// block hash. An unknown block is an *Error with Code CodeNotFound.
func (c *Client) BlockStatusByHash(ctx context.Context, h Hash) (*BlockStatusJSON, error) {
	st := new(BlockStatusJSON)
	if err := c.Call(ctx, st, "cowboy_getBlockStatus", h); err != nil {
		return nil, err
	}
	return st, nil
}

// BlockStatusByHeight calls cowboy_getBlockStatus with a height.
func (c *Client) BlockStatusByHeight(ctx context.Context, height uint64) (*BlockStatusJSON, error) {
	st := new(BlockStatusJSON)
	if err := c.Call(ctx, st, "cowboy_getBlockStatus", Quantity(height)); err != nil {
		return nil, err
	}
	return st, nil
}
