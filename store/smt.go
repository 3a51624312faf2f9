package store

import (
	"bytes"
	"sort"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// node is an immutable node of the compact sparse Merkle tree (the hashing
// is documented in store/verifier). Updates copy the path they change, so
// a root being committed and the root readers see never share mutable
// state. nil is the empty subtree.
//
// Invariant: a subtree holding no entry is nil, one entry is that entry's
// leaf, two or more is an internal node. So the shape, and the root, depend
// only on the set of keys.
type node struct {
	hash      [32]byte
	leaf      bool
	path      [32]byte // leaf only
	valueHash [32]byte // leaf only
	value     []byte   // leaf only: the value itself, so old heights can be proven
	left      *node    // internal only
	right     *node
}

func hashOf(n *node) [32]byte {
	if n == nil {
		return [32]byte{}
	}
	return n.hash
}

func newLeaf(path, vh [32]byte, value []byte) *node {
	return &node{leaf: true, path: path, valueHash: vh, value: value, hash: verifier.LeafHash(path, vh)}
}

func newInternal(l, r *node) *node {
	return &node{left: l, right: r, hash: verifier.NodeHash(hashOf(l), hashOf(r))}
}

// prove walks path from the root and collects the siblings; value is the
// key's value when the path ends at its own leaf, else nil.
func prove(root *node, path [32]byte) (*verifier.Proof, []byte) {
	p := &verifier.Proof{}
	n := root
	for depth := 0; n != nil && !n.leaf; depth++ {
		if verifier.Bit(path, depth) == 0 {
			p.Siblings = append(p.Siblings, hashOf(n.right))
			n = n.left
		} else {
			p.Siblings = append(p.Siblings, hashOf(n.left))
			n = n.right
		}
	}
	if n != nil {
		p.HasLeaf, p.LeafPath, p.LeafValueHash = true, n.path, n.valueHash
		if n.path == path {
			return p, n.value
		}
	}
	return p, nil
}

// apply runs its first parallelDepth levels on separate goroutines when a
// batch has at least parallelMin updates (4 workers at depth 2).
const (
	parallelDepth = 2
	parallelMin   = 2048
)

// update is one write for apply: a value hash, or a deletion. If prior is
// not nil, apply stores there what the key held before (for undo logs).
type update struct {
	path  [32]byte
	vh    [32]byte
	value []byte
	del   bool
	prior *prior
}

// apply returns the tree with a whole block's updates made, sorted by path
// with no path twice. Each changed internal node is rehashed once, however
// many updates pass through it: far fewer hashes than one put per key.
func apply(n *node, depth int, ups []update) *node {
	if len(ups) == 0 {
		return n
	}
	if n != nil && n.leaf {
		// Fold the existing leaf in as an update unless one replaces it.
		i := sort.Search(len(ups), func(i int) bool { return bytes.Compare(ups[i].path[:], n.path[:]) >= 0 })
		if i == len(ups) || ups[i].path != n.path {
			merged := make([]update, 0, len(ups)+1)
			merged = append(append(append(merged, ups[:i]...), update{path: n.path, vh: n.valueHash, value: n.value}), ups[i:]...)
			ups = merged
		} else if ups[i].prior != nil {
			// Every update reaches the leaf of its key if the key is
			// present, so an update that never gets here was absent.
			*ups[i].prior = prior{value: n.value, present: true}
		}
		n = nil
	}
	if n == nil {
		live := 0
		var last update
		for _, u := range ups {
			if !u.del {
				live++
				last = u
			}
		}
		switch live {
		case 0:
			return nil
		case 1:
			return newLeaf(last.path, last.vh, last.value)
		}
	}
	// ups is sorted by path, so the ones going left (bit 0) come first.
	mid := sort.Search(len(ups), func(i int) bool { return verifier.Bit(ups[i].path, depth) == 1 })
	var l, r *node
	if n != nil {
		l, r = n.left, n.right
	}
	if depth < parallelDepth && len(ups) >= parallelMin {
		// Large batches: the two halves of the tree are independent, so the
		// top levels split the work across cores. Each goroutine builds its
		// own nodes; the result is the same as sequential.
		done := make(chan *node)
		go func() { done <- apply(l, depth+1, ups[:mid]) }()
		r = apply(r, depth+1, ups[mid:])
		l = <-done
	} else {
		l, r = apply(l, depth+1, ups[:mid]), apply(r, depth+1, ups[mid:])
	}
	switch {
	case l == nil && r == nil:
		return nil
	case l == nil && r.leaf:
		return r
	case r == nil && l.leaf:
		return l
	}
	return newInternal(l, r)
}
