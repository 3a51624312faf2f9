// Package blake16 computes sixteen BLAKE3 compressions at once with
// AVX-512 (compress_amd64.s, written by internal/blake3asm), for callers
// whose hashes come in groups of independent short inputs: the store's
// tree nodes, and a block's Merkle roots level by level (chain/types).
// Where the processor lacks AVX-512, Available is false, Compress must not
// be called, and callers hash one input at a time.
package blake16

import "encoding/binary"

// Compress runs sixteen BLAKE3 compressions (counter 0), one per 32-bit
// lane, words transposed: row w of cv, m and out holds word w of the 16
// inputs; out is the first 8 output words (the chaining value, or the
// hash when flags has ROOT). Only where Available.
func Compress(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32) {
	compress16AVX512(cv, m, blockLen, out, flags)
}

// BLAKE3's flags and initial value.
const (
	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagRoot       = 1 << 3
)

var iv = [8]uint32{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

// rows is a value in every lane.
func rows(v uint32) (r [16]uint32) {
	for l := range r {
		r[l] = v
	}
	return r
}

var ivRows = func() (r [8][16]uint32) {
	for w := range r {
		r[w] = rows(iv[w])
	}
	return r
}()

// group is one group of up to 16 inputs, transposed.
type group struct {
	m   [16][16]uint32
	out [8][16]uint32
}

// load puts a 64-byte block as the message of lane l.
func (g *group) load(l int, b *[64]byte) {
	for w := range g.m {
		g.m[w][l] = binary.LittleEndian.Uint32(b[4*w:])
	}
}

// store writes lane l's hash.
func (g *group) store(l int, dst *[32]byte) {
	for w := range g.out {
		binary.LittleEndian.PutUint32(dst[4*w:], g.out[w][l])
	}
}

// Leaves sets out[i] = BLAKE3(prefix ‖ in[i]) (33 bytes, one block) for
// every i < len(in), sixteen at a time; out may be in itself. Only where
// Available.
func Leaves[H ~[32]byte](prefix byte, in, out []H) {
	var g group
	blen := rows(1 + 32)
	for start := 0; start < len(in); start += 16 {
		c := in[start:min(start+16, len(in))]
		for l := range c {
			var b [64]byte
			b[0] = prefix
			copy(b[1:], c[l][:])
			g.load(l, &b)
		}
		Compress(&ivRows, &g.m, &blen, &g.out, flagChunkStart|flagChunkEnd|flagRoot)
		for l := range c {
			g.store(l, (*[32]byte)(out[start+l][:]))
		}
	}
}

// Nodes sets out[j] = BLAKE3(prefix ‖ in[2j] ‖ in[2j+1]) (65 bytes: a
// full block, then one of a single byte) for every j < len(in)/2, sixteen
// at a time. out may be in itself: each group's inputs are read before
// its outputs are written, and output j never lies past input 2j. Only
// where Available.
func Nodes[H ~[32]byte](prefix byte, in, out []H) {
	var g group
	full, one := rows(64), rows(1)
	pairs := in[:len(in)/2*2]
	for start := 0; start < len(pairs); start += 32 {
		c := pairs[start:min(start+32, len(pairs))]
		var last [16]byte // each pair's right input's last byte: the second block
		for l := range len(c) / 2 {
			var b [64]byte
			b[0] = prefix
			copy(b[1:33], c[2*l][:])
			copy(b[33:], c[2*l+1][:31])
			last[l] = c[2*l+1][31]
			g.load(l, &b)
		}
		Compress(&ivRows, &g.m, &full, &g.out, flagChunkStart)
		cv := g.out
		g.m = [16][16]uint32{}
		for l := range len(c) / 2 {
			g.m[0][l] = uint32(last[l])
		}
		Compress(&cv, &g.m, &one, &g.out, flagChunkEnd|flagRoot)
		for l := range len(c) / 2 {
			g.store(l, (*[32]byte)(out[start/2+l][:]))
		}
	}
}

// MaxSum is the longest input Sums takes: two blocks of one chunk.
const MaxSum = 128

// Sums sets *out[i] = BLAKE3(in[i]) for inputs of at most MaxSum bytes,
// sixteen at a time: inputs of one block together, and those of two
// together (a compression's flags are the same in every lane). Only
// where Available; it panics on a longer input.
func Sums(in [][]byte, out []*[32]byte) {
	var one, two sumBatch
	for i, b := range in {
		switch {
		case len(b) <= 64:
			if one.add(i) {
				one.sum(in, out, false)
			}
		case len(b) <= MaxSum:
			if two.add(i) {
				two.sum(in, out, true)
			}
		default:
			panic("blake16: Sums input longer than MaxSum")
		}
	}
	one.sum(in, out, false)
	two.sum(in, out, true)
}

// sumBatch collects the indices of up to 16 inputs of one shape.
type sumBatch struct {
	idx [16]int
	n   int
	g   group
}

// add collects input i and reports whether the batch is full.
func (b *sumBatch) add(i int) bool {
	b.idx[b.n] = i
	b.n++
	return b.n == len(b.idx)
}

// sum hashes the collected inputs, of two blocks each if two (the first
// one full) else of one, and empties the batch.
func (b *sumBatch) sum(in [][]byte, out []*[32]byte, two bool) {
	if b.n == 0 {
		return
	}
	g := &b.g
	var blen [16]uint32
	for l, i := range b.idx[:b.n] {
		var blk [64]byte
		blen[l] = uint32(copy(blk[:], in[i]))
		g.load(l, &blk)
	}
	if two {
		full := rows(64)
		Compress(&ivRows, &g.m, &full, &g.out, flagChunkStart)
		cv := g.out
		for l, i := range b.idx[:b.n] {
			var blk [64]byte
			blen[l] = uint32(copy(blk[:], in[i][64:]))
			g.load(l, &blk)
		}
		Compress(&cv, &g.m, &blen, &g.out, flagChunkEnd|flagRoot)
	} else {
		Compress(&ivRows, &g.m, &blen, &g.out, flagChunkStart|flagChunkEnd|flagRoot)
	}
	for l, i := range b.idx[:b.n] {
		g.store(l, out[i])
	}
	b.n = 0
}
