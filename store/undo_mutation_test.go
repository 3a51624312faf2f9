package store

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// undoRec builds an undo record by hand: the header with roots r, then
// the entries as given (database, key, flag, then the raw rest).
func undoRec(r byte, entries ...[]byte) []byte {
	rec := []byte{undoVersion}
	rec = append(rec, bytes.Repeat([]byte{r}, 3*32)...)
	for _, e := range entries {
		rec = append(rec, e...)
	}
	return rec
}

// undoEntry is one entry: database db, key k(i), then tail (the flag and
// what follows it).
func undoEntry(db byte, i int, tail ...byte) []byte {
	key := k(i)
	return append(append([]byte{db}, key[:]...), tail...)
}

// TestDecodeUndoBounds pins each limit decodeUndo checks at its edge: the
// last database is accepted and the next refused, a value may end the
// record exactly but not run past it, an entry needs its key and flag,
// and entries must be strictly ordered by database then key.
func TestDecodeUndoBounds(t *testing.T) {
	const last = byte(numDBs - 1)
	tests := []struct {
		name string
		rec  []byte
		ok   bool
		ups  [numDBs]int // updates per database, when ok
	}{
		{"header only", undoRec(5), true, [numDBs]int{}},
		{"header cut", undoRec(5)[:undoHeaderSize-1], false, [numDBs]int{}},
		{"bad version", append([]byte{undoVersion + 1}, undoRec(5)[1:]...), false, [numDBs]int{}},
		{"last database", undoRec(5, undoEntry(last, 1, 0)), true, [numDBs]int{last: 1}},
		{"database past the last", undoRec(5, undoEntry(byte(numDBs), 1, 0)), false, [numDBs]int{}},
		{"entry without its flag", undoRec(5, undoEntry(0, 1)), false, [numDBs]int{}},
		{"value ends the record", undoRec(5, undoEntry(0, 1, 1, 3, 'a', 'b', 'c')), true, [numDBs]int{0: 1}},
		{"value one byte short", undoRec(5, undoEntry(0, 1, 1, 3, 'a', 'b')), false, [numDBs]int{}},
		{"empty value", undoRec(5, undoEntry(0, 1, 1, 0)), true, [numDBs]int{0: 1}},
		{"value length missing", undoRec(5, undoEntry(0, 1, 1)), false, [numDBs]int{}},
		{"flag 2", undoRec(5, undoEntry(0, 1, 2)), false, [numDBs]int{}},
		{"two databases in order", undoRec(5, undoEntry(0, 2, 0), undoEntry(1, 1, 0)), true, [numDBs]int{0: 1, 1: 1}},
		{"databases out of order", undoRec(5, undoEntry(1, 1, 0), undoEntry(0, 2, 0)), false, [numDBs]int{}},
		{"keys in order", undoRec(5, undoEntry(0, 1, 0), undoEntry(0, 2, 0)), true, [numDBs]int{0: 2}},
		{"keys out of order", undoRec(5, undoEntry(0, 2, 0), undoEntry(0, 1, 0)), false, [numDBs]int{}},
		{"key repeated", undoRec(5, undoEntry(0, 1, 0), undoEntry(0, 1, 1, 0)), false, [numDBs]int{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			roots, ups, err := decodeUndo(tt.rec)
			if !tt.ok {
				if !errors.Is(err, errUndoMalformed) {
					t.Fatalf("decoded (%v), want %v", err, errUndoMalformed)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if roots.State[0] != 5 || roots.TxReceipts[31] != 5 {
				t.Fatalf("roots %x", roots)
			}
			for db := range ups {
				if len(ups[db]) != tt.ups[db] {
					t.Fatalf("database %d: %d updates, want %d", db, len(ups[db]), tt.ups[db])
				}
			}
		})
	}
}

// TestUndoEntriesSize: undoEntriesSize is the exact length
// appendUndoEntries writes, at the value lengths where the uvarint grows.
func TestUndoEntriesSize(t *testing.T) {
	for _, n := range []int{0, 1, 0x7f, 0x80, 0x3fff, 0x4000} {
		priors := []prior{{}, {value: make([]byte, n), present: true}}
		ws := []Write{{Key: k(1)}, {Key: k(2), Value: []byte("x")}}
		got := len(appendUndoEntries(nil, StateDB, ws, priors))
		if want := undoEntriesSize(priors); got != want {
			t.Errorf("value of %d bytes: %d bytes written, undoEntriesSize %d", n, got, want)
		}
	}
	for _, c := range []struct {
		x    uint64
		want int
	}{{0, 1}, {0x7f, 1}, {0x80, 2}, {0x3fff, 2}, {0x4000, 3}, {math.MaxUint64, 10}} {
		if got := uvarintLen(c.x); got != c.want {
			t.Errorf("uvarintLen(%#x) = %d, want %d", c.x, got, c.want)
		}
	}
}

// TestUndoWindow: after committing h with Retain r, the records of
// heights h-r+2 … h are kept, never height 0's.
func TestUndoWindow(t *testing.T) {
	for _, c := range []struct {
		h      uint64
		retain int
		want   uint64
	}{
		{0, 1, 1}, {5, 1, 6}, {5, 2, 5}, {5, 6, 1}, {5, 7, 1}, {5, 8, 1}, {4, 6, 1}, {100, 10, 92},
	} {
		if got := undoWindow(c.h, c.retain); got != c.want {
			t.Errorf("undoWindow(%d, %d) = %d, want %d", c.h, c.retain, got, c.want)
		}
	}
}

// TestOpenReadsOnlyItsWindow: opened with Retain 4 at height 4, a store
// rebuilds heights 1-4 and never reads the undo record of height 1 (a
// window of 8 left it on disk), so a corrupt one does not stop the open;
// with Retain 5 the window reaches height 0 and the record is refused.
func TestOpenReadsOnlyItsWindow(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{NoSync: true, Retain: 8})
	if err != nil {
		t.Fatal(err)
	}
	for h := uint64(0); h <= 4; h++ {
		if _, err := s.Commit(h, &Batch{State: []Write{{Key: k(int(h)), Value: []byte("v")}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.db.Set(undoKey(1), []byte{9}, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err := Open(dir, Options{NoSync: true, Retain: 5}); err == nil || !strings.Contains(err.Error(), "height 1") {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Retain 5: %v, want the record of height 1 refused", err)
	}
	s, err = Open(dir, Options{NoSync: true, Retain: 4})
	if err != nil {
		t.Fatalf("Retain 4: %v", err)
	}
	defer s.Close()
	if len(s.versions) != 4 || s.versions[0].height != 1 {
		t.Fatalf("Retain 4: %d versions from height %d, want 4 from 1", len(s.versions), s.versions[0].height)
	}
}
