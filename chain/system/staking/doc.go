// Package staking is the validator registry, the native system actor at
// 0x…0c (v2 "Validator Set", "Staking and Rewards", "Slashing"): validators
// register with self-bonded stake and a BLS key, join and leave the
// consensus set at epoch boundaries, are jailed for downtime and jailed and
// slashed for double signing, and are paid block inflation pro rata by
// stake.
//
// The registry's balance holds all bonded and unbonding stake. Its records
// live in the state (chain/state, journaled) under statekey.KindSystem at the
// registry's address; docs/state-layout.md lists them. Execution routes
// every transaction to Address into Apply and calls EndBlock at the end of
// every block; the node reads the validator set of each epoch with
// ReadEpochSet.
package staking
