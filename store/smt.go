package store

import (
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
	left      *node    // internal only
	right     *node
}

func hashOf(n *node) [32]byte {
	if n == nil {
		return [32]byte{}
	}
	return n.hash
}

func newLeaf(path, vh [32]byte) *node {
	return &node{leaf: true, path: path, valueHash: vh, hash: verifier.LeafHash(path, vh)}
}

func newInternal(l, r *node) *node {
	return &node{left: l, right: r, hash: verifier.NodeHash(hashOf(l), hashOf(r))}
}

// put returns the tree with path set to the value hash vh.
func put(n *node, depth int, path, vh [32]byte) *node {
	switch {
	case n == nil:
		return newLeaf(path, vh)
	case n.leaf:
		if n.path == path {
			return newLeaf(path, vh)
		}
		return split(n, newLeaf(path, vh), depth)
	case verifier.Bit(path, depth) == 0:
		return newInternal(put(n.left, depth+1, path, vh), n.right)
	default:
		return newInternal(n.left, put(n.right, depth+1, path, vh))
	}
}

// split makes the smallest subtree at depth holding two distinct leaves:
// single-child internal nodes down to the first bit where they differ.
func split(a, b *node, depth int) *node {
	ba, bb := verifier.Bit(a.path, depth), verifier.Bit(b.path, depth)
	if ba != bb {
		if ba == 0 {
			return newInternal(a, b)
		}
		return newInternal(b, a)
	}
	child := split(a, b, depth+1)
	if ba == 0 {
		return newInternal(child, nil)
	}
	return newInternal(nil, child)
}

// del returns the tree without path.
func del(n *node, depth int, path [32]byte) *node {
	switch {
	case n == nil:
		return nil
	case n.leaf:
		if n.path == path {
			return nil
		}
		return n
	}
	var child, other *node
	left := verifier.Bit(path, depth) == 0
	if left {
		child, other = del(n.left, depth+1, path), n.right
		if child == n.left {
			return n
		}
	} else {
		child, other = del(n.right, depth+1, path), n.left
		if child == n.right {
			return n
		}
	}
	// Keep the invariant: a lone leaf moves up, an empty subtree vanishes.
	switch {
	case child == nil && other == nil:
		return nil
	case child == nil && other.leaf:
		return other
	case other == nil && child != nil && child.leaf:
		return child
	case left:
		return newInternal(child, other)
	default:
		return newInternal(other, child)
	}
}

// prove walks path from the root and collects the siblings.
func prove(root *node, path [32]byte) *verifier.Proof {
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
	}
	return p
}
