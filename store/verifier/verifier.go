// Package verifier checks a store proof against a state root. It depends on
// nothing of the node (only BLAKE3), so light clients can build it, also to
// WebAssembly (GOOS=wasip1 or GOOS=js with GOARCH=wasm).
//
// # The tree
//
// Each logical database is a compact sparse Merkle tree over 256-bit paths,
// path = BLAKE3(key) for the 54-byte key. A subtree holding one entry is
// that entry's leaf, placed where its path first diverges from every other
// path, so the tree's shape depends only on the set of keys: the root is a
// function of the contents, whatever order or batching wrote them.
//
//	empty    = 32 zero bytes
//	leaf     = BLAKE3(0x00 || path || BLAKE3(value))   65-byte input
//	internal = BLAKE3(left || right)                   64-byte input (bit 0 of the path at depth d: left)
//
// Leaves and internal nodes hash inputs of different lengths, so no leaf
// can pose as an internal node or the reverse (that would be a BLAKE3
// collision); internal nodes, most of the hashing, fit one 64-byte
// compression.
//
// Path bits are taken most significant first: bit d is (path[d/8] >> (7 - d%8)) & 1.
//
// # Proof encoding (MarshalBinary / DecodeProof)
//
//	byte    version = 1
//	byte    terminal kind: 0 empty, 1 leaf
//	[32]    terminal leaf path        (kind 1 only)
//	[32]    terminal leaf value hash  (kind 1 only)
//	uvarint n, the number of siblings (≤ 256)
//	n × [32] sibling hashes, from the root downwards
//
// The terminal is what the key's path reaches after n steps: the key's own
// leaf (inclusion), another key's leaf, or an empty subtree (both prove
// non-inclusion).
package verifier

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"lukechampine.com/blake3"
)

// Proof is a path from a root to where a key lives or would live.
type Proof struct {
	// LeafPath and LeafValueHash describe the terminal leaf; HasLeaf false
	// means the path ends in an empty subtree.
	HasLeaf       bool
	LeafPath      [32]byte
	LeafValueHash [32]byte
	Siblings      [][32]byte // root first
}

const version = 1

// Errors from Verify and DecodeProof.
var (
	ErrMismatch  = errors.New("proof does not match the root")
	ErrMalformed = errors.New("malformed proof")
)

// Path is the tree position of a key.
func Path(key []byte) [32]byte { return blake3.Sum256(key) }

// LeafHash is the hash of the leaf holding valueHash at path.
func LeafHash(path, valueHash [32]byte) [32]byte {
	var buf [65]byte
	buf[0] = 0
	copy(buf[1:33], path[:])
	copy(buf[33:], valueHash[:])
	return blake3.Sum256(buf[:])
}

// NodeHash is the hash of an internal node.
func NodeHash(left, right [32]byte) [32]byte {
	var buf [64]byte
	copy(buf[:32], left[:])
	copy(buf[32:], right[:])
	return blake3.Sum256(buf[:])
}

// Bit is bit d of path, most significant first.
func Bit(path [32]byte, d int) byte { return (path[d/8] >> (7 - uint(d%8))) & 1 }

// Verify checks that under root, key holds value (value nil: key is
// absent). It returns nil only if the proof shows exactly that.
func Verify(root [32]byte, key []byte, value []byte, p *Proof) error {
	if p == nil || len(p.Siblings) > 256 {
		return ErrMalformed
	}
	path := Path(key)
	n := len(p.Siblings)
	var h [32]byte
	switch {
	case value != nil:
		if !p.HasLeaf || p.LeafPath != path || p.LeafValueHash != blake3.Sum256(value) {
			return fmt.Errorf("%w: the proof's leaf is not this key with this value", ErrMismatch)
		}
		h = LeafHash(path, p.LeafValueHash)
	case p.HasLeaf:
		if p.LeafPath == path {
			return fmt.Errorf("%w: the key is present, not absent", ErrMismatch)
		}
		// The other leaf must sit on the key's path for the first n bits,
		// or it would not be where the key's path leads.
		for d := 0; d < n; d++ {
			if Bit(p.LeafPath, d) != Bit(path, d) {
				return fmt.Errorf("%w: the proof's leaf is off the key's path", ErrMismatch)
			}
		}
		h = LeafHash(p.LeafPath, p.LeafValueHash)
	default:
		// Empty terminal: h is the zero hash.
	}
	for d := n - 1; d >= 0; d-- {
		if Bit(path, d) == 0 {
			h = NodeHash(h, p.Siblings[d])
		} else {
			h = NodeHash(p.Siblings[d], h)
		}
	}
	if h != root {
		return fmt.Errorf("%w: computed %x, root is %x", ErrMismatch, h, root)
	}
	return nil
}

// MarshalBinary encodes the proof as documented in the package comment.
func (p *Proof) MarshalBinary() ([]byte, error) {
	if len(p.Siblings) > 256 {
		return nil, fmt.Errorf("%w: %d siblings", ErrMalformed, len(p.Siblings))
	}
	var b bytes.Buffer
	b.WriteByte(version)
	if p.HasLeaf {
		b.WriteByte(1)
		b.Write(p.LeafPath[:])
		b.Write(p.LeafValueHash[:])
	} else {
		b.WriteByte(0)
	}
	b.Write(binary.AppendUvarint(nil, uint64(len(p.Siblings))))
	for _, s := range p.Siblings {
		b.Write(s[:])
	}
	return b.Bytes(), nil
}

// DecodeProof parses MarshalBinary's output, refusing anything else
// (trailing bytes, non-minimal lengths, more than 256 siblings).
func DecodeProof(b []byte) (*Proof, error) {
	if len(b) < 3 || b[0] != version {
		return nil, fmt.Errorf("%w: bad header", ErrMalformed)
	}
	p := &Proof{}
	rest := b[2:]
	switch b[1] {
	case 0:
	case 1:
		if len(rest) < 64 {
			return nil, fmt.Errorf("%w: truncated leaf", ErrMalformed)
		}
		p.HasLeaf = true
		copy(p.LeafPath[:], rest[:32])
		copy(p.LeafValueHash[:], rest[32:64])
		rest = rest[64:]
	default:
		return nil, fmt.Errorf("%w: terminal kind %d", ErrMalformed, b[1])
	}
	n, used := binary.Uvarint(rest)
	if used <= 0 || n > 256 || used != len(binary.AppendUvarint(nil, n)) {
		return nil, fmt.Errorf("%w: sibling count", ErrMalformed)
	}
	rest = rest[used:]
	if uint64(len(rest)) != n*32 {
		return nil, fmt.Errorf("%w: %d bytes of siblings for %d siblings", ErrMalformed, len(rest), n)
	}
	p.Siblings = make([][32]byte, n)
	for i := range p.Siblings {
		copy(p.Siblings[i][:], rest[i*32:])
	}
	return p, nil
}

// LeafValueHash is the hash a leaf keeps of its value.
func LeafValueHash(value []byte) [32]byte { return blake3.Sum256(value) }
