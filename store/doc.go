// Package store is the node's authenticated key-value store on Pebble.
//
// Three logical databases, as the spec names them (v2 "Storage and State
// Persistence"): state_db, tx_index and tx_receipts, each committed to by
// its own BLAKE3 root, plus a raw, unauthenticated namespace for block
// bodies and metadata. A block's writes to all of them are one synced
// Pebble batch, so after a crash the store reopens at exactly the last
// committed height.
//
// Commitment: a compact sparse Merkle tree per database (store/verifier
// documents the hashing), kept in memory and rebuilt from the committed
// entries when the store opens. Its root depends only on the contents, not
// on the order of writes or on restarts. A commit updates the trees on
// all cores (smt.go: the top levels of a large batch on separate
// goroutines, combined in a fixed order, so the result never depends on
// scheduling), then hashes the new nodes 16 at a time, leaves first and
// internal nodes deepest first, with AVX-512 where the processor has it
// (hash16.go, crypto/blake16; scalar BLAKE3 compressions elsewhere).
// Nodes live in a pointer-free arena the garbage collector never scans
// (arena.go); a node is freed when the last retained version reaching it
// leaves the window. Proofs of inclusion and non-inclusion are served for
// the last Options.Retain committed heights, also across restarts: each
// block persists an undo log (undo.go) from which Open rebuilds the older
// versions, checking each against its roots. Overwritten values and
// dropped undo logs are reclaimed on disk by Pebble's flushes and
// compactions, in the background (Stats).
//
// On-disk layout (Pebble keys; docs/state-layout.md):
//
//	'a' || db (1 byte) || key (54 bytes)   -> value      authenticated entries
//	'r' || raw key                         -> value      raw namespace
//	'm' "last"                             -> be64(height) || 3 × 32-byte roots
//	'u' || be64(height)                    -> undo log of that block (undo.go)
package store
