package store

import "sync"

// The tree's nodes live in an arena of fixed-size, pointer-free records
// addressed by 32-bit references, not in Go objects. Why: the retained
// versions keep every node a block replaced alive for Retain blocks (about
// 76,000 nodes per block of 10,000 updates, 19 million at the default 256),
// and as Go objects with child pointers the garbage collector re-scanned
// all of them in every cycle: about a sixth of a commit's CPU, plus the
// allocation and write-barrier work of each new node. Chunks of records
// without pointers are never scanned, a new node is a bump or free-list
// index, and the memory of nodes is reclaimed explicitly and exactly (see
// version.stale in store.go): a node replaced by block h is freed when
// height h-1 leaves the retention window. Only the values, one []byte per
// leaf, stay visible to the collector.
//
// None of this reaches a root or a proof: node indices depend on goroutine
// scheduling and on what was freed before, hashes and shapes do not.

// ref names a node: 0 is the empty subtree, a leaf has leafBit set, and the
// rest is the index of the record in its arena (index 0 is never used).
type ref uint32

const leafBit ref = 1 << 31

func (r ref) isLeaf() bool { return r&leafBit != 0 }

// inode is an internal node: its hash and its two children.
type inode struct {
	hash        [32]byte
	left, right ref
}

// lnode is a leaf: its hash, its path (BLAKE3 of the key) and the value's
// hash. The value itself is in arena.values at the same index.
type lnode struct {
	hash, path, valueHash [32]byte
}

const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	maxChunks = 1 << (31 - chunkBits) // 2^31 nodes of each kind
	// reserveN is how many indices an allocator takes from the arena at a
	// time, so that parallel tree updates rarely meet on the arena's lock.
	reserveN = 256
)

const (
	kindInode = 0
	kindLeaf  = 1
)

// arena holds the nodes of all versions of a store's trees. Chunks are
// allocated as the arena grows and never move, so a node's address is
// stable; a chunk pointer is set before any index in it is handed out.
//
// Concurrency: readers of a version (proofs, and the tree update reading
// the previous version) only touch nodes reachable from it; writers fill
// only indices they reserved, which are fresh or were freed, and a node is
// freed only when no retained version reaches it (Store.mu held).
type arena struct {
	mu     sync.Mutex
	inodes [maxChunks]*[chunkSize]inode
	leaves [maxChunks]*[chunkSize]lnode
	values [maxChunks]*[chunkSize][]byte
	next   [2]uint32   // next never-used index, per kind
	free   [2][]uint32 // freed indices, per kind
	// simd hashes with AVX-512 where the processor has it (hash16.go);
	// the tests turn it off to compare with the scalar hashing.
	simd bool
}

func newArena() *arena { return &arena{next: [2]uint32{1, 1}, simd: true} }

func (a *arena) inode(r ref) *inode {
	return &a.inodes[(r>>chunkBits)&(maxChunks-1)][r&(chunkSize-1)]
}

func (a *arena) leaf(r ref) *lnode {
	return &a.leaves[(r>>chunkBits)&(maxChunks-1)][r&(chunkSize-1)]
}

func (a *arena) value(r ref) []byte {
	return a.values[(r>>chunkBits)&(maxChunks-1)][r&(chunkSize-1)]
}

// hashPtr is where r's hash is stored; the zero hash for the empty tree.
func (a *arena) hashPtr(r ref) *[32]byte {
	switch {
	case r == 0:
		return &zeroHash
	case r.isLeaf():
		return &a.leaf(r).hash
	}
	return &a.inode(r).hash
}

// hash is r's hash: the root of the subtree it names.
func (a *arena) hash(r ref) [32]byte { return *a.hashPtr(r) }

var zeroHash [32]byte

// reserve appends up to reserveN indices of a kind to buf: freed ones
// first, then fresh ones, allocating chunks as needed.
func (a *arena) reserve(kind int, buf []uint32) []uint32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if f := a.free[kind]; len(f) > 0 {
		n := min(len(f), reserveN)
		buf = append(buf, f[len(f)-n:]...)
		a.free[kind] = f[:len(f)-n]
		return buf
	}
	for range reserveN {
		i := a.next[kind]
		if i >= 1<<31 {
			panic("store: more than 2^31 tree nodes")
		}
		switch c := i >> chunkBits; {
		case kind == kindInode && a.inodes[c] == nil:
			a.inodes[c] = new([chunkSize]inode)
		case kind == kindLeaf && a.leaves[c] == nil:
			a.leaves[c] = new([chunkSize]lnode)
			a.values[c] = new([chunkSize][]byte)
		}
		a.next[kind] = i + 1
		buf = append(buf, i)
	}
	return buf
}

