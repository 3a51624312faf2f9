package store

import (
	"math/rand"
	"testing"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// TestHash16 holds the grouped node, leaf and input hashes to the
// verifier's definitions, on group sizes that leave lanes unused.
func TestHash16(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for _, simd := range []bool{true, false} {
		for _, n := range []int{1, 15, 16, 17, 40} {
			a := newArena()
			al := &alloc{a: a}
			var leaves, nodes []ref
			var ins [][]byte
			var dst []*[32]byte
			for i := 0; i < n; i++ {
				var p, v [32]byte
				rng.Read(p[:])
				rng.Read(v[:])
				leaves = append(leaves, al.newLeaf(&p, &v, nil))
				in := make([]byte, rng.Intn(65))
				rng.Read(in)
				ins, dst = append(ins, in), append(dst, new([32]byte))
			}
			h := &hasher16{simd: simd}
			h.leaves(a, leaves)
			for _, r := range leaves {
				l := a.leaf(r)
				if l.hash != verifier.LeafHash(l.path, l.valueHash) {
					t.Fatalf("simd %v, %d leaves: a leaf hash differs from the verifier's", simd, n)
				}
			}
			for i := 0; i+1 < n; i++ {
				nodes = append(nodes, al.newInternal(leaves[i], leaves[i+1], 0))
			}
			h.nodes(a, nodes)
			for _, r := range nodes {
				in := a.inode(r)
				if in.hash != verifier.NodeHash(a.hash(in.left), a.hash(in.right)) {
					t.Fatalf("simd %v, %d nodes: a node hash differs from the verifier's", simd, n)
				}
			}
			h.sums(ins, dst)
			for i := range ins {
				if *dst[i] != verifier.LeafValueHash(ins[i]) {
					t.Fatalf("simd %v: hash of %d bytes differs from BLAKE3", simd, len(ins[i]))
				}
			}
		}
	}
}
