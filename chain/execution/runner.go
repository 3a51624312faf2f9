package execution

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/pvm"
)

// runRunnerTx executes a call of the runner market's system actors
// (0x01 registry, 0x02 dispatcher, 0x03 verifier; chain/system/runner) and
// fills the receipt; like runStakingTx, a failed call reverts its effects
// and the caller still pays the fee. It returns the cycles used beyond the
// intrinsic cost.
func runRunnerTx(st *state.StateDB, bc *BlockContext, to types.Address, value *big.Int, payload []byte, from types.Address, rc *types.Receipt, cycles uint64) uint64 {
	res, err := runner.Apply(st, runner.Call{To: to, From: from, Value: value, Payload: payload, Height: bc.Height, Beacon: bc.Beacon, Cycles: cycles})
	if err != nil {
		rc.Status, rc.Error = types.ReceiptFailed, err.Error()
	}
	rc.Events = res.Events
	return res.CyclesUsed
}

// systemRefusal says why a message or transfer from an actor to a may not
// happen, or "" if it may: the runner market's balances are stake, escrow
// and treasury, which only its own rules move.
func systemRefusal(a types.Address) string {
	if runner.IsSystem(a) {
		return fmt.Sprintf("%s is the %s: its balance moves only by its own methods (transactions, runner.submit)", a, runner.Name(a))
	}
	return ""
}

// SubmitJob is runner.submit (technical spec §5.3 Post): the running actor
// posts a job, max_price moves from its balance into the dispatcher's
// escrow, and the committee is drawn from this block's beacon. A refused
// spec is a ValueError in the handler.
func (h *handlerHost) SubmitJob(spec []byte) (uint64, error) {
	s, err := runner.DecodeSpec(spec)
	if err != nil {
		return 0, &pvm.HostError{Type: "ValueError", Msg: err.Error()}
	}
	if s.Callback == "" {
		return 0, &pvm.HostError{Type: "ValueError", Msg: "runner.submit needs a callback: the method the result is delivered to"}
	}
	id, _, err := runner.PostJob(h.rt.st, runner.Post{Requester: h.env.to, Escrow: s.Escrow(), Spec: spec, Height: h.rt.bc.Height, Beacon: h.rt.bc.Beacon})
	if err != nil {
		if h.rt.st.Err() != nil {
			return 0, h.rt.st.Err()
		}
		return 0, &pvm.HostError{Type: "ValueError", Msg: err.Error()}
	}
	return id, nil
}

// JobResult is what the Resolve Jobs step did in a block.
type JobResult struct {
	Continuations []*Continuation // in execution order
	CyclesUsed    uint64          // runner lane cycles the continuations used
	CellsUsed     uint64
	Postponed     int // continuations moved to the next block (lane full)
}

// Continuation is the receipt of one job result delivered to its actor.
type Continuation struct {
	JobID      uint64
	Actor      types.Address
	Method     string
	Status     uint64
	Error      string
	CyclesUsed uint64
	CellsUsed  uint64
	Fee        *big.Int
	Burned     *big.Int // the basefee part of Fee
	Tip        *big.Int // the proposer's part of Fee
	Events     []types.Event
	Messages   []types.MessageResult
}

// resolveJobs is the step "Resolve Jobs" of v2 "The State Transition
// Function": the runner market closes commit phases and settles jobs whose
// deadlines are this block (runner.EndBlock), then the results settled in
// earlier blocks run their actors' continuations in the runner lane
// (§6.3, §17.9: RunnerLane budget), in settlement order; what does not fit
// waits for the next block.
func resolveJobs(st *state.StateDB, bc *BlockContext, r *Result) error {
	if err := runner.EndBlock(st, bc.Height); err != nil {
		return err
	}
	due, err := runner.Deliveries(st, bc.Height)
	if err != nil {
		return err
	}
	jr := &JobResult{}
	r.Jobs = jr
	budget := fees.LaneCycleBudget[fees.LaneRunner]
	for _, d := range due {
		cellsLeft := fees.CapCells - min(fees.CapCells, r.CellsUsed+jr.CellsUsed)
		if budget-jr.CyclesUsed < runner.CallbackCycles || cellsLeft < runner.CallbackCells {
			runner.Postpone(st, d.Job, bc.Height)
			jr.Postponed++
			continue
		}
		c, err := runContinuation(st, bc, d)
		if err != nil {
			return fmt.Errorf("job %d continuation: %w", d.Job.ID, err)
		}
		if c == nil { // its actor is over its per-block cycles: next block
			runner.Postpone(st, d.Job, bc.Height)
			jr.Postponed++
			continue
		}
		jr.Continuations = append(jr.Continuations, c)
		jr.CyclesUsed += c.CyclesUsed
		jr.CellsUsed += c.CellsUsed
	}
	r.CyclesUsed += jr.CyclesUsed
	r.CellsUsed += jr.CellsUsed
	return st.Err()
}

