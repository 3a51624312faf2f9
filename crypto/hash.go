package crypto

import (
	"crypto/hkdf"
	"crypto/sha256"
	"fmt"

	"golang.org/x/crypto/sha3"
	"lukechampine.com/blake3"
	"lukechampine.com/blake3/guts"
)

// Keccak256 is the legacy (pre-NIST) Keccak-256 that Ethereum uses; Cowboy
// keeps it so that one key controls an account on both chains (§16.1).
func Keccak256(data ...[]byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	for _, d := range data {
		h.Write(d)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Blake3 is the hash of the state commitment and Merkle roots
// (v2 "Storage and State Persistence").
func Blake3(data ...[]byte) [32]byte {
	if len(data) == 1 {
		return blake3.Sum256(data[0])
	}
	// Small inputs (Merkle nodes) are joined on the stack: one Sum256 is
	// several times faster than a streaming hasher. (copy, not append:
	// append would make the compiler move buf to the heap.)
	var buf [128]byte
	n := 0
	for _, d := range data {
		n += len(d)
	}
	if n <= len(buf) {
		n = 0
		for _, d := range data {
			n += copy(buf[n:], d)
		}
		return sum256Short(buf[:n])
	}
	h := blake3.New(32, nil)
	for _, d := range data {
		h.Write(d)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// randomnessSalt separates the actor randomness derivation from any other
// use of HKDF over the same beacon.
var randomnessSalt = []byte("cowboy/randomness/v1")

// Randomness is HKDF-SHA256(R_n, label) (v2 §3.4: "Actors MAY call an API
// which returns HKDF(R_n, label)"): 32 bytes that differ per label and per
// block, so two purposes in one block never share randomness. The salt is
// fixed; the label is the HKDF info.
func Randomness(beacon [32]byte, label []byte) [32]byte {
	k, err := hkdf.Key(sha256.New, beacon[:], randomnessSalt, string(label), 32)
	if err != nil {
		// hkdf.Key fails only for lengths beyond 255·32 bytes.
		panic(fmt.Sprintf("hkdf: %v", err))
	}
	var out [32]byte
	copy(out[:], k)
	return out
}

// sum256Short is blake3.Sum256 for inputs of at most one chunk (1 KiB),
// written as Sum512's own short-input branches: blake3.Sum256 makes the
// compiler move its argument to the heap (its long-input branch hands it to
// a Hasher), which would cost Blake3 an allocation per Merkle node.
// TestBlake3Short holds it to blake3.Sum256.
func sum256Short(b []byte) (out [32]byte) {
	var n guts.Node
	if len(b) <= guts.BlockSize {
		var block [guts.BlockSize]byte
		copy(block[:], b)
		n = guts.Node{CV: guts.IV, Block: guts.BytesToWords(block), BlockLen: uint32(len(b)),
			Flags: guts.FlagChunkStart | guts.FlagChunkEnd | guts.FlagRoot}
	} else {
		n = guts.CompressChunk(b, &guts.IV, 0, 0)
		n.Flags |= guts.FlagRoot
	}
	full := guts.WordsToBytes(guts.CompressNode(n))
	copy(out[:], full[:32])
	return out
}
