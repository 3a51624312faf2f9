package node

import (
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// The node serves the runner market methods.
var _ rpc.Runners = (*Node)(nil)

// RunnerRecord reads a runner at the latest block; nil when unregistered.
func (n *Node) RunnerRecord(a types.Address) (*runner.Runner, error) {
	return runner.ReadRunner(n.newState(), a)
}

// RunnerAddresses lists the registered runners at the latest block.
func (n *Node) RunnerAddresses() ([]types.Address, error) { return runner.Runners(n.newState()) }

// RunnerDelegation reads d's delegation at runner r.
func (n *Node) RunnerDelegation(r, d types.Address) (*runner.Delegation, error) {
	return runner.ReadDelegation(n.newState(), r, d)
}

// Job reads a job at the latest block; nil when there is none.
func (n *Node) Job(id uint64) (*runner.Job, error) { return runner.ReadJob(n.newState(), id) }

// RunnerParams are the runner market's parameters at the latest block.
func (n *Node) RunnerParams() (runner.Params, error) { return runner.LoadParams(n.newState()) }

// JobCount is how many jobs were ever posted.
func (n *Node) JobCount() (uint64, error) {
	st := n.newState()
	c := runner.JobCount(st)
	return c, st.Err()
}
