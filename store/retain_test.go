package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// retainUniverse is every key TestRetainedHeightsAcrossReopen writes, per
// database: 12 keys each, so every height's full contents are checked.
func retainUniverse(db DB) []Key {
	keys := make([]Key, 12)
	for i := range keys {
		switch db {
		case StateDB:
			keys[i] = k(i)
		case TxIndexDB:
			keys[i] = MakeKey(KindTxIndex, [20]byte{}, 0, [32]byte{byte(i)})
		default:
			keys[i] = MakeKey(KindReceipt, [20]byte{}, 0, [32]byte{byte(i)})
		}
	}
	return keys
}

// checkHeight asserts that height h is provable and that every key of the
// universe, present or absent, proves against the root recorded for h
// with the value the model held at h.
func checkHeight(t interface{ Fatalf(string, ...any) }, s *Store, h uint64, roots Roots, contents *[numDBs]model) {
	for db := DB(0); db < numDBs; db++ {
		if r, err := s.Root(db, h); err != nil || r != roots.of(db) {
			t.Fatalf("%s root at height %d: %x %v, committed %x", db, h, r, err, roots.of(db))
		}
		for _, key := range retainUniverse(db) {
			p, got, err := s.ProveValue(db, key, h)
			if err != nil {
				t.Fatalf("prove %s %x at height %d: %v", db, key[:3], h, err)
			}
			want := contents[db][key]
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %x at height %d: value %q, model %q", db, key[:3], h, got, want)
			}
			if err := verifier.Verify(roots.of(db), key[:], want, p); err != nil {
				t.Fatalf("%s %x at height %d (present %v): %v", db, key[:3], h, want != nil, err)
			}
		}
	}
}

// undoHeights lists the heights that have an undo record on disk.
func undoHeights(t interface{ Fatalf(string, ...any) }, s *Store) []uint64 {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{'u'}, UpperBound: []byte{'v'}})
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer it.Close()
	var hs []uint64
	for it.First(); it.Valid(); it.Next() {
		hs = append(hs, binary.BigEndian.Uint64(it.Key()[1:]))
	}
	return hs
}

// TestRetainedHeightsAcrossReopen is a model test of retention: random
// blocks over all three databases, reopened at random points with a
// random Retain (growing or shrinking the window). At every point each
// height in the window proves every key of the universe, present or
// absent, against the root committed at that height; every height outside
// it is ErrNotRetained; and the disk holds exactly the undo records the
// window needs.
func TestRetainedHeightsAcrossReopen(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir := t.TempDir()
		retain := rapid.IntRange(1, 5).Draw(rt, "retain")
		s, err := Open(dir, Options{NoSync: true, Retain: retain})
		if err != nil {
			rt.Fatal(err)
		}
		defer func() { s.Close() }()
		var (
			cur   = [numDBs]model{{}, {}, {}}
			snaps [][numDBs]model // contents after each height
			roots []Roots         // roots committed at each height
			low   int             // the oldest provable height
		)
		blocks := rapid.IntRange(1, 12).Draw(rt, "blocks")
		for h := 0; h < blocks; h++ {
			var b Batch
			for db := DB(0); db < numDBs; db++ {
				universe := retainUniverse(db)
				var ws []Write
				for i, n := 0, rapid.IntRange(0, 6).Draw(rt, "writes"); i < n; i++ {
					key := universe[rapid.IntRange(0, len(universe)-1).Draw(rt, "key")]
					var v []byte
					if !rapid.Bool().Draw(rt, "delete") {
						v = []byte(fmt.Sprintf("%s-h%d-%d", db, h, i))
					}
					ws = append(ws, Write{Key: key, Value: v})
					if v == nil {
						delete(cur[db], key)
					} else {
						cur[db][key] = v
					}
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
			r, err := s.Commit(uint64(h), &b)
			if err != nil {
				rt.Fatal(err)
			}
			var snap [numDBs]model
			for db := range cur {
				snap[db] = model{}
				for key, v := range cur[db] { // copying a map into a map: no order escapes
					snap[db][key] = v
				}
			}
			snaps, roots = append(snaps, snap), append(roots, r)
			low = max(low, h-retain+1)

			// Undo records on disk: exactly heights low+1 … h.
			var want []uint64
			for hh := low + 1; hh <= h; hh++ {
				want = append(want, uint64(hh))
			}
			if got := undoHeights(rt, s); fmt.Sprint(got) != fmt.Sprint(want) {
				rt.Fatalf("after height %d (retain %d): undo records at %v, want %v", h, retain, got, want)
			}

			full := h == blocks-1
			if rapid.Bool().Draw(rt, "reopen") {
				s.Close()
				retain = rapid.IntRange(1, 5).Draw(rt, "retain")
				if s, err = Open(dir, Options{NoSync: true, Retain: retain}); err != nil {
					rt.Fatal(err)
				}
				low = max(low, h-retain+1)
				full = true
			}
			// Each retained height proves (all of them after a reopen and
			// at the end, else the newest and the oldest); the heights
			// around the window are refused.
			for hh := low - 2; hh <= h+1; hh++ {
				if hh < 0 {
					continue
				}
				if hh < low || hh > h {
					_, _, err := s.ProveValue(StateDB, k(0), uint64(hh))
					_, rerr := s.Root(TxReceiptsDB, uint64(hh))
					if !errors.Is(err, ErrNotRetained) || !errors.Is(rerr, ErrNotRetained) {
						rt.Fatalf("height %d outside [%d, %d]: %v, %v", hh, low, h, err, rerr)
					}
					continue
				}
				if full || hh == low || hh == h {
					checkHeight(rt, s, uint64(hh), roots[hh], &snaps[hh])
				}
			}
		}
	})
}

