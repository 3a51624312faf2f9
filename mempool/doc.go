// Package mempool holds valid transactions waiting for a block (§6.4):
// per-sender nonce order, replacement by a higher fee, and selection by
// §6.4's effective fee with ties broken by transaction hash. Transactions
// are tagged with their lane; only the user lane is used by transfers.
//
// The pool checks signatures when a transaction arrives (in parallel, in
// AddBatch) and caches the sender on the transaction, so block execution
// never recovers a signature again.
package mempool
