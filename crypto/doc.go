// Package crypto holds the primitives the chain signs and hashes with:
// secp256k1 recoverable ECDSA for external accounts (technical-spec-v2 §1.1,
// §16.1), legacy Keccak-256 for transaction and address hashing, and BLAKE3
// for Merkle commitments.
//
// It never touches the network, the disk or the clock; every function is a
// pure computation so that every node derives the same bytes.
package crypto
