package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/store/verifier"
)

// Undo logs make retained heights survive a restart. The trees live in
// memory; at Open the newest one is rebuilt from the latest values and each
// older retained version from the one above it, by undoing one block at a
// time. Undoing block h needs, for every key the block changed in any of
// the three databases, what the key held before: its value or its absence.
// That is the undo log of h, written in the same synced Pebble batch as
// block h, so a crash never leaves a block without its log or the reverse.
//
// Pebble key and value (an undo record):
//
//	'u' || be64(h)                        key: one record per height h ≥ 1
//
//	byte     version = 1
//	[32]     state_db root at h-1
//	[32]     tx_index root at h-1
//	[32]     tx_receipts root at h-1
//	then, for every key block h changed, sorted by database then key:
//	  byte     database (0 state_db, 1 tx_index, 2 tx_receipts)
//	  [54]     key
//	  byte     0: absent before block h, 1: present
//	  uvarint  n, then n bytes of the previous value   (present only)
//
// Applying the entries to the tree of height h gives the tree of h-1,
// whose roots the record carries, so every rebuilt version is checked. The
// record is a pure function of the state before the block and the block's
// writes (no clock, no map order), like the roots.
//
// Retention: with Options.Retain = N the provable heights are the last N,
// [h-N+1, h], which needs the undo records of heights h-N+2 … h. Committing
// h deletes the records that fall out of the window in the same batch, so
// at most N-1 records exist. Height 0 has no record (nothing is below it),
// and with N = 1 none are written.
const undoVersion = 1

// undoHeaderSize is the size of an undo record before its entries.
const undoHeaderSize = 1 + 3*32

// undoKey is the Pebble key of height h's undo record.
func undoKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{'u'}, h)
}

// prior is what a key held before a block: a value, or absence. apply
// records it as it replaces or deletes the key's leaf (smt.go).
type prior struct {
	value   []byte
	present bool
}

// appendUndoEntries appends db's entries of an undo record: ws are the
// block's writes to db sorted by key (dedupe), priors what each key held.
func appendUndoEntries(b []byte, db DB, ws []Write, priors []prior) []byte {
	for i, w := range ws {
		b = append(b, byte(db))
		b = append(b, w.Key[:]...)
		if !priors[i].present {
			b = append(b, 0)
			continue
		}
		b = append(b, 1)
		b = binary.AppendUvarint(b, uint64(len(priors[i].value)))
		b = append(b, priors[i].value...)
	}
	return b
}

// undoEntriesSize is the encoded size of appendUndoEntries' output.
func undoEntriesSize(priors []prior) int {
	n := 0
	for _, p := range priors {
		n += 1 + len(Key{}) + 1
		if p.present {
			n += uvarintLen(uint64(len(p.value))) + len(p.value)
		}
	}
	return n
}

// uvarintLen is the length of binary.AppendUvarint's encoding of x: 7 bits
// a byte, at least one byte.
func uvarintLen(x uint64) int {
	return (bits.Len64(x|1) + 6) / 7
}

var errUndoMalformed = errors.New("malformed undo record")

// decodeUndo parses an undo record into the roots below it and, per
// database, the tree updates that undo the block, sorted by path. Values
// alias rec, which the caller must not reuse.
func decodeUndo(rec []byte) (Roots, [numDBs][]update, error) {
	var ups [numDBs][]update
	var lastDB DB
	var lastKey []byte
	var orderErr error
	roots, err := walkUndo(rec, func(db DB, key []byte, present bool, value []byte) {
		// Entries are strictly ordered, so no key is undone twice.
		if lastKey != nil && (db < lastDB || (db == lastDB && bytes.Compare(key, lastKey) <= 0)) {
			orderErr = fmt.Errorf("%w: entries out of order", errUndoMalformed)
		}
		lastDB, lastKey = db, key
		u := update{path: verifier.Path(key), del: !present}
		if present {
			u.value = value
			u.vh = verifier.LeafValueHash(value)
		}
		ups[db] = append(ups[db], u)
	})
	if err == nil {
		err = orderErr
	}
	if err != nil {
		return roots, ups, err
	}
	for db := range ups {
		sortUpdates(ups[db])
	}
	return roots, ups, nil
}

