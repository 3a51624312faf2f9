// Package mempool holds valid transactions waiting for a block (§6.4):
// per-sender nonce order, replacement by a higher fee, and selection by
// §6.4's effective fee with ties broken by transaction hash. Transactions
// are tagged with their lane; only the user lane is used by transfers.
//
// Select stops where a block is full by the candidates' intrinsic costs
// (§17.2, §17.8), so a proposal carries no candidate that cannot execute.
//
// The pool checks signatures when a transaction arrives (in parallel, in
// AddBatch) and caches the sender on the transaction, so block execution
// never recovers a signature again.
package mempool
