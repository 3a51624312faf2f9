package store

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Entry is one authenticated record as Scan returns it.
type Entry struct {
	Key   Key
	Value []byte
}

// Scan lists the latest committed records of db whose keys start with
// prefix and, if after is not nil, sort above *after, in key order, at
// most limit of them (limit ≤ 0: no records). more is true when records
// with the prefix follow the last one returned: pass its key as after for
// the next page. Records are read as Get reads them, from one consistent view:
// a commit running at the same time is either wholly seen or not at all.
//
// The authenticated records lie in Pebble ordered by key ('a' ‖ db ‖ key,
// docs/state-layout.md), so the records under a prefix are one contiguous
// range and a page costs its own length, whatever else db holds. It needs
// no index of its own: what RevertTo and a restart leave on disk is what
// it reads.
func (s *Store) Scan(db DB, prefix []byte, after *Key, limit int) (entries []Entry, more bool, err error) {
	if len(prefix) > len(Key{}) {
		return nil, false, fmt.Errorf("store: scan prefix of %d bytes, keys have %d", len(prefix), len(Key{}))
	}
	if limit <= 0 {
		return nil, false, nil
	}
	lower := append([]byte{'a', byte(db)}, prefix...)
	upper := prefixEnd(lower)
	if after != nil {
		// The least Pebble key above after's: after's own followed by 0.
		// It is never equal to lower, which is at most a key long.
		start := append(append([]byte{'a', byte(db)}, after[:]...), 0)
		if bytes.Compare(start, lower) == 1 {
			lower = start
		}
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, false, fmt.Errorf("store: scan: %w", err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != entryKeyLen {
			return nil, false, fmt.Errorf("store: corrupt entry key %x", k)
		}
		if len(entries) == limit {
			more = true
			break
		}
		var e Entry
		copy(e.Key[:], k[2:])
		e.Value = bytes.Clone(it.Value())
		entries = append(entries, e)
	}
	if err := it.Error(); err != nil {
		return nil, false, fmt.Errorf("store: scan: %w", err)
	}
	return entries, more, nil
}

// prefixEnd is the least key above every key that starts with p: the
// last byte below 0xff incremented, the bytes after it dropped. p's first
// two bytes, 'a' and a db below 0xff, keep the search from running off.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	i := len(end) - 1
	for end[i] == 0xff {
		i--
	}
	end[i]++
	return end[:i+1]
}
