package execution

import (
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// TestStatelessLimitsAtTheirEdges checks each §2.2 stateless limit at its
// value and one past it: the limit itself is allowed, one more is
// refused with that rule's error.
func TestStatelessLimitsAtTheirEdges(t *testing.T) {
	// sized returns a transfer whose encoding is exactly n bytes.
	sized := func(n int) *types.Tx {
		tx := transferTx(func(tx *types.Tx) { tx.CellsLimit = fees.MaxTxCells })
		pl := n - tx.Size()
		for range 4 { // the payload's length header grows with it
			tx = transferTx(func(tx *types.Tx) {
				tx.CellsLimit = fees.MaxTxCells
				tx.Payload = make([]byte, pl)
			})
			pl += n - tx.Size()
		}
		if tx.Size() != n {
			t.Fatalf("could not size a transaction to %d bytes (got %d)", n, tx.Size())
		}
		return tx
	}
	for _, c := range []struct {
		name    string
		tx      *types.Tx
		refused *TxError // nil: none of the limits below refuses it
	}{
		{"exactly max_tx_size", sized(types.MaxTxSize), nil},
		{"a byte over max_tx_size", sized(types.MaxTxSize + 1), ErrTxTooLarge},
		{"cycles limit at the maximum", transferTx(func(tx *types.Tx) { tx.CyclesLimit = fees.MaxTxCycles }), nil},
		{"cycles limit one over", transferTx(func(tx *types.Tx) { tx.CyclesLimit = fees.MaxTxCycles + 1 }), ErrCyclesLimitTooHigh},
		{"cells limit at the maximum", transferTx(func(tx *types.Tx) { tx.CellsLimit = fees.MaxTxCells }), nil},
		{"cells limit one over", transferTx(func(tx *types.Tx) { tx.CellsLimit = fees.MaxTxCells + 1 }), ErrCellsLimitTooHigh},
		{"tip per cycle equal to the max fee", transferTx(func(tx *types.Tx) { tx.TipPerCycle, tx.MaxFeePerCycle = 7, 7 }), nil},
		{"tip per cycle above the max fee", transferTx(func(tx *types.Tx) { tx.TipPerCycle, tx.MaxFeePerCycle = 8, 7 }), ErrTipAboveMaxFee},
		{"tip per cell equal to the max fee", transferTx(func(tx *types.Tx) { tx.TipPerCell, tx.MaxFeePerCell = 7, 7 }), nil},
		{"tip per cell above the max fee", transferTx(func(tx *types.Tx) { tx.TipPerCell, tx.MaxFeePerCell = 8, 7 }), ErrTipAboveMaxFee},
	} {
		_, err := CheckStateless(c.tx, chainID)
		for _, rule := range []*TxError{ErrTxTooLarge, ErrCyclesLimitTooHigh, ErrCellsLimitTooHigh, ErrTipAboveMaxFee} {
			if got := errors.Is(err, rule); got != (rule == c.refused) {
				t.Errorf("%s: err = %v; refused by %s: %v", c.name, err, rule.Code, got)
			}
		}
	}
}

// TestAccessListAndFeeEdges checks §2.2(d)'s access-list size and the
// basefee rule at their edges: exactly MaxAccessListEntries addresses and
// max fees equal to the basefees are allowed, one more entry or one
// base unit less is refused.
func TestAccessListAndFeeEdges(t *testing.T) {
	list := func(n int) []types.AccessTuple {
		al := make([]types.AccessTuple, n)
		for i := range al {
			al[i].Address = types.Address{0: byte(i >> 8), 1: byte(i), 19: 1}
		}
		return al
	}
	if err := checkAccessList(list(MaxAccessListEntries)); err != nil {
		t.Errorf("%d entries: %v", MaxAccessListEntries, err)
	}
	if err := checkAccessList(list(MaxAccessListEntries + 1)); !errors.Is(err, ErrAccessList) {
		t.Errorf("%d entries: %v", MaxAccessListEntries+1, err)
	}
	bf := Basefees{Cycle: 5, Cell: 3}
	for _, c := range []struct {
		name        string
		cycle, cell uint64
		ok          bool
	}{
		{"both equal to the basefees", 5, 3, true},
		{"cycle fee one below", 4, 3, false},
		{"cell fee one below", 5, 2, false},
	} {
		tx := &types.Tx{MaxFeePerCycle: c.cycle, MaxFeePerCell: c.cell}
		if err := CheckFees(tx, bf); (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrFeeBelowBasefee)) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
