package store

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// checkArena asserts that the arena holds exactly the nodes the retained
// versions reach: none leaked (in use but unreachable) and none freed too
// early (reachable but on a free list).
func checkArena(t interface{ Fatalf(string, ...any) }, s *Store, when string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.arena
	reach := map[ref]bool{}
	var walk func(r ref)
	walk = func(r ref) {
		if r == 0 || reach[r] {
			return
		}
		reach[r] = true
		if !r.isLeaf() {
			walk(a.inode(r).left)
			walk(a.inode(r).right)
		}
	}
	for _, v := range s.versions {
		for _, r := range v.trees {
			walk(r)
		}
	}
	var inodes, leaves int
	for r := range reach {
		if r.isLeaf() {
			leaves++
		} else {
			inodes++
		}
	}
	ui, ul := a.inUse()
	if ui != inodes || ul != leaves {
		t.Fatalf("%s: %d internal nodes and %d leaves in use, the %d retained versions reach %d and %d", when, ui, ul, len(s.versions), inodes, leaves)
	}
	for kind, free := range a.free {
		for _, i := range free {
			r := ref(i)
			if kind == kindLeaf {
				r |= leafBit
			}
			if reach[r] {
				t.Fatalf("%s: node %x is free but a retained version reaches it", when, r)
			}
		}
	}
}

// TestArenaReclaimsExactly: over random blocks, reopens, Retain values
// and failed commits, the memory of tree nodes is exactly what the
// retained versions need: every node a block replaces is freed when the
// last version reaching it leaves the window, and no node is freed while a
// retained version (whose proofs the other tests check) still reaches it.
func TestArenaReclaimsExactly(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		retain := rapid.IntRange(1, 6).Draw(rt, "retain")
		s, err := Open(dir, Options{NoSync: true, Retain: retain})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		rng := rand.New(rand.NewSource(rapid.Int64().Draw(rt, "seed")))
		universe := rapid.IntRange(1, 200).Draw(rt, "universe")
		h := uint64(0)
		for i, n := 0, rapid.IntRange(1, 20).Draw(rt, "blocks"); i < n; i++ {
			var b Batch
			for j, m := 0, rng.Intn(2*universe); j < m; j++ {
				w := Write{Key: k(rng.Intn(universe))}
				if rng.Intn(4) > 0 {
					w.Value = []byte(fmt.Sprintf("%d-%d", i, j))
				}
				if rng.Intn(3) == 0 {
					b.TxReceipts = append(b.TxReceipts, w)
				} else {
					b.State = append(b.State, w)
				}
			}
			if rapid.Bool().Draw(rt, "fail") {
				fail := errors.New("header refused")
				if _, err := s.CommitWith(h, &b, func(Roots) ([]RawWrite, error) { return nil, fail }); !errors.Is(err, fail) {
					rt.Fatalf("failed commit: %v", err)
				}
				checkArena(rt, s, fmt.Sprintf("after a failed commit of height %d", h))
			}
			if _, err := s.Commit(h, &b); err != nil {
				rt.Fatal(err)
			}
			checkArena(rt, s, fmt.Sprintf("after height %d", h))
			h++
			if rapid.Bool().Draw(rt, "reopen") {
				s.Close()
				retain = rapid.IntRange(1, 6).Draw(rt, "retain")
				if s, err = Open(dir, Options{NoSync: true, Retain: retain}); err != nil {
					rt.Fatal(err)
				}
				checkArena(rt, s, fmt.Sprintf("after reopening at height %d with retain %d", h-1, retain))
			}
		}
	})
}

// TestProofsDuringCommits: proofs at the oldest retained heights, taken
// while blocks are committed (which free the nodes of the heights leaving
// the window and reuse them), verify against the roots of their height.
// Run with -race, it also checks the arena's synchronization.
func TestProofsDuringCommits(t *testing.T) {
	s, err := Open(t.TempDir(), Options{NoSync: true, Retain: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const blocks = 60
	block := func(h uint64) *Batch {
		b := &Batch{}
		for i := 0; i < 300; i++ {
			b.State = append(b.State, Write{Key: k(i), Value: []byte(fmt.Sprintf("%d-%d", h, i))})
		}
		return b
	}
	if _, err := s.Commit(0, block(0)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		for h := uint64(1); h < blocks; h++ {
			if _, err := s.Commit(h, block(h)); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	proved := 0
	for finished := false; !finished; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		s.mu.RLock()
		oldest := s.versions[0].height
		s.mu.RUnlock()
		key := k(proved % 300)
		root, err := s.Root(StateDB, oldest)
		if errors.Is(err, ErrNotRetained) {
			continue // it left the window in between
		}
		p, v, err := s.ProveValue(StateDB, key, oldest)
		if errors.Is(err, ErrNotRetained) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("%d-%d", oldest, proved%300); string(v) != want {
			t.Fatalf("height %d: value %q, want %q", oldest, v, want)
		}
		if err := verifier.Verify(root, key[:], v, p); err != nil {
			t.Fatalf("height %d: %v", oldest, err)
		}
		proved++
	}
	t.Logf("%d proofs during %d commits", proved, blocks)
}
