// Package dkg is the distributed key generation of the epoch beacon key
// (technical-spec-v2 §3.4, §12.4: R_n = VRF_sk_epoch(QC_{n-1}) with a key
// no single party knows): Joint-Feldman (Pedersen's DKG) over BLS12-381.
//
// Every member deals a random polynomial of degree threshold−1 with Feldman
// commitments and encrypts each share to the member that owns it
// (Diffie-Hellman on the members' BLS keys with an ephemeral key per
// dealing). A member whose share does not match the commitments complains
// by revealing the Diffie-Hellman key with a Chaum-Pedersen proof, so
// anyone can decrypt the share and judge; a dealer proven wrong, malformed
// or silent is not qualified. The group key is the sum of the qualified
// dealers' constant commitments, and each member's share the sum of what
// the qualified dealers sent it. Stake maps to shares by Allocate, with a
// threshold every Simplex quorum (more than 2/3 of the stake) reaches.
//
// The package is pure computation: dealings and complaints are values the
// caller carries (on chain or over the consensus network) and the deadline
// is the caller's.
package dkg
