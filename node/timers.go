package node

import (
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// The node serves the timer methods.
var _ rpc.Timers = (*Node)(nil)

// Timer reads pending timer id at the latest block; nil when it is not
// pending.
func (n *Node) Timer(id uint64) (*timers.Timer, error) {
	return timers.New(n.headState()).Get(id)
}

// TimersOf lists owner's pending timers at the latest block.
func (n *Node) TimersOf(owner types.Address) ([]*timers.Timer, error) {
	q := timers.New(n.headState())
	ids, err := q.ByOwner(owner)
	if err != nil {
		return nil, err
	}
	out := make([]*timers.Timer, 0, len(ids))
	for _, id := range ids {
		t, err := q.Get(id)
		if err != nil {
			return nil, err
		}
		if t != nil {
			out = append(out, t)
		}
	}
	return out, nil
}

// TimerReceipts returns the kept receipts of timer id.
func (n *Node) TimerReceipts(id uint64) ([]timers.Receipt, error) {
	return timers.Receipts(n.headState(), id)
}

// TimerProof proves timer id's record at a retained height.
func (n *Node) TimerProof(id, height uint64) (*rpc.StateProof, error) {
	b, err := n.blockByNumber(height)
	if err != nil {
		return nil, err
	}
	key := timers.RecordKey(id)
	p, v, err := n.db.ProveValue(store.StateDB, store.Key(key), height)
	if errors.Is(err, store.ErrNotRetained) {
		return nil, fmt.Errorf("%v: %w", err, rpc.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &rpc.StateProof{Header: b.Header, StoreKey: key, Value: v, Proof: p}, nil
}