// runContinuation runs one job's callback as a message from the result
// verifier (0x03) to the requesting actor, which pays its cycles and cells
// at the basefees (no tip: the lane is reserved). An actor that is gone or
// cannot pay gets no call; the job record keeps the result and says why.
func runContinuation(st *state.StateDB, bc *BlockContext, d runner.Delivery) (*Continuation, error) {
	j := d.Job
	c := &Continuation{JobID: j.ID, Actor: j.Requester, Method: j.Spec.Callback, Status: types.ReceiptFailed, Fee: new(big.Int)}
	if !st.IsActor(j.Requester) {
		c.Error = "the requester is not an actor any more"
		runner.MarkDelivered(st, j, bc.Height, runner.CallbackReceipt{Error: c.Error, Fee: new(big.Int)})
		return c, st.Err()
	}
	// The actor's §12.1 per-block cycles bound the call; with less than a
	// tenth of the usual limit left it waits for the next block.
	limit := min(uint64(runner.CallbackCycles), PerActorBlockCycles-min(PerActorBlockCycles, bc.actorCycles(j.Requester)))
	if limit < runner.CallbackCycles/10 {
		return nil, nil
	}
	cellsLimit := uint64(runner.CallbackCells)
	prepay := fees.MaxCost(limit, cellsLimit, bc.Basefees.Cycle, bc.Basefees.Cell)
	if !st.HasBalance(j.Requester, prepay) {
		c.Error = fmt.Sprintf("the actor cannot pay for its continuation: it needs %s base units up front", prepay)
		runner.MarkDelivered(st, j, bc.Height, runner.CallbackReceipt{Error: c.Error, Fee: new(big.Int)})
		return c, st.Err()
	}
	mustNotFail(st.SubBalance(j.Requester, prepay))
	cycles, cells := uint64(runner.CallbackIntrinsic), uint64(len(d.Args))
	env := &envelope{id: jobMessageID(j.ID), from: runner.VerifierAddress, to: j.Requester, method: j.Spec.Callback,
		args: d.Args, value: new(big.Int), depth: 1}
	rt := newRuntime(st, bc, j.Requester, limit-cycles, cellsLimit-min(cellsLimit, cells))
	ok, errMsg := rt.run(env)
	cycles += rt.cyclesUsed
	cells += rt.cellsUsed
	charge := fees.Compute(cycles, cells, fees.Prices{MaxFee: bc.Basefees.Cycle}, fees.Prices{MaxFee: bc.Basefees.Cell},
		bc.Basefees.Cycle, bc.Basefees.Cell)
	st.AddBalance(j.Requester, new(big.Int).Sub(prepay, charge.Fee))
	st.Burn(charge.Burned)
	st.AddBalance(bc.Proposer, charge.Tip)
	c.CyclesUsed, c.CellsUsed, c.Fee, c.Burned, c.Tip = cycles, cells, charge.Fee, charge.Burned, charge.Tip
	c.Events, c.Messages = rt.events, rt.results
	if ok {
		c.Status = types.ReceiptSuccess
	} else {
		c.Error = errMsg
	}
	runner.MarkDelivered(st, j, bc.Height, runner.CallbackReceipt{OK: ok, Error: c.Error, Cycles: cycles, Cells: cells, Fee: charge.Fee})
	return c, st.Err()
}

// jobMessageID identifies a job's result message (§3.3 dedup set) and
// its receipt: runner.ContinuationID.
func jobMessageID(id uint64) types.Hash { return runner.ContinuationID(id) }

// Receipt is the continuation as a receipt for the block's receipt store,
// keyed by runner.ContinuationID like a transaction's by its hash, so that
// cowboy tx receipt and cowboy_getTransactionReceipt find it. Its first
// message is the result's delivery from the result verifier (0x03) to
// the actor; a continuation that could not run has that one, failed.
func (c *Continuation) Receipt() *types.Receipt {
	id := jobMessageID(c.JobID)
	r := &types.Receipt{TxHash: id, Status: c.Status, CyclesUsed: c.CyclesUsed, CellsUsed: c.CellsUsed,
		Fee: c.Fee, Burned: c.Burned, Tip: c.Tip, Events: c.Events, Error: c.Error, Messages: c.Messages}
	for _, p := range []**big.Int{&r.Fee, &r.Burned, &r.Tip} {
		if *p == nil {
			*p = new(big.Int)
		}
	}
	if len(r.Messages) == 0 {
		r.Messages = []types.MessageResult{{ID: id, From: runner.VerifierAddress, To: c.Actor, Method: c.Method, Depth: 1,
			Status: types.ReceiptFailed, Error: c.Error}}
	}
	return r
}
