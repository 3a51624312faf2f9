// Package execution is the state transition function (v2 "The State
// Transition Function"): it checks a transaction's validity (§2.2), charges
// dual-metered fees (§2.3, §17), moves value, and assembles a block's
// transactions within the block caps.
//
// It is pure with respect to its inputs: given the same state view, block
// context and transactions it makes the same writes and receipts on every
// node. It never touches disk, network or clock.
package execution