// TestUndoRecordFormat pins the undo record of a small block byte for byte
// (the format in undo.go) and checks that decodeUndo inverts it.
func TestUndoRecordFormat(t *testing.T) {
	s, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r0, err := s.Commit(0, &Batch{State: []Write{{Key: k(1), Value: []byte("one")}, {Key: k(2), Value: []byte{}}}})
	if err != nil {
		t.Fatal(err)
	}
	rcpt := MakeKey(KindReceipt, [20]byte{}, 0, [32]byte{9})
	// Block 1 overwrites k(1), deletes k(2) (present and empty), writes
	// the absent k(3), and adds a receipt.
	if _, err := s.Commit(1, &Batch{
		State:      []Write{{Key: k(3), Value: []byte("x")}, {Key: k(2)}, {Key: k(1), Value: []byte("uno")}},
		TxReceipts: []Write{{Key: rcpt, Value: []byte("r")}},
	}); err != nil {
		t.Fatal(err)
	}
	rec, err := s.get(undoKey(1))
	if err != nil {
		t.Fatal(err)
	}
	want := []byte{undoVersion}
	want = append(append(append(want, r0.State[:]...), r0.TxIndex[:]...), r0.TxReceipts[:]...)
	ends := map[int]bool{len(want): true} // where a record may end
	for _, e := range []struct {
		db    DB
		key   Key
		prior []byte // nil: absent
	}{{StateDB, k(1), []byte("one")}, {StateDB, k(2), []byte{}}, {StateDB, k(3), nil}, {TxReceiptsDB, rcpt, nil}} {
		want = append(append(want, byte(e.db)), e.key[:]...)
		if e.prior == nil {
			want = append(want, 0)
		} else {
			want = append(append(append(want, 1), byte(len(e.prior))), e.prior...)
		}
		ends[len(want)] = true
	}
	if !bytes.Equal(rec, want) {
		t.Fatalf("undo record of height 1:\n got %x\nwant %x", rec, want)
	}
	roots, ups, err := decodeUndo(rec)
	if err != nil || roots != r0 || len(ups[StateDB]) != 3 || len(ups[TxIndexDB]) != 0 || len(ups[TxReceiptsDB]) != 1 {
		t.Fatalf("decode: %v %v %d/%d/%d", err, roots == r0, len(ups[0]), len(ups[1]), len(ups[2]))
	}
	// A record cut anywhere but between entries is refused, never misread.
	for n := 0; n < len(rec); n++ {
		if _, _, err := decodeUndo(rec[:n]); (err == nil) != ends[n] {
			t.Fatalf("the %d-byte prefix: %v", n, err)
		}
	}
	// Entries out of order or repeated are refused.
	e0 := rec[97 : 97+1+54+1+1+3]
	if _, _, err := decodeUndo(append(bytes.Clone(rec), e0...)); err == nil {
		t.Fatal("a repeated entry decodes")
	}
}

