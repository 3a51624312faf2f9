package node

import (
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The node reports the validator registry (cowboy_getValidators).
var _ rpc.ValidatorReporter = (*Node)(nil)

// Validators reads epoch's set (nil: the latest block's epoch) and the
// registry records at the latest block.
func (n *Node) Validators(epoch *uint64) (*rpc.ValidatorSet, error) {
	st := n.headState()
	h := n.Head().Height
	p, err := staking.ReadParams(st)
	if errors.Is(err, staking.ErrNotInitialized) {
		return nil, fmt.Errorf("%w: %v", rpc.ErrNotFound, err)
	}
	if err != nil {
		return nil, err
	}
	k := p.Epoch(h)
	if epoch != nil {
		k = *epoch
	}
	set, err := staking.ReadEpochSet(st, k)
	if err != nil {
		if st.Err() != nil {
			return nil, st.Err()
		}
		return nil, fmt.Errorf("%w: no validator set for epoch %d at block %d (epoch k's set is written at the end of block k·%d − 1)", rpc.ErrNotFound, k, h, p.EpochLength)
	}
	vals, err := staking.Validators(st)
	if err != nil {
		return nil, err
	}
	misses, err := staking.ReadMisses(st)
	if err != nil {
		return nil, err
	}
	out := &rpc.ValidatorSet{Height: h, Set: set, Validators: vals, Misses: misses, Params: p}
	if n.net == nil {
		prod := n.proposer
		out.Producer = &prod
	}
	return out, nil
}
