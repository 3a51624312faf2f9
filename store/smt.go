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
//
// Layout: an internal node is 57 bytes, one 64-byte allocation, so a walk
// down the tree touches one cache line per level (hash, children and kind
// together); a leaf's own fields live in the same allocation, after it
// (newLeaf). Internal nodes are most of the tree and of each commit's new
// nodes, so this is most of the memory and of the garbage collector's work.
type node struct {
	hash      [32]byte
	left      *node // internal only
	right     *node
	*leafData // leaf only
	leaf      bool
}

// leafData is what a leaf holds besides its hash.
type leafData struct {
	path      [32]byte
	valueHash [32]byte
	value     []byte // the value itself, so old heights can be proven
}

// leafNode is a leaf's single allocation: the node and its leafData.
type leafNode struct {
	n node
	d leafData
}

func hashOf(n *node) [32]byte {
	if n == nil {
		return [32]byte{}
	}
	return n.hash
}

func newLeaf(path, vh [32]byte, value []byte) *node {
	l := &leafNode{d: leafData{path: path, valueHash: vh, value: value}}
	l.n.leafData, l.n.leaf = &l.d, true
	l.n.hash = leafHash(&l.d.path, &l.d.valueHash)
	return &l.n
}

var zeroHash [32]byte

func newInternal(l, r *node) *node {
	lh, rh := &zeroHash, &zeroHash
	if l != nil {
		lh = &l.hash
	}
	if r != nil {
		rh = &r.hash
	}
	return &node{left: l, right: r, hash: nodeHash(lh, rh)}
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
// subtree's batch has at least parallelMin updates (up to 8 workers at
// depth 3: more pieces than cores, so a core shared with other work does
// not hold the commit up for long).
const (
	parallelDepth = 3
	parallelMin   = 1024
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
func apply(n *node, depth int, ups []update) *node { return applyPar(n, depth, ups, parallelMin) }

// applyPar is apply, going parallel above parallelDepth for batches of at
// least minPar updates. The tests compare it with minPar 1 (always) and
// unlimited (never): each subtree is built from its own updates alone and
// the results are combined in a fixed order, so the tree is the same
// however the goroutines are scheduled.
func applyPar(n *node, depth int, ups []update, minPar int) *node {
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
		live, last := 0, 0 // live updates, up to 2; the last one seen
		for i := 0; i < len(ups) && live < 2; i++ {
			if !ups[i].del {
				live, last = live+1, i
			}
		}
		switch live {
		case 0:
			return nil
		case 1:
			return newLeaf(ups[last].path, ups[last].vh, ups[last].value)
		}
	}
	// ups is sorted by path, so the ones going left (bit 0) come first.
	mid := sort.Search(len(ups), func(i int) bool { return verifier.Bit(ups[i].path, depth) == 1 })
	var l, r *node
	// lh, rh: the children's hashes. An unchanged child's is read now,
	// before the descent into the other side, so that cache miss overlaps
	// the descent's own instead of following it.
	lh, rh := &zeroHash, &zeroHash
	var keep [32]byte
	if n != nil {
		l, r = n.left, n.right
		switch {
		case mid == len(ups) && r != nil:
			keep, rh = r.hash, &keep
		case mid == 0 && l != nil:
			keep, lh = l.hash, &keep
		}
	}
	if depth < parallelDepth && len(ups) >= minPar {
		// Large batches: the two halves of the tree are independent, so the
		// top levels split the work across cores. Each goroutine builds its
		// own nodes; the result is the same as sequential.
		done := make(chan *node)
		go func() { done <- applyPar(l, depth+1, ups[:mid], minPar) }()
		r = applyPar(r, depth+1, ups[mid:], minPar)
		l = <-done
	} else {
		l, r = applyPar(l, depth+1, ups[:mid], minPar), applyPar(r, depth+1, ups[mid:], minPar)
	}
	switch {
	case l == nil && r == nil:
		return nil
	case l == nil && r.leaf:
		return r
	case r == nil && l.leaf:
		return l
	}
	if lh != &keep && l != nil {
		lh = &l.hash
	}
	if rh != &keep && r != nil {
		rh = &r.hash
	}
	return &node{left: l, right: r, hash: nodeHash(lh, rh)}
}