// TestOpenRefusesBadUndoLog: an undo record that does not lead to the
// roots it records, or that does not parse, refuses the open instead of
// serving wrong proofs.
func TestOpenRefusesBadUndoLog(t *testing.T) {
	tests := []struct {
		name   string
		mangle func(rec []byte) []byte
		want   string
	}{
		{"changed prior value", func(rec []byte) []byte { rec[len(rec)-1] ^= 1; return rec }, "at height 1 rebuilt to root"},
		{"changed recorded root", func(rec []byte) []byte { rec[1] ^= 1; return rec }, "at height 1 rebuilt to root"},
		{"changed recorded tx_index root", func(rec []byte) []byte { rec[33] ^= 1; return rec }, "at height 1 rebuilt to root"},
		{"changed recorded tx_receipts root", func(rec []byte) []byte { rec[65] ^= 1; return rec }, "at height 1 rebuilt to root"},
		{"unknown version", func(rec []byte) []byte { rec[0] = 9; return rec }, "malformed undo record"},
		{"truncated", func(rec []byte) []byte { return rec[:len(rec)-2] }, "malformed undo record"},
		{"unknown database", func(rec []byte) []byte { rec[97] = 7; return rec }, "malformed undo record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			for h := uint64(0); h < 3; h++ {
				if _, err := s.Commit(h, &Batch{State: []Write{{Key: k(int(h)), Value: []byte("v")}, {Key: k(7), Value: []byte{byte(h)}}}}); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := s.get(undoKey(2))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.db.Set(undoKey(2), tt.mangle(rec), pebble.Sync); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s, err = Open(dir, Options{NoSync: true})
			if err == nil {
				s.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "height 2") {
				t.Fatalf("error %q, want it to name height 2 and say %q", err, tt.want)
			}
		})
	}
}

