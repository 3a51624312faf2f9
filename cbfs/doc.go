// Package cbfs is the client side of Cowboy's encrypted distributed storage
// (innovations overview "Encrypted Distributed Storage (CBFS)"; technical
// spec §7 external blobs, §9 actors 0x0A/0x0B, §17.6 storage costs).
//
// A file is cut into segments. Each segment is sealed with AES-256-GCM under
// a key derived with HKDF from the volume key, the file's random FileID and
// the segment index; the nonce and additional data bind the volume, the file
// and the index, so a shard cannot be moved to another file, segment or
// volume without the open failing. The ciphertext is split by Reed-Solomon
// into K data and M parity shards; any K of them rebuild the segment. Every
// shard is named by its BLAKE3 hash and the hashes form the leaves of a
// Merkle tree whose root, with the file's shape, is the 64-byte
// StorageCommitment. A reader checks each shard against the manifest before
// using it, so a tampered shard is dropped and replaced by another.
//
// File names never leave the client in the clear: relays see keyed path
// tags (one per directory level, so a capability token can be scoped to a
// prefix without naming it) and the manifest is sealed under a key derived
// from the volume key.
//
// Capability tokens (token.go) are chains of secp256k1 signatures starting
// at the volume owner, each link narrowing the scope of the one before.
package cbfs
