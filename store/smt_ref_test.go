package store

import "github.com/cowboy-chain/cowboy/store/verifier"

// put inserts one key at a time: the straightforward reference that the
// tests hold apply (the batched update) to.
func (al *alloc) put(n ref, depth int, path, vh [32]byte) ref {
	a := al.a
	switch {
	case n == 0:
		return al.leaf(path, vh)
	case n.isLeaf():
		if a.leaf(n).path == path {
			return al.leaf(path, vh)
		}
		return al.split(n, al.leaf(path, vh), depth)
	case verifier.Bit(path, depth) == 0:
		in := a.inode(n)
		return al.internal(al.put(in.left, depth+1, path, vh), in.right)
	default:
		in := a.inode(n)
		return al.internal(in.left, al.put(in.right, depth+1, path, vh))
	}
}

func (al *alloc) internal(l, r ref) ref {
	n := al.newInternal(l, r, 0)
	al.a.inode(n).hash = verifier.NodeHash(al.a.hash(l), al.a.hash(r))
	return n
}

func (al *alloc) leaf(path, vh [32]byte) ref {
	l := al.newLeaf(&path, &vh, nil)
	al.a.leaf(l).hash = verifier.LeafHash(path, vh)
	return l
}

// split makes the smallest subtree at depth holding two distinct leaves:
// single-child internal nodes down to the first bit where they differ.
func (al *alloc) split(a, b ref, depth int) ref {
	ba, bb := verifier.Bit(al.a.leaf(a).path, depth), verifier.Bit(al.a.leaf(b).path, depth)
	if ba != bb {
		if ba == 0 {
			return al.internal(a, b)
		}
		return al.internal(b, a)
	}
	child := al.split(a, b, depth+1)
	if ba == 0 {
		return al.internal(child, 0)
	}
	return al.internal(0, child)
}
