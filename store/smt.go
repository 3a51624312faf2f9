package store

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// The compact sparse Merkle tree (the hashing is documented in
// store/verifier), its nodes in an arena (arena.go). Nodes are immutable:
// an update copies the path it changes, so a root being committed and the
// roots readers see never share mutable state. Ref 0 is the empty subtree.
//
// Invariant: a subtree holding no entry is empty, one entry is that
// entry's leaf, two or more is an internal node. So the shape, and the
// root, depend only on the set of keys.

// prove walks path from the root and collects the siblings; value is the
// key's value when the path ends at its own leaf, else nil.
func (a *arena) prove(root ref, path [32]byte) (*verifier.Proof, []byte) {
	p := &verifier.Proof{}
	n := root
	for depth := 0; n != 0 && !n.isLeaf(); depth++ {
		in := a.inode(n)
		if verifier.Bit(path, depth) == 0 {
			p.Siblings = append(p.Siblings, a.hash(in.right))
			n = in.left
		} else {
			p.Siblings = append(p.Siblings, a.hash(in.left))
			n = in.right
		}
	}
	if n != 0 {
		l := a.leaf(n)
		p.HasLeaf, p.LeafPath, p.LeafValueHash = true, l.path, l.valueHash
		if l.path == path {
			return p, a.value(n)
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
// keep is set only inside apply, on the existing leaf it folds into a
// batch: if that leaf ends up alone in a subtree it is reused, not copied.
type update struct {
	path  [32]byte
	vh    [32]byte
	value []byte
	del   bool
	prior *prior
	keep  ref
}

// treeUpdate is the result of applying a batch to one tree: the new root,
// the nodes the batch created and the nodes of the old tree the new one no
// longer reaches.
type treeUpdate struct {
	root              ref
	created, replaced []ref
}

// apply returns the tree with a whole block's updates made, sorted by path
// with no path twice. Each changed internal node is rehashed once, however
// many updates pass through it: far fewer hashes than one put per key.
func (a *arena) apply(root ref, ups []update) treeUpdate { return a.applyPar(root, ups, parallelMin) }

// applyPar is apply, going parallel above parallelDepth for batches of at
// least minPar updates. The tests compare it with minPar 1 (always) and
// unlimited (never): each subtree is built from its own updates alone and
// the results are combined in a fixed order, so the tree is the same
// however the goroutines are scheduled.
func (a *arena) applyPar(root ref, ups []update, minPar int) treeUpdate {
	al := &alloc{a: a}
	al.grow(len(ups))
	r := al.apply(root, 0, ups, minPar)
	al.hashPending()
	al.done()
	return treeUpdate{root: r, created: al.created, replaced: al.replaced}
}

// apply is applyPar's recursion: the subtree n at depth with ups made,
// built but not yet hashed (hashPending).
func (al *alloc) apply(n ref, depth int, ups []update, minPar int) ref {
	if len(ups) == 0 {
		return n
	}
	a := al.a
	if n != 0 && n.isLeaf() {
		// Fold the existing leaf in as an update unless one replaces it.
		l := a.leaf(n)
		i := sort.Search(len(ups), func(i int) bool { return comparePaths(&ups[i].path, &l.path) >= 0 })
		if i == len(ups) || ups[i].path != l.path {
			ups = slices.Concat(ups[:i], []update{{path: l.path, vh: l.valueHash, keep: n}}, ups[i:])
		} else {
			if ups[i].prior != nil {
				// Every update reaches the leaf of its key if the key is
				// present, so an update that never gets here was absent.
				*ups[i].prior = prior{value: a.value(n), present: true}
			}
			al.replaced = append(al.replaced, n)
		}
		n = 0
	}
	if n == 0 {
		live, last := 0, 0 // live updates, up to 2; the last one seen
		for i := range ups {
			if !ups[i].del {
				live, last = live+1, i
				if live == 2 {
					break
				}
			}
		}
		switch live {
		case 0:
			return 0
		case 1:
			if u := &ups[last]; u.keep != 0 {
				return u.keep
			}
			return al.newLeaf(&ups[last].path, &ups[last].vh, ups[last].value)
		}
	}
	// ups is sorted by path, so the ones going left (bit 0) come first.
	mid := sort.Search(len(ups), func(i int) bool { return verifier.Bit(ups[i].path, depth) == 1 })
	var l, r ref
	if n != 0 {
		in := a.inode(n)
		l, r = in.left, in.right
		al.replaced = append(al.replaced, n) // ups is not empty: n changes
	}
	if depth < parallelDepth && len(ups) >= minPar {
		// Large batches: the two halves of the tree are independent, so the
		// top levels split the work across cores. Each goroutine builds its
		// own nodes; the result is the same as sequential.
		c := al.fork()
		c.grow(mid)
		done := make(chan ref)
		go func() {
			l := c.apply(l, depth+1, ups[:mid], minPar)
			c.hashPending() // its subtree, on its goroutine
			done <- l
		}()
		r = al.apply(r, depth+1, ups[mid:], minPar)
		l = <-done
		al.join(c)
	} else {
		l, r = al.apply(l, depth+1, ups[:mid], minPar), al.apply(r, depth+1, ups[mid:], minPar)
	}
	switch {
	case l == 0 && r == 0:
		return 0
	case l == 0 && r.isLeaf():
		return r
	case r == 0 && l.isLeaf():
		return l
	}
	return al.newInternal(l, r, depth)
}

// comparePaths is bytes.Compare of two paths, 8 bytes at a time.
func comparePaths(a, b *[32]byte) int {
	be := binary.BigEndian
	for i := 0; i < 32; i += 8 {
		if c := cmp.Compare(be.Uint64(a[i:]), be.Uint64(b[i:])); c != 0 {
			return c
		}
	}
	return 0
}
