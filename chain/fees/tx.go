package fees

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// Basefees are the per-unit basefees one block charges (§4.2): every fee
// rule that needs them takes them from here, the devnet, the validators
// and the mempool alike.
type Basefees struct {
	Cycle, Cell uint64
}

// NextBasefees are what the block after parent charges: §4.2's update of
// each basefee from the parent's use of its meter against the target
// (§4.3, §17.8). The state transition's "Adjust Basefees" step is this
// function: the result is carried in the next header, not in the state.
func NextBasefees(parent *types.Header) Basefees {
	return Basefees{
		Cycle: NextBasefee(parent.BasefeeCycle, parent.CyclesUsed, TargetCycles),
		Cell:  NextBasefee(parent.BasefeeCell, parent.CellsUsed, TargetCells),
	}
}

// KindOf classifies a transaction for its intrinsic cost (§17.2). A
// transfer and an actor message cost the same (10,000 cycles and a cell
// per calldata byte), so the class needs no state: every transaction with
// a destination is priced as a transfer, and whether it runs code is
// decided at execution (chain/execution's dispatch).
func KindOf(tx *types.Tx) Kind {
	if tx.To == nil {
		return KindDeploy
	}
	return KindTransfer
}

// TxIntrinsic is the intrinsic cycles and cells of tx (§17.2, §17.4).
func TxIntrinsic(tx *types.Tx) (cycles, cells uint64) {
	return Intrinsic(KindOf(tx), len(tx.Payload))
}

// TxOrderingFee is §6.4's effective fee of tx at the basefees bf, by which
// the mempool orders candidates and judges replacements.
func TxOrderingFee(tx *types.Tx, bf Basefees) Fee128 {
	ic, ib := TxIntrinsic(tx)
	return OrderingFee(ic, ib,
		Prices{MaxFee: tx.MaxFeePerCycle, Tip: tx.TipPerCycle},
		Prices{MaxFee: tx.MaxFeePerCell, Tip: tx.TipPerCell}, bf.Cycle, bf.Cell)
}

// TxCharge is §2.3's fee of tx for what it used at the basefees bf.
func TxCharge(tx *types.Tx, cyclesUsed, cellsUsed uint64, bf Basefees) Charge {
	return Compute(cyclesUsed, cellsUsed,
		Prices{MaxFee: tx.MaxFeePerCycle, Tip: tx.TipPerCycle},
		Prices{MaxFee: tx.MaxFeePerCell, Tip: tx.TipPerCell}, bf.Cycle, bf.Cell)
}

// TxMaxCost is the most tx can pay in fees: its limits at its max fees,
// prepaid before execution and refunded for what is unused (§2.3).
func TxMaxCost(tx *types.Tx) *big.Int {
	return MaxCost(tx.CyclesLimit, tx.CellsLimit, tx.MaxFeePerCycle, tx.MaxFeePerCell)
}
