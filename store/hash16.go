package store

import (
	"encoding/binary"
	"slices"
)

// Sixteen hashes at once. A commit's hashes are independent in groups:
// the keys and values of its writes, its new leaves, and its new internal
// nodes depth by depth (a node's children are deeper), so the tree update
// first builds the new nodes and then hashes them in groups of 16 with one
// AVX-512 compression per group (compress_amd64.s), where the processor
// has it. Elsewhere, or with arena.simd off, the same groups are hashed one
// lane at a time by the scalar compress; the tests compare the two.

// ivRows is BLAKE3's initial value in every lane.
var ivRows = func() (r [8][16]uint32) {
	for w := range r {
		for l := range r[w] {
			r[w][l] = iv[w]
		}
	}
	return r
}()

var fullBlock = func() (r [16]uint32) {
	for l := range r {
		r[l] = blockSize
	}
	return r
}()

// compress16Generic is compress16AVX512 lane by lane.
func compress16Generic(cv *[8][16]uint32, m *[16][16]uint32, blockLen *[16]uint32, out *[8][16]uint32, flags uint32) {
	for l := 0; l < 16; l++ {
		var c [8]uint32
		var w [16]uint32
		for i := range c {
			c[i] = cv[i][l]
		}
		for i := range w {
			w[i] = m[i][l]
		}
		o := compress(&c, &w, blockLen[l], flags)
		for i := range o {
			out[i][l] = o[i]
		}
	}
}

// hasher16 holds the transposed inputs and outputs of a group.
type hasher16 struct {
	simd bool
	m    [16][16]uint32
	out  [8][16]uint32
	blen [16]uint32
}

func (h *hasher16) compress(cv *[8][16]uint32, blockLen *[16]uint32, flags uint32) {
	if h.simd && haveAVX512 {
		compress16AVX512(cv, &h.m, blockLen, &h.out, flags)
	} else {
		compress16Generic(cv, &h.m, blockLen, &h.out, flags)
	}
}

// load32 puts 32 bytes as words w..w+7 of lane l.
func (h *hasher16) load32(l, w int, b *[32]byte) {
	le := binary.LittleEndian
	for i := 0; i < 8; i++ {
		h.m[w+i][l] = le.Uint32(b[4*i:])
	}
}

// load64 puts a 64-byte block as the message of lane l.
func (h *hasher16) load64(l int, b *[64]byte) {
	le := binary.LittleEndian
	for i := 0; i < 16; i++ {
		h.m[i][l] = le.Uint32(b[4*i:])
	}
}

// result is lane l's hash (the first 8 output words).
func (h *hasher16) result(l int, dst *[32]byte) {
	le := binary.LittleEndian
	for i := 0; i < 8; i++ {
		le.PutUint32(dst[4*i:], h.out[i][l])
	}
}

// nodes sets the hash of internal nodes whose children's hashes are known.
func (h *hasher16) nodes(a *arena, refs []ref) {
	for c := range slices.Chunk(refs, 16) {
		for l, r := range c {
			in := a.inode(r)
			h.load32(l, 0, a.hashPtr(in.left))
			h.load32(l, 8, a.hashPtr(in.right))
		}
		h.compress(&ivRows, &fullBlock, flagsOneBlock)
		for l, r := range c {
			h.result(l, &a.inode(r).hash)
		}
	}
}

// leaves sets the hash of leaves: BLAKE3(0x00 || path || valueHash), a
// full block then one of a single byte.
func (h *hasher16) leaves(a *arena, refs []ref) {
	var cv [8][16]uint32
	var one [16]uint32
	for l := range one {
		one[l] = 1
	}
	for c := range slices.Chunk(refs, 16) {
		for l, r := range c {
			lf := a.leaf(r)
			var in [64]byte
			in[0] = leafTag
			copy(in[1:33], lf.path[:])
			copy(in[33:64], lf.valueHash[:31])
			h.load64(l, &in)
		}
		h.compress(&ivRows, &fullBlock, flagChunkStart)
		cv = h.out
		h.m = [16][16]uint32{}
		for l, r := range c {
			h.m[0][l] = uint32(a.leaf(r).valueHash[31])
		}
		h.compress(&cv, &one, flagChunkEnd|flagRoot)
		for l, r := range c {
			h.result(l, &a.leaf(r).hash)
		}
	}
}

// sums sets *dst[i] = BLAKE3(ins[i]) for inputs of at most 64 bytes.
func (h *hasher16) sums(ins [][]byte, dst []*[32]byte) {
	for c := range slices.Chunk(ins, 16) {
		for l, b := range c {
			var in [64]byte
			copy(in[:], b)
			h.load64(l, &in)
			h.blen[l] = uint32(len(b))
		}
		h.compress(&ivRows, &h.blen, flagsOneBlock)
		for l := range c {
			h.result(l, dst[l])
		}
		dst = dst[len(c):]
	}
}
