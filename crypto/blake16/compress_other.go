//go:build !amd64 || purego

package blake16

// Available is false: only amd64 has the assembly.
const Available = false

func compress16AVX512(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32) {
	panic("blake16: no AVX-512 compression on this platform")
}
