package execution

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
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
}

// Build executes candidates in order into one block, skipping invalid ones
// and deferring those whose limits no longer fit under the block caps
// (§17.8: 20,000,000 cycles, 1,000,000 cells) less the timer lane's
// reservation when timers are due (§17.9, TxCycleCap), then delivers the
// due timers.
func Build(st *state.StateDB, bc *BlockContext, candidates []*types.Tx) (*Result, error) {
	r := &Result{}
	st.PruneDedup(bc.Height)
	st.Grow(journalPerTx * len(candidates))
	txCap, err := TxCycleCap(st, bc.Height)
	if err != nil {
		return nil, fmt.Errorf("build block %d: %w", bc.Height, err)
	}
	for _, tx := range candidates {
		if tx.CyclesLimit > txCap-r.CyclesUsed || tx.CellsLimit > fees.CapCells-r.CellsUsed {
			r.Deferred = append(r.Deferred, tx)
			continue
		}
		rc, err := ApplyTx(st, bc, tx)
		if st.Err() != nil {
			return nil, fmt.Errorf("build block %d: %w", bc.Height, st.Err())
		}
		if err != nil {
			r.Rejected = append(r.Rejected, Rejection{Tx: tx, Err: err})
			continue
		}
		r.add(tx, rc)
	}
	if err := r.deliverTimers(st, bc); err != nil {
		return nil, fmt.Errorf("build block %d: %w", bc.Height, err)
	}
	st.RecordDeliveries(bc.Height, bc.delivered)
	if err := endBlock(st, bc); err != nil {
		return nil, fmt.Errorf("build block %d: %w", bc.Height, err)
	}
	return r, nil
}

// journalPerTx is how many state changes a transfer journals (nonce,
// prepayment, debit, credit, refund, burn, tip).
const journalPerTx = 7

// Execute replays a block that someone else built: every transaction must
// be valid and the caps respected, or the block is invalid.
func Execute(st *state.StateDB, bc *BlockContext, txs []*types.Tx) (*Result, error) {
	r := &Result{}
	st.PruneDedup(bc.Height)
	txCap, err := TxCycleCap(st, bc.Height)
	if err != nil {
		return nil, fmt.Errorf("block %d: %w", bc.Height, err)
	}
	for i, tx := range txs {
		if tx.CyclesLimit > txCap-r.CyclesUsed || tx.CellsLimit > fees.CapCells-r.CellsUsed {
			return nil, fmt.Errorf("block %d tx %d: limits exceed the block caps (%d cycles for transactions, §17.9 lanes)", bc.Height, i, txCap)
		}
		rc, err := ApplyTx(st, bc, tx)
		if st.Err() != nil {
			return nil, fmt.Errorf("block %d: %w", bc.Height, st.Err())
		}
		if err != nil {
			return nil, fmt.Errorf("block %d tx %d %s: %w", bc.Height, i, tx.Hash(), err)
		}
		r.add(tx, rc)
	}
	if err := r.deliverTimers(st, bc); err != nil {
		return nil, fmt.Errorf("block %d: %w", bc.Height, err)
	}
	st.RecordDeliveries(bc.Height, bc.delivered)
	if err := endBlock(st, bc); err != nil {
		return nil, fmt.Errorf("block %d: %w", bc.Height, err)
	}
	return r, nil
}

func (r *Result) add(tx *types.Tx, rc *types.Receipt) {
	r.Txs = append(r.Txs, tx)
	r.Receipts = append(r.Receipts, rc)
	r.CyclesUsed += rc.CyclesUsed
	r.CellsUsed += rc.CellsUsed
}

// deliverTimers runs the Deliver Timers step after the transactions, in
// the cells the transactions left.
func (r *Result) deliverTimers(st *state.StateDB, bc *BlockContext) error {
	tr, err := DeliverTimers(st, bc, fees.CapCells-r.CellsUsed)
	if err != nil {
		return err
	}
	r.Timers = tr
	r.CyclesUsed += tr.CyclesUsed
	r.CellsUsed += tr.CellsUsed
	return nil
}
