// Package vrf is the verifiable random function of proposer rotation and
// the per-block beacon (v2 §6.1, §3.4): a BLS signature VRF. The proof is
// the BLS12-381 signature of the validator's key over the input, and the
// output is the BLAKE3 hash of that signature.
//
// It is a VRF because BLS signatures are unique: for a valid public key (in
// the subgroup, with its proof of possession checked) and a message there is
// exactly one signature that verifies, so the holder of the key cannot
// choose among outputs, and nobody without the key can predict the output
// (that would forge a signature). The input a consensus proposer proves is
//
//	"cowboy/vrf/v1" || epoch_seed (32 bytes) || height (8 bytes, big-endian)
//
// The package is pure computation.
package vrf

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// Sizes in bytes.
const (
	OutputSize = 32
	ProofSize  = bls.SignatureSize
)

// ErrBadProof is returned when a proof does not verify.
var ErrBadProof = errors.New("vrf: proof does not verify")

var (
	inputTag  = []byte("cowboy/vrf/v1")
	outputTag = []byte("cowboy/vrf/output/v1")
)

// Output is the VRF's pseudorandom 32 bytes.
type Output [OutputSize]byte

// Input is the message a proposer proves for a height under an epoch seed.
func Input(seed [32]byte, height uint64) []byte {
	b := make([]byte, 0, len(inputTag)+32+8)
	b = append(b, inputTag...)
	b = append(b, seed[:]...)
	return binary.BigEndian.AppendUint64(b, height)
}

// Prove evaluates the VRF on input and returns the output and its proof.
func Prove(sk *bls.SecretKey, input []byte) (Output, []byte) {
	proof := sk.Sign(input).Bytes()
	return hashProof(proof), proof
}

// Verify checks proof against pk and input and returns the output it proves.
// The output is recomputed from the proof, never taken from the sender.
func Verify(pk *bls.PublicKey, input, proof []byte) (Output, error) {
	sig, err := bls.SignatureFromBytes(proof)
	if err != nil {
		return Output{}, fmt.Errorf("vrf verify: %w", err)
	}
	if !bls.Verify(pk, input, sig) {
		return Output{}, ErrBadProof
	}
	return hashProof(proof), nil
}

// ProofToHash is the output a proof stands for (RFC 9381's name for the
// step). It does not check the proof: call it only on a proof that Verify
// accepted, or that the consensus already verified.
func ProofToHash(proof []byte) Output { return hashProof(proof) }

func hashProof(proof []byte) Output {
	return Output(crypto.Blake3(outputTag, proof))
}

// tagEpochSeed prefixes the derivation of the next epoch's seed.
const tagEpochSeed = "cowboy/epoch-seed/v1"

// NextEpochSeed derives epoch k+1's seed from epoch k's and the beacon
// (VRF output) of epoch k's last block (v2 "Validator Set": epoch
// randomness is derived at epoch boundaries):
//
//	keccak256("cowboy/epoch-seed/v1" || seed || beacon)
//
// The validator registry computes it when it writes the next epoch's set;
// the consensus then draws proposers and VRF inputs from it.
func NextEpochSeed(seed, beacon [32]byte) [32]byte {
	return crypto.Keccak256([]byte(tagEpochSeed), seed[:], beacon[:])
}