// release returns indices to the free lists: reserved ones that were not
// used, or nodes no retained version reaches any more. A freed leaf drops
// its value so the collector can reclaim it.
func (a *arena) release(refs []ref) {
	if len(refs) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, r := range refs {
		if r.isLeaf() {
			i := uint32(r &^ leafBit)
			a.values[(i>>chunkBits)&(maxChunks-1)][i&(chunkSize-1)] = nil
			a.free[kindLeaf] = append(a.free[kindLeaf], i)
		} else {
			a.free[kindInode] = append(a.free[kindInode], uint32(r))
		}
	}
}

// inUse is the number of nodes of each kind neither free nor reserved.
func (a *arena) inUse() (inodes, leaves int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return int(a.next[kindInode]) - 1 - len(a.free[kindInode]), int(a.next[kindLeaf]) - 1 - len(a.free[kindLeaf])
}

// alloc hands out nodes to one goroutine of a tree update and records the
// nodes the update created and the ones it replaced (nodes of the old
// version the new one no longer reaches).
//
// New nodes are hashed after the update has built them (hashPending), in
// groups of 16 (hash16.go): first the leaves, then the internal nodes
// deepest first, so that every child's hash is known when its parent's is
// computed.
type alloc struct {
	a        *arena
	res      [2][]uint32
	created  []ref
	replaced []ref
	// The nodes made since the last hashPending, with internal nodes'
	// depths.
	pendLeaves []ref
	pendNodes  []pendingNode
}

// pendingNode is an internal node waiting for its hash, and its depth.
type pendingNode struct {
	r     ref
	depth uint16
}

// take is an index of a kind from the reservations, refilled as needed.
func (al *alloc) take(kind int) uint32 {
	r := al.res[kind]
	if len(r) == 0 {
		r = al.a.reserve(kind, r)
	}
	i := r[len(r)-1]
	al.res[kind] = r[:len(r)-1]
	return i
}

// newLeaf makes a leaf; its hash is set by the next hashPending.
func (al *alloc) newLeaf(path, vh *[32]byte, value []byte) ref {
	i := al.take(kindLeaf)
	r := leafBit | ref(i)
	l := al.a.leaf(r)
	l.path, l.valueHash = *path, *vh
	al.a.values[(i>>chunkBits)&(maxChunks-1)][i&(chunkSize-1)] = value
	al.created = append(al.created, r)
	al.pendLeaves = append(al.pendLeaves, r)
	return r
}

// newInternal makes an internal node at depth; its hash is set by the
// next hashPending.
func (al *alloc) newInternal(left, right ref, depth int) ref {
	r := ref(al.take(kindInode))
	n := al.a.inode(r)
	n.left, n.right = left, right
	al.created = append(al.created, r)
	al.pendNodes = append(al.pendNodes, pendingNode{r, uint16(depth)})
	return r
}

// hashPending hashes the nodes made since the last call: the leaves, then
// the internal nodes by depth, deepest first (a counting sort; depths are
// at most 256).
func (al *alloc) hashPending() {
	h := &hasher16{simd: al.a.simd}
	h.leaves(al.a, al.pendLeaves)
	al.pendLeaves = al.pendLeaves[:0]
	if len(al.pendNodes) == 0 {
		return
	}
	var count [258]int
	for _, p := range al.pendNodes {
		count[p.depth+1]++
	}
	for d := 1; d < len(count); d++ {
		count[d] += count[d-1]
	}
	byDepth := make([]ref, len(al.pendNodes))
	for _, p := range al.pendNodes {
		byDepth[count[p.depth]] = p.r
		count[p.depth]++
	}
	// count[d] is now where depth d+1 starts.
	for d := 256; d >= 0; d-- {
		lo := 0
		if d > 0 {
			lo = count[d-1]
		}
		h.nodes(al.a, byDepth[lo:count[d]])
	}
	al.pendNodes = al.pendNodes[:0]
}

// nodesPerUpdate is about how many nodes a batch makes and replaces per
// update (at 200,000 records and 10,000 updates: 6.6 internal nodes, the
// leaf, and the node lists' slack); grow sizes the lists for it.
const nodesPerUpdate = 9

func (al *alloc) grow(updates int) {
	n := nodesPerUpdate*updates + 16
	al.created = make([]ref, 0, n)
	al.replaced = make([]ref, 0, n)
	al.pendNodes = make([]pendingNode, 0, n)
	al.pendLeaves = make([]ref, 0, updates+16)
}

// fork is an allocator for a goroutine the update starts; join takes its
// records and unused reservations back.
func (al *alloc) fork() *alloc { return &alloc{a: al.a} }

func (al *alloc) join(c *alloc) {
	al.created = append(al.created, c.created...)
	al.replaced = append(al.replaced, c.replaced...)
	for kind := range c.res {
		al.res[kind] = append(al.res[kind], c.res[kind]...)
	}
}

// done returns the unused reservations to the arena.
func (al *alloc) done() {
	var back []ref
	for _, i := range al.res[kindInode] {
		back = append(back, ref(i))
	}
	for _, i := range al.res[kindLeaf] {
		back = append(back, leafBit|ref(i))
	}
	al.res = [2][]uint32{}
	al.a.release(back)
}
