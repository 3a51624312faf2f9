package store

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"testing"

	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// TestHashes holds the store's direct BLAKE3 calls (hash.go) to the
// verifier's definitions, which the proofs are checked with.
func TestHashes(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		var a, b [32]byte
		rng.Read(a[:])
		rng.Read(b[:])
		if got, want := nodeHash(&a, &b), verifier.NodeHash(a, b); got != want {
			t.Fatalf("nodeHash(%x, %x) = %x, verifier %x", a, b, got, want)
		}
		if got, want := leafHash(&a, &b), verifier.LeafHash(a, b); got != want {
			t.Fatalf("leafHash(%x, %x) = %x, verifier %x", a, b, got, want)
		}
	}
	for n := 0; n <= 3*64+1; n++ {
		in := make([]byte, n)
		rng.Read(in)
		if got, want := sum256(in), verifier.LeafValueHash(in); got != want {
			t.Fatalf("sum256 of %d bytes = %x, blake3 %x", n, got, want)
		}
		if n == len(Key{}) {
			if got, want := sum256(in), verifier.Path(in); got != want {
				t.Fatalf("path of a key = %x, verifier %x", got, want)
			}
		}
	}
}

// TestParallelApplyMatchesSerial: a batch applied with the top levels on
// separate goroutines (at every size) and hashed 16 nodes at a time gives
// the same tree, node for node, as the serial update hashing one at a time,
// and the same previous values as the serial apply, and both the root of a
// key-by-key rebuild.
func TestParallelApplyMatchesSerial(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		rng := rand.New(rand.NewSource(rapid.Int64().Draw(rt, "seed")))
		universe := rapid.IntRange(1, 3000).Draw(rt, "universe")
		m := map[int][]byte{}
		sa, pa := newArena(), newArena()
		sa.simd = false // the serial update also hashes one node at a time
		var serial, par ref
		for block, blocks := 0, rapid.IntRange(1, 6).Draw(rt, "blocks"); block < blocks; block++ {
			var ws []Write
			for i, n := 0, rapid.IntRange(0, 2*universe).Draw(rt, "writes"); i < n; i++ {
				key := rng.Intn(universe)
				var v []byte
				if rng.Intn(4) != 0 {
					v = []byte(fmt.Sprintf("v%d-%d-%d", block, i, rng.Intn(1000)))
				}
				ws = append(ws, Write{Key: k(key), Value: v})
			}
			d := dedupe(ws)
			ps, pp := make([]prior, len(d)), make([]prior, len(d))
			serial = sa.applyPar(serial, updatesOf(d, ps), math.MaxInt).root
			par = pa.applyPar(par, updatesOf(d, pp), 1).root
			if err := sameTree(sa, pa, serial, par, 0); err != nil {
				rt.Fatalf("block %d (%d writes): %v", block, len(d), err)
			}
			for i := range ps {
				if ps[i].present != pp[i].present || !bytes.Equal(ps[i].value, pp[i].value) {
					rt.Fatalf("block %d: previous value of write %d: serial %v %q, parallel %v %q", block, i, ps[i].present, ps[i].value, pp[i].present, pp[i].value)
				}
				if want, ok := m[keyIndex(d[i].Key)]; ps[i].present != ok || !bytes.Equal(ps[i].value, want) {
					rt.Fatalf("block %d: previous value of write %d is %q, the model had %q", block, i, ps[i].value, want)
				}
			}
			for _, w := range d {
				if key := keyIndex(w.Key); w.Value == nil {
					delete(m, key)
				} else {
					m[key] = w.Value
				}
			}
			ral := &alloc{a: newArena()}
			var rebuilt ref
			for key := 0; key < universe; key++ { // ascending, not map order
				if v, ok := m[key]; ok {
					kk := k(key)
					rebuilt = ral.put(rebuilt, 0, verifier.Path(kk[:]), verifier.LeafValueHash(v))
				}
			}
			if ral.a.hash(rebuilt) != pa.hash(par) {
				rt.Fatalf("block %d: root %x, key-by-key rebuild %x", block, pa.hash(par), ral.a.hash(rebuilt))
			}
		}
	})
}

