package store

import (
	"bytes"
	"errors"
	"testing"
)

// TestGetAtPinsHeight: GetAt answers each retained height with the value
// the key held when that height was committed (deleted and never-written
// keys are ErrNotFound), whatever was committed after it; heights outside
// the retained window and a block only prepared are ErrNotRetained.
func TestGetAtPinsHeight(t *testing.T) {
	blocks := pipelineBlocks()
	const retain = 4
	s, err := Open(t.TempDir(), Options{NoSync: true, Retain: retain})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// model[h][key] is the key's value after block h (absent: none).
	var model []map[Key][]byte
	cur := map[Key][]byte{}
	for h, b := range blocks[:len(blocks)-1] {
		if _, err := s.Commit(uint64(h), b); err != nil {
			t.Fatal(err)
		}
		next := map[Key][]byte{}
		for k, v := range cur {
			next[k] = v
		}
		for _, w := range b.State {
			if w.Value == nil {
				delete(next, w.Key)
			} else {
				next[w.Key] = w.Value
			}
		}
		model, cur = append(model, next), next
	}
	last := uint64(len(model) - 1)
	// The last block prepared on top, not committed: nothing of it shows.
	p, err := s.Prepare(last+1, blocks[len(blocks)-1], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Discard()
	for h := last + 1 - retain; h <= last; h++ {
		for i := 0; i < 16; i++ {
			key := k(i)
			got, err := s.GetAt(StateDB, key, h)
			want, ok := model[h][key]
			switch {
			case !ok && !errors.Is(err, ErrNotFound):
				t.Fatalf("height %d key %d: %q, %v; want ErrNotFound", h, i, got, err)
			case ok && (err != nil || !bytes.Equal(got, want)):
				t.Fatalf("height %d key %d: %q, %v; want %q", h, i, got, err, want)
			}
		}
	}
	for _, h := range []uint64{last - retain, last + 1} {
		if _, err := s.GetAt(StateDB, k(1), h); !errors.Is(err, ErrNotRetained) {
			t.Fatalf("height %d (retained %d to %d): %v, want ErrNotRetained", h, last+1-retain, last, err)
		}
	}
	// A database number past the last is an error at a retained height,
	// not an index out of range.
	if _, err := s.GetAt(numDBs, k(1), last); err == nil {
		t.Fatal("GetAt of database numDBs succeeded")
	}
	if _, _, err := s.ProveValue(numDBs, k(1), last); err == nil {
		t.Fatal("ProveValue of database numDBs succeeded")
	}
}
