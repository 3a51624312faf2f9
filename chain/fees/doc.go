// Package fees holds the dual EIP-1559 fee market: the consensus constants
// of technical-spec-v2 §4 and §17, basefee adjustment, intrinsic costs, the
// per-transaction fee split (burned basefee, proposer tip) and lane tags.
//
// Everything is integer arithmetic on base units: no floating point may
// reach a basefee, because every node must compute the same number.
package fees
