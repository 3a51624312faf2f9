package store

import (
	"errors"
	"fmt"
	"testing"
)

// pipelineBlocks are the writes of a few blocks that overwrite and delete
// each other's keys, so a Prepare that built on the wrong trees shows in
// the roots.
func pipelineBlocks() []*Batch {
	var out []*Batch
	for h := 0; h < 6; h++ {
		b := &Batch{Raw: []RawWrite{{Key: []byte(fmt.Sprintf("blk%d", h)), Value: []byte{byte(h)}}}}
		for i := 0; i < 8; i++ {
			var v []byte
			if (h+i)%5 != 0 {
				v = []byte(fmt.Sprintf("v%d-%d", h, i))
			}
			b.State = append(b.State, Write{Key: k(h + i), Value: v})
			b.TxIndex = append(b.TxIndex, Write{Key: k(100*h + i), Value: []byte{byte(h), byte(i)}})
		}
		out = append(out, b)
	}
	return out
}

// TestPrepareAheadMatchesCommit: preparing block h+1 while block h waits
// for its Commit gives the same roots and contents as committing one by
// one, and nothing of a prepared block is visible before its Commit.
func TestPrepareAheadMatchesCommit(t *testing.T) {
	blocks := pipelineBlocks()
	ref, err := Open(t.TempDir(), Options{NoSync: true, Retain: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	var want []Roots
	for h, b := range blocks {
		r, err := ref.Commit(uint64(h), b)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}

	dir := t.TempDir()
	s, err := Open(dir, Options{Retain: 3})
	if err != nil {
		t.Fatal(err)
	}
	var pending *Prepared
	for h, b := range blocks {
		p, err := s.Prepare(uint64(h), b, nil)
		if err != nil {
			t.Fatalf("prepare %d: %v", h, err)
		}
		if p.Roots() != want[h] {
			t.Fatalf("height %d prepared on top of %d: roots %x, one by one %x", h, h-1, p.Roots().State, want[h].State)
		}
		if last, _, has := s.LastCommitted(); has && last >= uint64(h) {
			t.Fatalf("height %d is visible before its Commit (last %d)", h, last)
		}
		if _, err := s.GetRaw([]byte(fmt.Sprintf("blk%d", h))); !errors.Is(err, ErrNotFound) {
			t.Fatalf("raw write of height %d readable before its Commit: %v", h, err)
		}
		if pending != nil {
			if _, err := pending.Commit(); err != nil {
				t.Fatalf("commit %d: %v", h-1, err)
			}
		}
		pending = p
	}
	if _, err := pending.Commit(); err != nil {
		t.Fatal(err)
	}
	last, roots, _ := s.LastCommitted()
	if last != uint64(len(blocks)-1) || roots != want[len(want)-1] {
		t.Fatalf("last %d roots %x, want %d %x", last, roots.State, len(blocks)-1, want[len(want)-1].State)
	}
	s.Close()
	// The retained versions (rebuilt from the undo logs) agree as well.
	if s, err = Open(dir, Options{Retain: 3}); err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	if _, r, _ := s.LastCommitted(); r != want[len(want)-1] {
		t.Fatal("roots changed across reopen")
	}
}

// TestPreparedOutOfOrder: committing a block before the one below it, or
// after the one below it was discarded, fails and leaves the store at its
// last committed height, where the next Prepare builds.
func TestPreparedOutOfOrder(t *testing.T) {
	blocks := pipelineBlocks()
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, p0, p1 *Prepared) error
	}{
		{"above before below", func(t *testing.T, p0, p1 *Prepared) error {
			_, err := p1.Commit()
			p0.Discard()
			return err
		}},
		{"below discarded", func(t *testing.T, p0, p1 *Prepared) error {
			p0.Discard()
			if _, err := p0.s.Prepare(3, blocks[3], nil); err == nil {
				t.Fatal("prepared on top of a discarded block")
			}
			_, err := p1.Commit()
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir(), Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Commit(0, blocks[0]); err != nil {
				t.Fatal(err)
			}
			_, before, _ := s.LastCommitted()
			p0, err := s.Prepare(1, blocks[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			p1, err := s.Prepare(2, blocks[2], nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.run(t, p0, p1); err == nil {
				t.Fatal("out-of-order commit succeeded")
			}
			if last, r, _ := s.LastCommitted(); last != 0 || r != before {
				t.Fatalf("store moved to %d", last)
			}
			if _, err := s.Commit(1, blocks[1]); err != nil {
				t.Fatalf("commit after the failure: %v", err)
			}
		})
	}
}
