package execution

import "fmt"

// TxError is why a transaction is refused. Nothing is charged for a refused
// transaction: it never enters a block. Reason is a stable machine-readable
// code (RPC clients switch on it); Error is the sentence for humans.
type TxError struct {
	Code string
	Msg  string
}

func (e *TxError) Error() string {
	if e.Msg == "" {
		return e.Code
	}
	return e.Msg
}

// Reason is the stable code, e.g. "nonce_too_low".
func (e *TxError) Reason() string { return e.Code }

// Is matches on the code, so errors.Is(err, ErrNonceTooLow) works for any
// message.
func (e *TxError) Is(target error) bool {
	t, ok := target.(*TxError)
	return ok && t.Code == e.Code
}

func reject(base *TxError, format string, args ...any) *TxError {
	return &TxError{Code: base.Code, Msg: fmt.Sprintf(format, args...)}
}

// The validity rules of technical-spec-v2 §2.2 and the project's decisions,
// one error each.
var (
	ErrDecode             = &TxError{Code: "decode"}
	ErrTxTooLarge         = &TxError{Code: "tx_too_large"}
	ErrCyclesLimitTooHigh = &TxError{Code: "cycles_limit_too_high"}
	ErrCellsLimitTooHigh  = &TxError{Code: "cells_limit_too_high"}
	ErrIntrinsicCycles    = &TxError{Code: "cycles_limit_below_intrinsic"}
	ErrIntrinsicCells     = &TxError{Code: "cells_limit_below_intrinsic"}
	ErrInvalidSignature   = &TxError{Code: "invalid_signature"}
	ErrWrongChainID       = &TxError{Code: "wrong_chain_id"}
	ErrNonceTooLow        = &TxError{Code: "nonce_too_low"}
	ErrNonceTooHigh       = &TxError{Code: "nonce_too_high"}
	ErrInsufficientFunds  = &TxError{Code: "insufficient_funds"}
	ErrFeeBelowBasefee    = &TxError{Code: "max_fee_below_basefee"}
	ErrTipAboveMaxFee     = &TxError{Code: "tip_above_max_fee"}
	ErrPayload            = &TxError{Code: "payload_decode"}
	ErrAccessList         = &TxError{Code: "invalid_access_list"}
	// ErrWouldFail is fee estimation's answer when the simulated actor
	// call or deployment fails: sending it would only pay for the failure.
	ErrWouldFail = &TxError{Code: "execution_would_fail"}
)
