package execution

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/system/staking"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// Rejection is a candidate left out of a block because it is invalid.
type Rejection struct {
	Tx  *types.Tx
	Err error
}

// Result is a block's executed transactions and their totals.
type Result struct {
	Txs        []*types.Tx
	Receipts   []*types.Receipt
	CyclesUsed uint64
	CellsUsed  uint64
	Rejected   []Rejection // invalid candidates: drop them from the mempool
	Deferred   []*types.Tx // valid but did not fit: keep them for a later block
	// Timers is the Deliver Timers step; its cycles and cells are in
	// CyclesUsed and CellsUsed too (they are block space).
	Timers *TimerResult
	// Jobs is the Resolve Jobs step (job continuations in the runner lane).
	Jobs *JobResult
}

// Build is the state transition of one block, the only one the node has:
// the devnet's producer, a validator and a full node all execute a block
// through it, the first with the candidates it picked from its mempool, the
// others with the candidates of a finalized proposal (execute after
// finality, docs/decisions.md "Consensus wiring"). It executes the
// candidates in the block's VRF order (VRFOrder, §6.4), skipping invalid
// ones and deferring those whose limits no longer fit their lane (laneMeter,
// §17.9) under the block caps (§17.8: 20,000,000 cycles, 1,000,000 cells)
// less the timer lane's reservation when timers are due (TxCycleCap: when
// none are due it spills to the transactions), with the later nonces of a
// deferred sender, then runs FinishBlock, whose first step delivers the due
// timers.
//
// Whether a candidate is skipped depends only on the state and the
// candidate, so every node that runs Build on the same input reaches the
// same result.
func Build(st *state.StateDB, bc *BlockContext, candidates []*types.Tx) (*Result, error) {
	r := &Result{}
	st.PruneDedup(bc.Height)
	st.Grow(journalPerTx * len(candidates))
	txCap, err := TxCycleCap(st, bc.Height)
	if err != nil {
		return nil, fmt.Errorf("build block %d: %w", bc.Height, err)
	}
	order := VRFOrder(bc.Beacon, candidates)
	lanes := newLaneMeter(txCap, order)
	waiting := map[types.Address]bool{} // senders with a deferred transaction
	for _, tx := range order {
		lane := LaneOf(tx)
		charged, fits := lanes.fit(lane, tx.CyclesLimit)
		if from, err := tx.Sender(); !fits || tx.CellsLimit > fees.CapCells-r.CellsUsed || (err == nil && waiting[from]) {
			// Its later nonces wait with it rather than fail as too high.
			if err == nil {
				waiting[from] = true
			}
			r.Deferred = append(r.Deferred, tx)
			lanes.done(lane, charged, 0)
			continue
		}
		rc, err := ApplyTx(st, bc, tx)
		if st.Err() != nil {
			return nil, fmt.Errorf("build block %d: %w", bc.Height, st.Err())
		}
		if err != nil {
			r.Rejected = append(r.Rejected, Rejection{Tx: tx, Err: err})
			lanes.done(lane, charged, 0)
			continue
		}
		r.add(tx, rc)
		lanes.done(lane, charged, rc.CyclesUsed)
	}
	if err := FinishBlock(st, bc, r); err != nil {
		return nil, fmt.Errorf("build block %d: %w", bc.Height, err)
	}
	return r, nil
}

// journalPerTx is how many state changes a transfer journals (nonce,
// prepayment, debit, credit, refund, burn, tip).
const journalPerTx = 7

func (r *Result) add(tx *types.Tx, rc *types.Receipt) {
	r.Txs = append(r.Txs, tx)
	r.Receipts = append(r.Receipts, rc)
	r.CyclesUsed += rc.CyclesUsed
	r.CellsUsed += rc.CellsUsed
}

// blockStep is one step of the state transition after the block's
// transactions.
type blockStep struct {
	name string
	run  func(st *state.StateDB, bc *BlockContext, r *Result) error
}

// endOfBlock is what runs after the transactions, in the order of
// technical-spec-v2 "The State Transition Function":
//
//	Execute Transactions → Deliver Timers → Resolve Jobs → Adjust Basefees → Mint Rewards
//
// The transactions are Build's loop. Deliver Timers runs the due timers in
// the timer lane and the queue's maintenance (DeliverTimers); its runs add
// to the block's usage in r. Resolve Jobs settles the runner market's jobs
// and runs their continuations (resolveJobs), before the dedup record
// (timer deliveries and job callbacks are messages whose ids it holds). Adjust Basefees changes no state: the
// next block's basefees follow from this block's header
// (fees.NextBasefees). Mint Rewards is the validator registry's end of
// block, with downtime and the epoch's validator set.
var endOfBlock = []blockStep{
	{"Deliver Timers: due timers in the timer lane, queue maintenance (chain/timers)", deliverTimers},
	{"Resolve Jobs: runner market deadlines, settlements, continuations in the runner lane (chain/system/runner)", resolveJobs},
	{"record this block's message deliveries for dedup (§13 dedup_window)", recordDeliveries},
	{"validator registry: downtime, epoch sets, rewards (Mint Rewards)", stakingEndBlock},
}

// FinishBlock runs the end-of-block steps (endOfBlock) in their order,
// adding what they use to r. It is part of Build; it is exported so the
// order has one name to point at.
func FinishBlock(st *state.StateDB, bc *BlockContext, r *Result) error {
	for _, s := range endOfBlock {
		if err := s.run(st, bc, r); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		if err := st.Err(); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	return nil
}

// deliverTimers is the Deliver Timers step, in the cells the transactions
// left; its runs count as block usage.
func deliverTimers(st *state.StateDB, bc *BlockContext, r *Result) error {
	tr, err := DeliverTimers(st, bc, fees.CapCells-min(fees.CapCells, r.CellsUsed))
	if err != nil {
		return err
	}
	r.Timers = tr
	r.CyclesUsed += tr.CyclesUsed
	r.CellsUsed += tr.CellsUsed
	return nil
}

func recordDeliveries(st *state.StateDB, bc *BlockContext, _ *Result) error {
	st.RecordDeliveries(bc.Height, bc.delivered)
	return nil
}

func stakingEndBlock(st *state.StateDB, bc *BlockContext, _ *Result) error {
	return staking.EndBlock(st, staking.BlockInfo{Height: bc.Height, Beacon: bc.Beacon, Signers: bc.Signers, Proposer: bc.Proposer})
}
