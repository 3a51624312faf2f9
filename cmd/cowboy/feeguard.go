package main

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// HighFeeFactor is how far above the current basefee a max fee or tip may
// go before the CLI asks for --yes (issue 16: a --tip-per-cycle of 2^64-1
// was accepted silently and could cost 184,467 CBY). The node's own
// estimate is 2 × basefee + 1, far below it; a basefee rising 12.5% per
// full block needs about 40 full blocks in a row to move 100×.
const HighFeeFactor = 100

// feeGuard refuses fees far above the basefee unless the user said --yes.
// It names each offending flag and the worst case in CBY.
func feeGuard(tx *types.Tx, bf *rpc.BasefeesJSON, yes bool) error {
	if yes {
		return nil
	}
	type check struct {
		field string
		value uint64
		base  uint64
		unit  string
	}
	for _, c := range []check{
		// Tips first: a tip given alone carries the max fee with it, and
		// the user should read about the flag they typed.
		{"tip-per-cycle", tx.TipPerCycle, uint64(bf.Cycle), "Cycle"},
		{"tip-per-cell", tx.TipPerCell, uint64(bf.Cell), "Cell"},
		{"max-fee-per-cycle", tx.MaxFeePerCycle, uint64(bf.Cycle), "Cycle"},
		{"max-fee-per-cell", tx.MaxFeePerCell, uint64(bf.Cell), "Cell"},
	} {
		limit := new(big.Int).Mul(new(big.Int).SetUint64(max(c.base, 1)), big.NewInt(HighFeeFactor))
		if new(big.Int).SetUint64(c.value).Cmp(limit) > 0 {
			return fmt.Errorf("--%s %d base units per %s is more than %d× the current basefee (%d): this transaction could cost up to %s in fees; "+
				"pass --yes if you mean it", c.field, c.value, c.unit, HighFeeFactor, c.base, types.FormatCBY(worstFee(tx)))
		}
	}
	return nil
}

// worstFee is the most the transaction's fees can cost (value excluded):
// cycles_limit × max_fee_per_cycle + cells_limit × max_fee_per_cell.
func worstFee(tx *types.Tx) *big.Int {
	return fees.MaxCost(tx.CyclesLimit, tx.CellsLimit, tx.MaxFeePerCycle, tx.MaxFeePerCell)
}
