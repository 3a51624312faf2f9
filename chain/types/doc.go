// Package types defines the chain's data: addresses, hashes, transactions,
// blocks, headers, receipts and events, with their canonical CBOR encodings
// (RFC 8949 §4.2, technical-spec-v2 §2.5).
//
// Encodings here are consensus rules: a byte changed is a fork. Decoders are
// strict: a transaction whose bytes are not exactly the canonical re-encoding
// of what they decode to is rejected (spec/README.md "integers on the wire").
package types
