package store

import (
	"errors"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestRevertTo is a model test of RevertTo: random blocks, a revert to a
// random retained height, then more blocks, with reopens drawn at random.
// After each revert the store holds exactly the model's contents at the
// target (every key of the universe proves with them), the roots are the
// ones committed at the target, the raw writes of the revert landed, and
// the next commit is target+1.
func TestRevertTo(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		retain := rapid.IntRange(2, 6).Draw(rt, "retain")
		s, err := Open(dir, Options{NoSync: true, Retain: retain})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		cur := [numDBs]model{{}, {}, {}}
		var snaps [][numDBs]model
		var roots []Roots
		commit := func(h int) {
			var b Batch
			for db := DB(0); db < numDBs; db++ {
				universe := retainUniverse(db)
				var ws []Write
				for i, n := 0, rapid.IntRange(0, 5).Draw(rt, "writes"); i < n; i++ {
					key := universe[rapid.IntRange(0, len(universe)-1).Draw(rt, "key")]
					var v []byte
					if !rapid.Bool().Draw(rt, "delete") {
						v = []byte(fmt.Sprintf("%s-h%d-%d-%d", db, h, i, len(snaps)))
						cur[db][key] = v
					} else {
						delete(cur[db], key)
					}
					ws = append(ws, Write{Key: key, Value: v})
				}
				switch db {
				case StateDB:
					b.State = ws
				case TxIndexDB:
					b.TxIndex = ws
				default:
					b.TxReceipts = ws
				}
			}
			b.Raw = []RawWrite{{Key: []byte(fmt.Sprintf("blk%d", h)), Value: []byte("x")}}
			r, err := s.Commit(uint64(h), &b)
			if err != nil {
				rt.Fatal(err)
			}
			var snap [numDBs]model
			for db := range cur {
				snap[db] = model{}
				for key, v := range cur[db] {
					snap[db][key] = v
				}
			}
			snaps, roots = append(snaps[:h], snap), append(roots[:h], r)
		}
		h, low := 0, 0 // low: the oldest retained height, which a revert never lowers
		for round := rapid.IntRange(1, 3).Draw(rt, "rounds"); round > 0; round-- {
			for n := rapid.IntRange(1, 8).Draw(rt, "blocks"); n > 0; n-- {
				commit(h)
				h++
			}
			head := h - 1
			low = max(low, head-retain+1)
			target := rapid.IntRange(low, head).Draw(rt, "target")
			var raw []RawWrite
			for hh := target + 1; hh <= head; hh++ {
				raw = append(raw, RawWrite{Key: []byte(fmt.Sprintf("blk%d", hh))})
			}
			r, err := s.RevertTo(uint64(target), raw)
			if err != nil {
				rt.Fatalf("revert from %d to %d: %v", head, target, err)
			}
			if r != roots[target] {
				rt.Fatalf("revert to %d: roots %x, committed %x", target, r.State, roots[target].State)
			}
			if rapid.Bool().Draw(rt, "reopen") {
				s.Close()
				if s, err = Open(dir, Options{NoSync: true, Retain: retain}); err != nil {
					rt.Fatal(err)
				}
			}
			if got, gr, _ := s.LastCommitted(); got != uint64(target) || gr != roots[target] {
				rt.Fatalf("after revert: last committed %d %x, want %d %x", got, gr.State, target, roots[target].State)
			}
			for hh := low; hh <= target; hh++ {
				checkHeight(rt, s, uint64(hh), roots[hh], &snaps[hh])
			}
			for hh := target + 1; hh <= head; hh++ {
				if _, err := s.GetRaw([]byte(fmt.Sprintf("blk%d", hh))); !errors.Is(err, ErrNotFound) {
					rt.Fatalf("raw write of block %d survived the revert: %v", hh, err)
				}
				if _, err := s.Root(StateDB, uint64(hh)); !errors.Is(err, ErrNotRetained) {
					rt.Fatalf("height %d still provable after the revert: %v", hh, err)
				}
			}
			for db := range cur {
				cur[db] = model{}
				for key, v := range snaps[target][db] {
					cur[db][key] = v
				}
			}
			h = target + 1
		}
	})
}

// TestRevertToRefuses lists the reverts that must fail and change nothing.
func TestRevertToRefuses(t *testing.T) {
	s, err := Open(t.TempDir(), Options{NoSync: true, Retain: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.RevertTo(0, nil); err == nil {
		t.Fatal("revert of an empty store succeeded")
	}
	for h := uint64(0); h < 6; h++ {
		if _, err := s.Commit(h, &Batch{State: []Write{{Key: k(int(h)), Value: []byte{byte(h)}}}}); err != nil {
			t.Fatal(err)
		}
	}
	_, before, _ := s.LastCommitted()
	for _, target := range []uint64{0, 2, 6, 100} {
		if _, err := s.RevertTo(target, nil); !errors.Is(err, ErrNotRetained) {
			t.Errorf("revert to %d: %v, want ErrNotRetained", target, err)
		}
	}
	if h, after, _ := s.LastCommitted(); h != 5 || after != before {
		t.Fatalf("a refused revert moved the store to %d", h)
	}
	if r, err := s.RevertTo(5, nil); err != nil || r != before {
		t.Fatalf("revert to the head: %x %v", r.State, err)
	}
}
