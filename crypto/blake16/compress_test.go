package blake16

import (
	"encoding/binary"
	"math/bits"
	"math/rand"
	"testing"

	"lukechampine.com/blake3"
)

// compressRef is BLAKE3's compression function for counter 0 written
// from the specification, one input at a time: the reference the 16
// lanes are held to.
func compressRef(cv *[8]uint32, m [16]uint32, blockLen, flags uint32) (out [8]uint32) {
	v := [16]uint32{cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
		iv[0], iv[1], iv[2], iv[3], 0, 0, blockLen, flags}
	g := func(a, b, c, d int, x, y uint32) {
		v[a] += v[b] + x
		v[d] = bits.RotateLeft32(v[d]^v[a], -16)
		v[c] += v[d]
		v[b] = bits.RotateLeft32(v[b]^v[c], -12)
		v[a] += v[b] + y
		v[d] = bits.RotateLeft32(v[d]^v[a], -8)
		v[c] += v[d]
		v[b] = bits.RotateLeft32(v[b]^v[c], -7)
	}
	perm := [16]int{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8}
	for r := 0; r < 7; r++ {
		g(0, 4, 8, 12, m[0], m[1])
		g(1, 5, 9, 13, m[2], m[3])
		g(2, 6, 10, 14, m[4], m[5])
		g(3, 7, 11, 15, m[6], m[7])
		g(0, 5, 10, 15, m[8], m[9])
		g(1, 6, 11, 12, m[10], m[11])
		g(2, 7, 8, 13, m[12], m[13])
		g(3, 4, 9, 14, m[14], m[15])
		var p [16]uint32
		for i := range p {
			p[i] = m[perm[i]]
		}
		m = p
	}
	for i := range out {
		out[i] = v[i] ^ v[i+8]
	}
	return out
}

// TestCompress holds the 16-lane compression to the reference, lane by
// lane, on random chaining values, messages, block lengths and flags (the
// store's and the Merkle roots' hashes use only a few of each; this
// covers the rest).
func TestCompress(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for n := 0; n <= 64; n += 13 { // the reference is BLAKE3's on one-block inputs
		in := make([]byte, 64)
		rng.Read(in[:n])
		var m [16]uint32
		for j := range m {
			m[j] = binary.LittleEndian.Uint32(in[4*j:])
		}
		out := compressRef(&iv, m, uint32(n), flagChunkStart|flagChunkEnd|flagRoot)
		var got [32]byte
		for j, w := range out {
			binary.LittleEndian.PutUint32(got[4*j:], w)
		}
		if got != blake3.Sum256(in[:n]) {
			t.Fatalf("reference: BLAKE3 of %d bytes differs", n)
		}
	}
	if !Available {
		t.Skip("no AVX-512 here")
	}
	for i := 0; i < 300; i++ {
		var cv [8][16]uint32
		var m [16][16]uint32
		var blen [16]uint32
		for w := range cv {
			for l := range cv[w] {
				cv[w][l] = rng.Uint32()
			}
		}
		for w := range m {
			for l := range m[w] {
				m[w][l] = rng.Uint32()
			}
		}
		for l := range blen {
			blen[l] = uint32(rng.Intn(65))
		}
		flags := uint32(rng.Intn(16))
		var out [8][16]uint32
		Compress(&cv, &m, &blen, &out, flags)
		for l := 0; l < 16; l++ {
			var c [8]uint32
			var w [16]uint32
			for j := range c {
				c[j] = cv[j][l]
			}
			for j := range w {
				w[j] = m[j][l]
			}
			want := compressRef(&c, w, blen[l], flags)
			for j := range want {
				if out[j][l] != want[j] {
					t.Fatalf("case %d lane %d: word %d is %08x, want %08x", i, l, j, out[j][l], want[j])
				}
			}
		}
	}
}