// TestParallelApplyLargeBatches: the default thresholds on batches large
// enough to go parallel, on a tree of 20,000 keys.
func TestParallelApplyLargeBatches(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	sa, pa := newArena(), newArena()
	sa.simd = false
	var serial, par ref
	for block := 0; block < 6; block++ {
		n := 20_000
		if block > 0 {
			n = 1 + rng.Intn(6_000)
		}
		ws := make([]Write, n)
		for i := range ws {
			key := benchKey(rng.Intn(30_000))
			ws[i] = Write{Key: key}
			if block == 0 || rng.Intn(5) != 0 {
				ws[i].Value = benchValue(rng)
			}
		}
		d := dedupe(ws)
		serial = sa.applyPar(serial, updatesOf(d, nil), math.MaxInt).root
		par = pa.apply(par, updatesOf(d, nil)).root
		if err := sameTree(sa, pa, serial, par, 0); err != nil {
			t.Fatalf("block %d: %v", block, err)
		}
	}
}

// sameTree compares two trees node by node.
func sameTree(aa, ba *arena, a, b ref, depth int) error {
	switch {
	case a == 0 || b == 0:
		if (a == 0) != (b == 0) {
			return fmt.Errorf("depth %d: one subtree is empty", depth)
		}
		return nil
	case aa.hash(a) != ba.hash(b) || a.isLeaf() != b.isLeaf():
		return fmt.Errorf("depth %d: hash %x/%x, leaf %v/%v", depth, aa.hash(a), ba.hash(b), a.isLeaf(), b.isLeaf())
	case a.isLeaf():
		la, lb := aa.leaf(a), ba.leaf(b)
		if la.path != lb.path || la.valueHash != lb.valueHash || !bytes.Equal(aa.value(a), ba.value(b)) {
			return fmt.Errorf("depth %d: leaves differ", depth)
		}
		return nil
	}
	na, nb := aa.inode(a), ba.inode(b)
	if err := sameTree(aa, ba, na.left, nb.left, depth+1); err != nil {
		return err
	}
	return sameTree(aa, ba, na.right, nb.right, depth+1)
}

// keyIndex inverts k.
func keyIndex(key Key) int { return int(key[1]) | int(key[2])<<8 }

// TestParallelSplitsWhere: applyPar hands a subtree's left half to another
// goroutine exactly where the depth is below parallelDepth and the
// subtree's batch has at least minPar updates. The tree is the same either
// way (TestParallelApplyMatchesSerial); the split shows in the order of the
// created nodes: the serial recursion makes a node's left half before its
// right half, a split joins the left half's nodes after the right half's.
func TestParallelSplitsWhere(t *testing.T) {
	var ws []Write
	for i := 0; i < 600; i++ {
		ws = append(ws, Write{Key: k(i), Value: []byte{byte(i), 1}})
	}
	d := dedupe(ws)
	// Each internal node's updates (a fresh tree: its leaves) and depth.
	type node struct{ updates, depth int }
	walk := func(a *arena, root ref, visit func(r ref, n node)) {
		var rec func(r ref, depth int) int
		rec = func(r ref, depth int) int {
			if r == 0 {
				return 0
			}
			if r.isLeaf() {
				return 1
			}
			in := a.inode(r)
			u := rec(in.left, depth+1) + rec(in.right, depth+1)
			visit(r, node{u, depth})
			return u
		}
		rec(root, 0)
	}
	// The batch sizes at the split depths and one below, each as minPar
	// and one more, so every boundary of the rule is crossed.
	serial := newArena()
	sroot := serial.applyPar(0, updatesOf(d, nil), math.MaxInt).root
	minPars := []int{1, 2, math.MaxInt}
	walk(serial, sroot, func(_ ref, n node) {
		if n.depth <= parallelDepth {
			minPars = append(minPars, n.updates, n.updates+1)
		}
	})
	for _, minPar := range minPars {
		a := newArena()
		tu := a.applyPar(0, updatesOf(d, nil), minPar)
		if err := sameTree(serial, a, sroot, tu.root, 0); err != nil {
			t.Fatalf("minPar %d: %v", minPar, err)
		}
		pos := map[ref]int{}
		for i, r := range tu.created {
			pos[r] = i
		}
		splits := 0
		walk(a, tu.root, func(r ref, n node) {
			in := a.inode(r)
			if in.left == 0 || in.right == 0 {
				if n.depth <= parallelDepth {
					t.Fatalf("minPar %d: node at depth %d has an empty half", minPar, n.depth)
				}
				return // the order shows nothing here
			}
			split := pos[in.left] > pos[in.right]
			if want := n.depth < parallelDepth && n.updates >= minPar; split != want {
				t.Errorf("minPar %d: node at depth %d with %d updates split %v, want %v", minPar, n.depth, n.updates, split, want)
			}
			if split {
				splits++
			}
		})
		if minPar == 1 && splits != 1+2+4 {
			t.Errorf("minPar 1: %d splits, want 7 (depths 0-2)", splits)
		}
	}
}
