package store

import (
	"encoding/binary"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// The tree's BLAKE3 hashes (defined in store/verifier) on their fixed-size
// inputs, as direct calls of the compression function (compress.go): the
// same bytes as verifier.NodeHash, verifier.LeafHash and blake3.Sum256
// (TestHashes holds them to it), without the general hasher's copies into
// and out of a 64-byte buffer, its 64-byte output and its chaining value
// and counter as variables. Internal nodes, most of a commit's hashing, are
// one compression; leaves (65 bytes) two.

// BLAKE3's flags and initial value.
const (
	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagRoot       = 1 << 3
	flagsOneBlock  = flagChunkStart | flagChunkEnd | flagRoot
	blockSize      = 64
	leafTag        = 0x00 // first byte of a leaf's hash input
)

var iv = [8]uint32{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

// words loads 32 bytes as 8 little-endian words, BLAKE3's message order.
func words(dst []uint32, b *[32]byte) {
	le := binary.LittleEndian
	_ = dst[7]
	dst[0], dst[1], dst[2], dst[3] = le.Uint32(b[0:4]), le.Uint32(b[4:8]), le.Uint32(b[8:12]), le.Uint32(b[12:16])
	dst[4], dst[5], dst[6], dst[7] = le.Uint32(b[16:20]), le.Uint32(b[20:24]), le.Uint32(b[24:28]), le.Uint32(b[28:32])
}

// digest stores a chaining value as the 32-byte hash.
func digest(out *[8]uint32) (h [32]byte) {
	le := binary.LittleEndian
	le.PutUint32(h[0:4], out[0])
	le.PutUint32(h[4:8], out[1])
	le.PutUint32(h[8:12], out[2])
	le.PutUint32(h[12:16], out[3])
	le.PutUint32(h[16:20], out[4])
	le.PutUint32(h[20:24], out[5])
	le.PutUint32(h[24:28], out[6])
	le.PutUint32(h[28:32], out[7])
	return h
}

// nodeHash is verifier.NodeHash: BLAKE3(left || right).
func nodeHash(left, right *[32]byte) [32]byte {
	var m [16]uint32
	words(m[:8], left)
	words(m[8:], right)
	out := compress(&iv, &m, blockSize, flagsOneBlock)
	return digest(&out)
}

// leafHash is verifier.LeafHash: BLAKE3(0x00 || path || valueHash), a
// 65-byte input: one full block, then a block holding the last byte.
func leafHash(path, valueHash *[32]byte) [32]byte {
	var in [64]byte
	in[0] = leafTag
	copy(in[1:33], path[:])
	copy(in[33:64], valueHash[:31])
	var m [16]uint32
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(in[4*i:])
	}
	cv := compress(&iv, &m, blockSize, flagChunkStart)
	m = [16]uint32{uint32(valueHash[31])}
	out := compress(&cv, &m, 1, flagChunkEnd|flagRoot)
	return digest(&out)
}

// sum256 is blake3.Sum256, with a one-compression path for inputs of at
// most 64 bytes (keys, small values).
func sum256(b []byte) [32]byte {
	if len(b) > blockSize {
		return verifier.LeafValueHash(b)
	}
	var in [64]byte
	copy(in[:], b)
	var m [16]uint32
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(in[4*i:])
	}
	out := compress(&iv, &m, uint32(len(b)), flagsOneBlock)
	return digest(&out)
}
