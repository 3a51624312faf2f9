// Package bls signs and verifies with BLS12-381 in the "minimal public key"
// variant: public keys are 48-byte compressed G1 points and signatures are
// 96-byte compressed G2 points, as in Ethereum's beacon chain. Consensus
// votes (v2 §6.1) are aggregated into one signature per certificate, so the
// cheap side (adding public keys in G1) is the one done per signer, and the
// verifier checks one pairing equation per certificate.
//
// Signatures use the IETF ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_
// and proofs of possession BLS_POP_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_. A
// public key may take part in an aggregate only after its proof of possession
// was checked (rogue-key attacks); callers that admit validators must call
// VerifyPossession first.
//
// The package is pure computation: no clock, network or disk. Batch
// verification derives its random scalars from the inputs themselves, so
// every node reaches the same verdict.
package bls
