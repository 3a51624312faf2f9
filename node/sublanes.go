package node

import (
	"github.com/cowboy-chain/cowboy/chain/execution"
	"github.com/cowboy-chain/cowboy/chain/timers"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// publishLanes announces a committed block's timer runs and job results
// to the WebSocket subscribers of "timers" and "jobResults" (rpc
// sublanes.go).
func (n *Node) publishLanes(h *types.Header, res *execution.Result) {
	var runs []*timers.Receipt
	if res.Timers != nil {
		runs = res.Timers.Receipts
	}
	var jobs []rpc.JobResultJSON
	if res.Jobs != nil && len(res.Jobs.Continuations) > 0 {
		hash := h.Hash()
		for _, c := range res.Jobs.Continuations {
			jobs = append(jobs, rpc.NewJobResultJSON(h.Height, hash, c.JobID, c.Actor, c.Method, c.Status, c.Error,
				c.CyclesUsed, c.CellsUsed, c.Fee, c.Events, c.Messages))
		}
	}
	n.events.PublishLanes(h.Height, runs, jobs)
}
