//go:build amd64 && !purego

package blake16

import "golang.org/x/sys/cpu"

// Available reports whether Compress runs here (compress_amd64.s): the
// processor and the operating system must both support AVX-512F.
var Available = cpu.X86.HasAVX512F

//go:noescape
func compress16AVX512(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32)
