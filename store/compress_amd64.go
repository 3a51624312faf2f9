//go:build amd64 && !purego

package store

import "golang.org/x/sys/cpu"

// haveAVX512 selects compress16AVX512 (compress_amd64.s); the processor
// and the operating system must both support AVX-512F.
var haveAVX512 = cpu.X86.HasAVX512F

//go:noescape
func compress16AVX512(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32)
