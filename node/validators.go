package node

import (
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The node reports the validator registry (cowboy_getValidators).
var _ rpc.ValidatorReporter = (*Node)(nil)

// Validators reads epoch's set (nil: the latest block's epoch) and the
// registry records at the latest block.
func (n *Node) Validators(epoch *uint64) (*rpc.ValidatorsJSON, error) {
	st := n.newState()
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
	missed := make(map[types.Address]uint64, len(misses))
	for _, m := range misses {
		missed[m.Address] = m.Count
	}
	out := &rpc.ValidatorsJSON{Height: rpc.Quantity(h), Epoch: rpc.Quantity(set.Epoch), Seed: rpc.Hash(set.Seed),
		Members: make([]rpc.MemberJSON, len(set.Members)), Validators: make([]rpc.ValidatorJSON, len(vals)),
		Params: rpc.StakingParamsJSON{EpochLength: rpc.Quantity(p.EpochLength), MinValidatorStake: rpc.NewBigQuantity(p.MinStake),
			UnbondingPeriod: rpc.Quantity(p.UnbondingPeriod), JailPeriod: rpc.Quantity(p.JailPeriod),
			DowntimeWindow: rpc.Quantity(p.DowntimeWindow), DoubleSignSlashBps: rpc.Quantity(p.SlashBps)}}
	for i, m := range set.Members {
		out.Members[i] = rpc.MemberJSON{Index: rpc.Quantity(i), Address: rpc.Address(m.Address), BLSPublicKey: rpc.Bytes(m.BLSPublicKey),
			Stake: rpc.NewBigQuantity(m.Stake), Weight: rpc.Quantity(m.Weight)}
	}
	for i, v := range vals {
		out.Validators[i] = rpc.ValidatorJSON{Address: rpc.Address(v.Address), Status: v.Status(), BLSPublicKey: rpc.Bytes(v.BLSPublicKey),
			Stake: rpc.NewBigQuantity(v.Stake), JailUntil: rpc.Quantity(v.JailUntil), UnbondUntil: rpc.Quantity(v.UnbondUntil),
			Missed: rpc.Quantity(missed[v.Address]), RegisteredAt: rpc.Quantity(v.Registered)}
	}
	if n.net == nil {
		p := rpc.Address(n.proposer)
		out.Producer = &p
	}
	return out, nil
}
