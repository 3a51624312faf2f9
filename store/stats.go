package store

import (
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// Stats describe the store's space and its background work. Overwritten
// and deleted records, and undo logs leaving the window, take disk space
// until Pebble's flushes and compactions drop them; those run on Pebble's
// own goroutines, off the commit path. A commit waits for them only when
// they fall behind (a write stall), which WriteStalls counts.
type Stats struct {
	DiskBytes   uint64 // all of Pebble's files: tables, write-ahead log, manifest
	TableBytes  uint64 // the sorted tables alone
	Flushes     int64  // memtable flushes since Open
	Compactions int64  // compactions since Open
	WriteStalls int64  // times commits were held up waiting for them
	// TreeNodes and TreeLeaves are the nodes kept in memory for the
	// retained heights (arena.go): nodes no retained height reaches are
	// freed at once.
	TreeNodes, TreeLeaves int
}

// Stats reports the figures above.
func (s *Store) Stats() Stats {
	m := s.db.Metrics()
	var tables uint64
	for _, l := range m.Levels {
		tables += uint64(l.TablesSize)
	}
	st := Stats{
		DiskBytes:   m.DiskSpaceUsage(),
		TableBytes:  tables,
		Flushes:     m.Flush.Count,
		Compactions: m.Compact.Count,
		WriteStalls: s.stalls.Load(),
	}
	st.TreeNodes, st.TreeLeaves = s.arena.inUse()
	return st
}

// stallCounter counts Pebble's write stalls.
func stallCounter(n *atomic.Int64) *pebble.EventListener {
	return &pebble.EventListener{WriteStallBegin: func(pebble.WriteStallBeginInfo) { n.Add(1) }}
}
