package execution

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/chain/fees"
	"github.com/cowboy-chain/cowboy/chain/state"
	"github.com/cowboy-chain/cowboy/chain/types"
)

// MaxAccessListEntries is types.MaxAccessListEntries (§2.2(d)), where the
// limits are defined.
const MaxAccessListEntries = types.MaxAccessListEntries

// KindOf is fees.KindOf, the class that fixes a transaction's intrinsic
// cost (§17.2); kept under this name for callers of execution.
func KindOf(tx *types.Tx) fees.Kind { return fees.KindOf(tx) }

// CheckStateless applies every rule that needs no state (§2.2 (a), (c),
// (d), (e), chain id) and recovers the sender. The mempool runs it, in
// parallel, when a transaction arrives, so signature recovery happens once.
func CheckStateless(tx *types.Tx, chainID uint64) (types.Address, error) {
	if n := tx.Size(); n > types.MaxTxSize {
		return types.Address{}, reject(ErrTxTooLarge, "transaction is %d bytes, max_tx_size is %d", n, types.MaxTxSize)
	}
	if tx.ChainID != chainID {
		return types.Address{}, reject(ErrWrongChainID, "transaction is for chain id %d, this chain is %d", tx.ChainID, chainID)
	}
	if tx.CyclesLimit > fees.MaxTxCycles {
		return types.Address{}, reject(ErrCyclesLimitTooHigh, "cycles_limit %d exceeds the maximum %d", tx.CyclesLimit, fees.MaxTxCycles)
	}
	if tx.CellsLimit > fees.MaxTxCells {
		return types.Address{}, reject(ErrCellsLimitTooHigh, "cells_limit %d exceeds the maximum %d", tx.CellsLimit, fees.MaxTxCells)
	}
	kind := fees.KindOf(tx)
	ic, ib := fees.TxIntrinsic(tx)
	if tx.CyclesLimit < ic {
		return types.Address{}, reject(ErrIntrinsicCycles, "cycles_limit %d is below the intrinsic cost %d", tx.CyclesLimit, ic)
	}
	if tx.CellsLimit < ib {
		return types.Address{}, reject(ErrIntrinsicCells, "cells_limit %d is below the intrinsic cost %d (1 cell per payload byte)", tx.CellsLimit, ib)
	}
	if tx.TipPerCycle > tx.MaxFeePerCycle {
		return types.Address{}, reject(ErrTipAboveMaxFee, "tip_per_cycle %d exceeds max_fee_per_cycle %d", tx.TipPerCycle, tx.MaxFeePerCycle)
	}
	if tx.TipPerCell > tx.MaxFeePerCell {
		return types.Address{}, reject(ErrTipAboveMaxFee, "tip_per_cell %d exceeds max_fee_per_cell %d", tx.TipPerCell, tx.MaxFeePerCell)
	}
	if len(tx.Payload) > 0 {
		if err := types.CheckCanonical(tx.Payload); err != nil {
			return types.Address{}, reject(ErrPayload, "payload is not one canonical CBOR item: %v", err)
		}
	}
	if kind == fees.KindDeploy {
		if _, err := types.DecodeDeployPayload(tx.Payload); err != nil {
			return types.Address{}, reject(ErrPayload, "%v", err)
		}
	}
	if err := checkAccessList(tx.AccessList); err != nil {
		return types.Address{}, err
	}
	from, err := tx.Sender()
	if err != nil {
		return types.Address{}, reject(ErrInvalidSignature, "signature does not recover a sender: %v", err)
	}
	return from, nil
}

// checkAccessList is §2.2(d): at most MaxAccessListEntries addresses, each
// listed once, each storage key listed once per address.
func checkAccessList(al []types.AccessTuple) error {
	if len(al) > MaxAccessListEntries {
		return reject(ErrAccessList, "access list has %d entries, at most %d", len(al), MaxAccessListEntries)
	}
	seen := make(map[types.Address]bool, len(al))
	for i, at := range al {
		if seen[at.Address] {
			return reject(ErrAccessList, "access list entry %d repeats address %s", i, at.Address)
		}
		seen[at.Address] = true
		keys := make(map[types.Hash]bool, len(at.StorageKeys))
		for _, k := range at.StorageKeys {
			if keys[k] {
				return reject(ErrAccessList, "access list entry %d repeats storage key %s", i, k)
			}
			keys[k] = true
		}
	}
	return nil
}

// Basefees are the per-unit basefees a block charges; fee math lives in
// chain/fees and this is its type.
type Basefees = fees.Basefees

// CheckFees is the basefee rule: a transaction whose max fee is below the
// block's basefee cannot be included.
func CheckFees(tx *types.Tx, bf Basefees) error {
	if tx.MaxFeePerCycle < bf.Cycle {
		return reject(ErrFeeBelowBasefee, "max_fee_per_cycle %d is below the cycle basefee %d", tx.MaxFeePerCycle, bf.Cycle)
	}
	if tx.MaxFeePerCell < bf.Cell {
		return reject(ErrFeeBelowBasefee, "max_fee_per_cell %d is below the cell basefee %d", tx.MaxFeePerCell, bf.Cell)
	}
	return nil
}

// UpfrontCost is value + limits × max fees: what the sender must hold
// (§2.2(b)).
func UpfrontCost(tx *types.Tx) *big.Int {
	c := fees.TxMaxCost(tx)
	return c.Add(c, tx.ValueOrZero())
}

// CheckState applies the rules that need the sender's account: the nonce
// must be exactly the account's next nonce, and the balance must cover the
// upfront cost.
func CheckState(st *state.StateDB, tx *types.Tx, from types.Address) error {
	_, err := checkState(st, tx, from)
	return err
}

// checkState is CheckState returning the prepayment (fees.TxMaxCost) it
// computed on the way, so ApplyTx does not compute it again; the caller
// owns it.
func checkState(st *state.StateDB, tx *types.Tx, from types.Address) (*big.Int, error) {
	nonce := st.Nonce(from)
	if tx.Nonce < nonce {
		return nil, reject(ErrNonceTooLow, "nonce %d is too low: account %s is at nonce %d", tx.Nonce, from, nonce)
	}
	if tx.Nonce > nonce {
		return nil, reject(ErrNonceTooHigh, "nonce %d is too high: account %s is at nonce %d", tx.Nonce, from, nonce)
	}
	// The balance must cover prepay + value: the sum is formed in prepay
	// itself (fresh, owned here) and the value taken back after the check,
	// so the check allocates no temporary.
	prepay, value := fees.TxMaxCost(tx), tx.ValueOrZero()
	if need := prepay.Add(prepay, value); !st.HasBalance(from, need) {
		return nil, reject(ErrInsufficientFunds, "account %s holds %s base units, needs %s (value + limits × max fees)", from, st.Balance(from), need)
	}
	return prepay.Sub(prepay, value), nil
}

func mustNotFail(err error) {
	if err != nil {
		panic(fmt.Sprintf("execution invariant broken: %v", err))
	}
}