// undoWindow is the lowest height whose undo record must be kept after
// committing height h with retain heights provable: h-retain+2, at least 1.
// With retain 1 it is h+1 (no record is needed, not even h's).
func undoWindow(h uint64, retain int) uint64 {
	if h+2 <= uint64(retain) {
		return 1
	}
	return h + 2 - uint64(retain)
}

// pruneUndo adds to pb the deletion of every undo record below keepFrom,
// given that none exists below low.
func pruneUndo(pb *pebble.Batch, low, keepFrom uint64) {
	switch {
	case low >= keepFrom:
	case keepFrom-low == 1: // the usual case: one record falls out per block
		pb.Delete(undoKey(low), nil)
	default: // the window shrank (Retain lowered between runs)
		pb.DeleteRange(undoKey(low), undoKey(keepFrom), nil)
	}
}

// loadVersions rebuilds the retained versions below the latest, newest
// first, by undoing one block at a time, and checks each against the roots
// its undo record carries. It stops at the first missing record (a store
// written before undo logs, or a window that was smaller), so the provable
// window after Open is as long as the records allow, up to Retain.
func (s *Store) loadVersions() error {
	low := uint64(0)
	if s.height >= uint64(s.opts.Retain) {
		low = s.height + 1 - uint64(s.opts.Retain)
	}
	newestFirst := []version{{height: s.height, trees: s.trees}}
	trees := s.trees
	for h := s.height; h > low; h-- {
		v, closer, err := s.db.Get(undoKey(h))
		if errors.Is(err, pebble.ErrNotFound) {
			break
		}
		if err != nil {
			return fmt.Errorf("store: read undo log of height %d: %w", h, err)
		}
		rec := append([]byte(nil), v...) // values in the tree alias it
		closer.Close()
		roots, ups, err := decodeUndo(rec)
		if err != nil {
			return fmt.Errorf("store: undo log of height %d: %w", h, err)
		}
		// The nodes undoing block h creates are in h-1 and not in h: the
		// ones block h replaced going forward, h's stale nodes.
		var stale []ref
		for db := range ups {
			u := s.arena.apply(trees[db], ups[db])
			trees[db] = u.root
			stale = append(stale, u.created...)
		}
		newestFirst[len(newestFirst)-1].stale = stale
		for db := DB(0); db < numDBs; db++ {
			if got := s.arena.hash(trees[db]); got != roots.of(db) {
				return fmt.Errorf("store: %s at height %d rebuilt to root %x but the undo log of height %d records %x: the store is corrupt", db, h-1, got, h, roots.of(db))
			}
		}
		newestFirst = append(newestFirst, version{height: h - 1, trees: trees})
	}
	s.versions = make([]version, len(newestFirst))
	for i, v := range newestFirst {
		s.versions[len(newestFirst)-1-i] = v
	}
	s.trimVersions() // the oldest version's stale nodes are unreachable
	return nil
}

// lowestUndo is the height of the oldest undo record on disk, or next if
// there is none.
func (s *Store) lowestUndo(next uint64) (uint64, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{'u'}, UpperBound: []byte{'v'}})
	if err != nil {
		return 0, fmt.Errorf("store: scan undo logs: %w", err)
	}
	defer it.Close()
	if !it.First() {
		if err := it.Error(); err != nil {
			return 0, fmt.Errorf("store: scan undo logs: %w", err)
		}
		return next, nil
	}
	if k := it.Key(); len(k) == 9 {
		return binary.BigEndian.Uint64(k[1:]), nil
	}
	return 0, fmt.Errorf("store: corrupt undo log key %x", it.Key())
}
