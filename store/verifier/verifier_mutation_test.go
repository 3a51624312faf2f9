package verifier_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// TestSiblingCountEdge: a path is 256 bits, so a proof may have exactly
// 256 siblings (a terminal at the deepest level); 257 is malformed. The
// proof is checked, encoded and decoded at both counts.
func TestSiblingCountEdge(t *testing.T) {
	key := []byte("deep")
	path := verifier.Path(key)
	for _, tc := range []struct {
		n  int
		ok bool
	}{{255, true}, {256, true}, {257, false}} {
		// An absent key under an empty terminal at depth n, each level's
		// sibling a distinct hash; the root folded from the definitions.
		p := &verifier.Proof{Siblings: make([][32]byte, tc.n)}
		var h [32]byte
		for d := tc.n - 1; d >= 0; d-- {
			p.Siblings[d] = verifier.LeafValueHash([]byte{byte(d), byte(d >> 8)})
			if d < 256 && verifier.Bit(path, d) == 1 {
				h = verifier.NodeHash(p.Siblings[d], h)
			} else {
				h = verifier.NodeHash(h, p.Siblings[d])
			}
		}
		err := verifier.Verify(h, key, nil, p)
		if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, verifier.ErrMalformed)) {
			t.Fatalf("%d siblings: verify %v", tc.n, err)
		}
		enc, err := p.MarshalBinary()
		if tc.ok != (err == nil) {
			t.Fatalf("%d siblings: encode %v", tc.n, err)
		}
		if !tc.ok {
			continue
		}
		countBytes := 1 // the uvarint sibling count
		if tc.n >= 128 {
			countBytes = 2
		}
		if want := 2 + countBytes + 32*tc.n; len(enc) != want {
			t.Fatalf("%d siblings: %d bytes, want %d", tc.n, len(enc), want)
		}
		q, err := verifier.DecodeProof(enc)
		if err != nil || len(q.Siblings) != tc.n || q.Siblings[tc.n-1] != p.Siblings[tc.n-1] {
			t.Fatalf("%d siblings: decode %v", tc.n, err)
		}
		if err := verifier.Verify(h, key, nil, q); err != nil {
			t.Fatalf("%d siblings: decoded proof: %v", tc.n, err)
		}
	}
	// A hand-encoded count of 257 with its siblings is refused too.
	b := append([]byte{1, 0, 0x81, 0x02}, bytes.Repeat([]byte{7}, 257*32)...)
	if _, err := verifier.DecodeProof(b); !errors.Is(err, verifier.ErrMalformed) {
		t.Fatalf("257 encoded siblings: %v", err)
	}
}

// TestLeafTerminalEncoding: a leaf terminal is exactly 64 bytes after the
// kind; one byte fewer is truncated, and the fields land where the
// package comment puts them.
func TestLeafTerminalEncoding(t *testing.T) {
	var path, vh [32]byte
	for i := range path {
		path[i], vh[i] = byte(i), byte(100+i)
	}
	p := &verifier.Proof{HasLeaf: true, LeafPath: path, LeafValueHash: vh, Siblings: [][32]byte{{9}}}
	enc, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	want := append(append(append([]byte{1, 1}, path[:]...), vh[:]...), 1)
	want = append(want, append([]byte{9}, make([]byte, 31)...)...)
	if !bytes.Equal(enc, want) {
		t.Fatalf("encoding %x\nwant     %x", enc, want)
	}
	q, err := verifier.DecodeProof(enc)
	if err != nil || !q.HasLeaf || q.LeafPath != path || q.LeafValueHash != vh || len(q.Siblings) != 1 || q.Siblings[0] != p.Siblings[0] {
		t.Fatalf("decode: %+v %v", q, err)
	}
	// The leaf and a zero count, with no siblings: valid.
	if q, err := verifier.DecodeProof(append(append([]byte{1, 1}, make([]byte, 64)...), 0)); err != nil || !q.HasLeaf {
		t.Fatalf("leaf without siblings: %v", err)
	}
	for _, n := range []int{0, 1, 63, 64} {
		if _, err := verifier.DecodeProof(append([]byte{1, 1}, make([]byte, n)...)); !errors.Is(err, verifier.ErrMalformed) {
			t.Errorf("leaf of %d bytes, no count: %v", n, err)
		}
	}
}
