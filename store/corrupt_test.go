package store

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// TestOpenDetectsCorruptEntries: Open rebuilds every tree from the entries
// on disk and checks it against the committed roots, so an entry written
// behind the store's back is found, in any of the three databases, and an
// entry key naming no database is refused (not an index out of range).
func TestOpenDetectsCorruptEntries(t *testing.T) {
	for _, c := range []struct {
		name string
		db   byte
		want string
	}{
		{"a state entry", byte(StateDB), "rebuilt to root"},
		{"a tx index entry", byte(TxIndexDB), "rebuilt to root"},
		{"a receipts entry", byte(TxReceiptsDB), "rebuilt to root"},
		{"an entry of no database", byte(numDBs), "corrupt entry key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			b := &Batch{
				State:      []Write{{Key: k(1), Value: []byte("state")}},
				TxIndex:    []Write{{Key: k(2), Value: []byte("index")}},
				TxReceipts: []Write{{Key: k(3), Value: []byte("receipt")}},
			}
			if _, err := s.Commit(0, b); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			db, err := pebble.Open(dir, pebbleOptions())
			if err != nil {
				t.Fatal(err)
			}
			key := k(99)
			entry := append([]byte{'a', c.db}, key[:]...)
			if err := db.Set(entry, []byte("behind the store's back"), pebble.Sync); err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			s, err = Open(dir, Options{NoSync: true})
			if err == nil {
				s.Close()
				t.Fatal("store with a foreign entry opened")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("open: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// TestCommitHeightError: a commit at the wrong height is refused with the
// height the store expects next.
func TestCommitHeightError(t *testing.T) {
	s, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := &Batch{State: []Write{{Key: k(1), Value: []byte("v")}}}
	for _, c := range []struct {
		height uint64
		want   string // "" for success
	}{
		{1, "commit height 1, expected 0"},
		{0, ""},
		{5, "commit height 5, expected 1"},
		{1, ""},
		{1, "commit height 1, expected 2"},
	} {
		_, err := s.Commit(c.height, b)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Fatalf("Commit(%d) = %v, want %q", c.height, err, c.want)
		}
	}
}