// TestOpenWithoutUndoLogs: a store whose undo records are missing (one
// written before they existed) opens, proves its newest height, and grows
// its window again from there.
func TestOpenWithoutUndoLogs(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{NoSync: true, Retain: 4})
	if err != nil {
		t.Fatal(err)
	}
	for h := uint64(0); h < 6; h++ {
		if _, err := s.Commit(h, &Batch{State: []Write{{Key: k(int(h)), Value: []byte("v")}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.db.DeleteRange([]byte{'u'}, []byte{'v'}, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = Open(dir, Options{NoSync: true, Retain: 4}); err != nil {
		t.Fatal(err)
	}
	defer func() { s.Close() }()
	if _, err := s.Prove(StateDB, k(0), 5); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prove(StateDB, k(0), 4); !errors.Is(err, ErrNotRetained) {
		t.Fatalf("height 4 without its undo log: %v", err)
	}
	for h := uint64(6); h < 10; h++ {
		if _, err := s.Commit(h, &Batch{State: []Write{{Key: k(int(h)), Value: []byte("v")}}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(dir, Options{NoSync: true, Retain: 4}); err != nil {
		t.Fatal(err)
	}
	for h := uint64(6); h < 10; h++ {
		if _, err := s.Prove(StateDB, k(0), h); err != nil {
			t.Fatalf("height %d: %v", h, err)
		}
	}
	if got := fmt.Sprint(undoHeights(t, s)); got != "[7 8 9]" {
		t.Fatalf("undo records at %s", got)
	}
}

// TestBackgroundReclaim: blocks that overwrite the same records over and
// over, with a short window, leave the sorted tables holding about the
// live records and the window's undo logs, not the history: Pebble's
// flushes and compactions dropped the overwritten values and the deleted
// undo logs on their own goroutines, and no commit waited for them.
func TestBackgroundReclaim(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 200 MB")
	}
	s, err := Open(t.TempDir(), Options{Retain: 4}) // synced, as a node commits
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const keys, valueLen, blocks = 500, 1024, 200
	rng := rand.New(rand.NewSource(9))
	written := 0
	for h := uint64(0); h < blocks; h++ {
		ws := make([]Write, keys)
		for i := range ws {
			ws[i] = Write{Key: k(i), Value: make([]byte, valueLen)}
			rng.Read(ws[i].Value)   // incompressible
			written += 2 * valueLen // the value, and the previous one in the undo log
		}
		if _, err := s.Commit(h, &Batch{State: ws}); err != nil {
			t.Fatal(err)
		}
	}
	st := s.Stats()
	t.Logf("%d MB written; %+v", written>>20, st)
	if st.Flushes == 0 {
		t.Fatalf("no flush in %d MB of writes: %+v", written>>20, st)
	}
	if st.WriteStalls != 0 {
		t.Fatalf("commits waited for compactions %d times", st.WriteStalls)
	}
	// Live: the records and 3 undo logs, about 2 MB; the history is 200 MB.
	if limit := uint64(written / 10); st.TableBytes > limit {
		t.Fatalf("tables hold %d bytes after %d bytes of overwrites (limit %d): overwritten values were not reclaimed", st.TableBytes, written, limit)
	}
}

// TestDuplicateWritesInABlock: when a block writes a key several times,
// the last write wins, in the tree, in Pebble and in the undo log, which
// records the value from before the block (not an intermediate write);
// after a reopen the height below still proves that value.
func TestDuplicateWritesInABlock(t *testing.T) {
	for _, tt := range []struct {
		name   string
		before []byte   // the key's value at height 0 (nil: absent)
		writes [][]byte // height 1's writes to it, in order (nil: delete)
	}{
		{"set, delete, set", []byte("v0"), [][]byte{[]byte("a"), nil, []byte("b")}},
		{"set, set, delete", []byte("v0"), [][]byte{[]byte("a"), []byte("b"), nil}},
		{"absent: delete, set, set", nil, [][]byte{nil, []byte("a"), []byte("b")}},
		{"absent: set, delete", nil, [][]byte{[]byte("a"), nil}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir, Options{NoSync: true})
			if err != nil {
				t.Fatal(err)
			}
			key, other := k(1), k(2)
			b0 := &Batch{State: []Write{{Key: other, Value: []byte("x")}}}
			if tt.before != nil {
				b0.State = append(b0.State, Write{Key: key, Value: tt.before})
			}
			if _, err := s.Commit(0, b0); err != nil {
				t.Fatal(err)
			}
			var b1 Batch
			for i, v := range tt.writes {
				b1.State = append(b1.State, Write{Key: key, Value: v})
				if i == 0 {
					b1.State = append(b1.State, Write{Key: other, Value: []byte("y")})
				}
			}
			if _, err := s.Commit(1, &b1); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if s, err = Open(dir, Options{NoSync: true}); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			last := tt.writes[len(tt.writes)-1]
			for _, c := range []struct {
				h    uint64
				want []byte
			}{{0, tt.before}, {1, last}} {
				root, err := s.Root(StateDB, c.h)
				if err != nil {
					t.Fatal(err)
				}
				p, v, err := s.ProveValue(StateDB, key, c.h)
				if err != nil || !bytes.Equal(v, c.want) {
					t.Fatalf("height %d: value %q %v, want %q", c.h, v, err, c.want)
				}
				if err := verifier.Verify(root, key[:], c.want, p); err != nil {
					t.Fatalf("height %d: %v", c.h, err)
				}
			}
			if got, err := s.Get(StateDB, key); !bytes.Equal(got, last) || (last == nil) != errors.Is(err, ErrNotFound) {
				t.Fatalf("Get: %q %v, want %q", got, err, last)
			}
		})
	}
}
