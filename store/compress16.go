package store

import "github.com/cowboy-chain/cowboy/crypto/blake16"

// haveAVX512 selects compress16AVX512, the 16-lane compression of
// crypto/blake16 (AVX-512, where the processor and the operating system
// support it).
var haveAVX512 = blake16.Available

func compress16AVX512(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32) {
	blake16.Compress(cv, m, blockLen, out, flags)
}
