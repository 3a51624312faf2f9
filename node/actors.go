package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The node serves the actor methods.
var _ rpc.Actors = (*Node)(nil)

// ActorCode returns the deployed source of the actor at addr.
func (n *Node) ActorCode(addr types.Address) (types.Hash, []byte, error) {
	st := n.headState()
	c, err := st.Code(addr)
	if err == nil {
		err = st.Err()
	}
	if err != nil {
		return types.Hash{}, nil, err
	}
	if c == nil {
		return types.Hash{}, nil, fmt.Errorf("%s has no code: %w", addr, rpc.ErrNotFound)
	}
	return c.CodeHash, c.Source, nil
}

// ActorStorage reads one storage key of an actor as of the block Head() reports.
func (n *Node) ActorStorage(addr types.Address, ns byte, key []byte) ([]byte, error) {
	st := n.headState()
	v := st.GetStorage(addr, ns, key)
	return v, st.Err()
}

// Call simulates req on a throwaway view of the latest state, as if it
// were included in the next block. A payload (a method call) to an account
// without code (and not a native system actor) is refused with
// rpc.ErrNoActor: executed, it would be a transfer that runs nothing
// (issue 16). Without a payload it simulates the plain transfer, as the
// block would.
func (n *Node) Call(req rpc.CallRequest) (*types.Receipt, error) {
	st := n.newState()
	if req.To != nil && len(req.Payload) > 0 && *req.To != staking.Address && !runner.Handles(*req.To) && !st.IsActor(*req.To) {
		if err := st.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w at %s: the account holds no code (deploy one with `cowboy actor deploy`)", rpc.ErrNoActor, *req.To)
	}
	h := n.Head()
	bc := &execution.BlockContext{ChainID: n.cfg.ChainID, Height: h.Height + 1, Time: max(uint64(n.cfg.Now().Unix()), h.Time),
		Proposer: n.proposer, Basefees: fees.NextBasefees(h), Beacon: devnetBeacon(h.Hash(), h.Height+1)}
	cycles, cells := req.Cycles, req.Cells
	if cycles == 0 || cycles > fees.MaxTxCycles {
		cycles = fees.MaxTxCycles
	}
	if cells == 0 || cells > fees.MaxTxCells {
		cells = fees.MaxTxCells
	}
	rc := execution.Simulate(st, bc, req.From, req.To, req.Value, req.Payload, cycles, cells)
	return rc, st.Err()
}

// Logs scans the receipts of the blocks in f's range for matching events.
func (n *Node) Logs(f rpc.LogFilter) ([]rpc.Log, error) {
	var out []rpc.Log
	for h := f.FromBlock; h <= f.ToBlock; h++ {
		blk, err := n.blockByNumber(h)
		if err != nil {
			return nil, err
		}
		bh := blk.Header.Hash()
		var idx uint64
		for i, tx := range blk.Txs {
			rc, _, err := n.Receipt(tx.Hash())
			if err != nil {
				return nil, fmt.Errorf("block %d tx %d: %w", h, i, err)
			}
			for _, e := range rc.Events {
				if (f.Address == nil || *f.Address == e.Address) && (f.Name == "" || f.Name == e.Name) {
					out = append(out, rpc.Log{Event: e, Height: h, BlockHash: bh, TxHash: rc.TxHash, TxIndex: uint64(i), LogIndex: idx})
				}
				idx++
			}
		}
	}
	return out, nil
}
