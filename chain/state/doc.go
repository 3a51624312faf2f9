// Package state is the world-state view that execution reads and writes:
// accounts (nonce, balance, code hash) and chain-wide records such as the
// total supply, cached over the committed store with a journal so a failed
// message can be reverted (v2 "Accounts and State").
//
// It never writes to disk: at the end of a block, Writes returns the
// changed keys, sorted, for the node to commit to the store in one batch.
package state
