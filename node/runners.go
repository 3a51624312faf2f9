package node

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/store"
)

// The node serves the runner market methods.
var _ rpc.Runners = (*Node)(nil)

// RunnerRecord reads a runner at the latest block; nil when unregistered.
func (n *Node) RunnerRecord(a types.Address) (*runner.Runner, error) {
	return runner.ReadRunner(n.headState(), a)
}

// RunnerAddresses lists the registered runners at the latest block.
func (n *Node) RunnerAddresses() ([]types.Address, error) { return runner.Runners(n.headState()) }

// RunnerDelegation reads d's delegation at runner r.
func (n *Node) RunnerDelegation(r, d types.Address) (*runner.Delegation, error) {
	return runner.ReadDelegation(n.headState(), r, d)
}

// Job reads a job at the latest block; nil when there is none.
func (n *Node) Job(id uint64) (*runner.Job, error) { return runner.ReadJob(n.headState(), id) }

// RunnerParams are the runner market's parameters at the latest block.
func (n *Node) RunnerParams() (runner.Params, error) { return runner.LoadParams(n.headState()) }

// JobCount is how many jobs were ever posted.
func (n *Node) JobCount() (uint64, error) {
	st := n.headState()
	c := runner.JobCount(st)
	return c, st.Err()
}

// continuationReceipts adds the receipts of the block's job continuations
// (the Resolve Jobs step) to the receipt store and the transaction index,
// keyed by runner.ContinuationID and placed after the block's count
// transactions, so eth-style receipt lookups find them. They are not in
// the header's ReceiptsRoot, which covers the transactions' receipts (the
// job record keeps the continuation's outcome in the state root).
func continuationReceipts(batch *store.Batch, height uint64, count int, jobs *execution.JobResult) error {
	if jobs == nil {
		return nil
	}
	for k, c := range jobs.Continuations {
		rc := c.Receipt()
		enc, err := rc.Encode()
		if err != nil {
			return fmt.Errorf("encode job %d continuation receipt: %w", c.JobID, err)
		}
		batch.TxIndex = append(batch.TxIndex, store.Write{Key: txIndexKey(rc.TxHash), Value: encodeTxLocation(height, uint64(count+k))})
		batch.TxReceipts = append(batch.TxReceipts, store.Write{Key: receiptKey(rc.TxHash), Value: enc})
	}
	return nil
}
