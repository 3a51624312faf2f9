package types

import "encoding/binary"

// VoteMessageSize is len(block_hash || height || round).
const VoteMessageSize = 32 + 8 + 8

// VoteMessage is the byte string a consensus vote signs (technical-spec-v2
// §6.1: "BLS12-381 over the block_hash || height || round domain"):
//
//	block_hash (32) || height (8, big-endian) || round (8, big-endian)
//
// It lives here, below both, because the consensus signs it and the
// validator registry judges double-signing evidence by it: one definition,
// so the two can never disagree.
func VoteMessage(h Hash, height, round uint64) []byte {
	m := make([]byte, 0, VoteMessageSize)
	m = append(m, h[:]...)
	m = binary.BigEndian.AppendUint64(m, height)
	return binary.BigEndian.AppendUint64(m, round)
}
