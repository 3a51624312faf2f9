package store

import "github.com/cowboy-chain/cowboy/store/verifier"

// put inserts one key at a time: the straightforward reference that the
// tests hold apply (the batched update) to.
func put(n *node, depth int, path, vh [32]byte) *node {
	switch {
	case n == nil:
		return newLeaf(path, vh, nil)
	case n.leaf:
		if n.path == path {
			return newLeaf(path, vh, nil)
		}
		return split(n, newLeaf(path, vh, nil), depth)
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
