package store

import (
	"encoding/binary"
	"testing"
)

// TestArenaAddressesAcrossChunks: every index the arena hands out, over
// three chunks of each kind, names its own record (no two indices share an
// inode, a leaf or a value), reservations come reserveN at a time and
// fresh indices count up from 1, freed indices are handed out again
// before fresh ones, and a freed leaf drops its value.
func TestArenaAddressesAcrossChunks(t *testing.T) {
	a := newArena()
	const n = 2*chunkSize + 3*reserveN
	for _, kind := range []int{kindInode, kindLeaf} {
		var idx []uint32
		for len(idx) < n {
			before := len(idx)
			idx = a.reserve(kind, idx)
			if got := len(idx) - before; got != reserveN {
				t.Fatalf("kind %d: a reservation of %d indices, want %d", kind, got, reserveN)
			}
		}
		for j, i := range idx {
			if i != uint32(j+1) {
				t.Fatalf("kind %d: index %d is %d, want %d", kind, j, i, j+1)
			}
			var mark [32]byte
			binary.LittleEndian.PutUint32(mark[:], i)
			if kind == kindInode {
				a.inode(ref(i)).hash = mark
			} else {
				r := leafBit | ref(i)
				a.leaf(r).hash = mark
				a.values[(i>>chunkBits)&(maxChunks-1)][i&(chunkSize-1)] = mark[:4]
			}
		}
		for _, i := range idx {
			r := ref(i)
			if kind == kindLeaf {
				r |= leafBit
			}
			h := a.hash(r)
			if got := binary.LittleEndian.Uint32(h[:]); got != i {
				t.Fatalf("kind %d: node %d holds the mark of %d", kind, i, got)
			}
			if kind == kindLeaf {
				if v := a.value(r); len(v) != 4 || binary.LittleEndian.Uint32(v) != i {
					t.Fatalf("leaf %d holds the value %x", i, v)
				}
			}
		}
	}
	// A leaf an update makes in the third chunk keeps its value there.
	al := &alloc{a: a}
	al.res[kindLeaf] = []uint32{2*chunkSize + 3}
	var path, vh [32]byte
	if r := al.newLeaf(&path, &vh, []byte("v")); string(a.value(r)) != "v" || len(a.value(leafBit|3)) != 4 {
		t.Fatalf("newLeaf %x: value %q, leaf 3's %x", r, a.value(r), a.value(leafBit|3))
	}
	if ni, nl := a.inUse(); ni != n || nl != n {
		t.Fatalf("in use %d/%d, want %d/%d", ni, nl, n, n)
	}
	// Free three of each kind; the next reservation hands back exactly
	// those, and the one after it fresh indices again.
	a.release([]ref{5, 2*chunkSize + 1, 7, leafBit | 9, leafBit | (chunkSize + 2), leafBit | (2*chunkSize + 5)})
	for _, i := range []ref{9, chunkSize + 2, 2*chunkSize + 5} {
		if v := a.value(leafBit | i); v != nil {
			t.Fatalf("freed leaf %d keeps its value %x", i, v)
		}
	}
	for _, i := range []ref{5, 10, chunkSize + 5} { // the same places in other chunks
		if v := a.value(leafBit | i); v == nil {
			t.Fatalf("leaf %d lost its value", i)
		}
	}
	if ni, nl := a.inUse(); ni != n-3 || nl != n-3 {
		t.Fatalf("in use after freeing %d/%d, want %d/%d", ni, nl, n-3, n-3)
	}
	for kind, want := range [][]uint32{{5, 2*chunkSize + 1, 7}, {9, chunkSize + 2, 2*chunkSize + 5}} {
		if got := a.reserve(kind, nil); len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Fatalf("kind %d: reserved %v after freeing, want %v", kind, got, want)
		}
		if got := a.reserve(kind, nil); len(got) != reserveN || got[0] != n+1 {
			t.Fatalf("kind %d: the next reservation starts at %d (%d indices), want %d", kind, got[0], len(got), n+1)
		}
	}
	a.release(nil) // nothing to free: no change
	if ni, nl := a.inUse(); ni != n+reserveN || nl != n+reserveN {
		t.Fatalf("in use %d/%d, want %d/%d", ni, nl, n+reserveN, n+reserveN)
	}
}

// TestArenaRefusesPast2To31: index 2^31-1 is the last of a kind; the
// reservation that would hand out 2^31 stops with the arena's own panic
// (a ref keeps its top bit for leafBit), not an index out of range.
func TestArenaRefusesPast2To31(t *testing.T) {
	for _, kind := range []int{kindInode, kindLeaf} {
		a := newArena()
		a.next[kind] = 1<<31 - reserveN - 1
		if got := a.reserve(kind, nil); got[len(got)-1] != 1<<31-2 {
			t.Fatalf("kind %d: last index %d, want 2^31-2", kind, got[len(got)-1])
		}
		func() {
			defer func() {
				if r := recover(); r != "store: more than 2^31 tree nodes" {
					t.Errorf("kind %d: panic %v, want the arena's", kind, r)
				}
			}()
			a.reserve(kind, nil)
		}()
		if a.next[kind] != 1<<31 {
			t.Errorf("kind %d: next %d after the refusal, want 2^31 (2^31-1 handed out)", kind, a.next[kind])
		}
	}
}
