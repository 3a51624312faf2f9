package store

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/internal/pebblelog"
	"github.com/cowboy-chain/cowboy/store/verifier"
)

// ErrNotFound is returned by Get and GetRaw for an absent key.
var ErrNotFound = errors.New("not found")

// Roots are the three databases' roots after a block.
type Roots struct{ State, TxIndex, TxReceipts [32]byte }

func (r Roots) of(db DB) [32]byte {
	switch db {
	case TxIndexDB:
		return r.TxIndex
	case TxReceiptsDB:
		return r.TxReceipts
	}
	return r.State
}

// Write is one authenticated change; Value nil deletes the key.
type Write struct {
	Key   Key
	Value []byte
}

// RawWrite is one unauthenticated change (block bodies, metadata); Value
// nil deletes.
type RawWrite struct{ Key, Value []byte }

// Batch is one block's writes.
type Batch struct {
	State, TxIndex, TxReceipts []Write
	Raw                        []RawWrite
}

// Options tune the store.
type Options struct {
	// Retain is how many recent heights stay provable, the newest
	// included (default 256). Old versions of the trees share every
	// unchanged node with the newest, so each retained height costs only
	// the nodes its block changed. Each commit also persists the block's
	// undo log (undo.go), from which Open rebuilds the retained versions,
	// so they stay provable across restarts; logs that fall out of the
	// window are deleted with the commit that drops them.
	Retain int
	// NoSync skips fsync on commit. Only for benchmarks of the commitment
	// itself: a crash may then lose recent blocks.
	NoSync bool
}

type version struct {
	height uint64
	trees  [numDBs]ref
	// stale are the nodes block height replaced: reachable only from
	// older versions, so they are freed as soon as this version is the
	// oldest retained one (nil once freed).
	stale []ref
}

// Store is safe for concurrent readers and one committer.
type Store struct {
	db   *pebble.DB
	opts Options

	commitMu sync.Mutex // one Prepare (or raw write, revert) at a time
	syncMu   sync.Mutex // one Prepared.Commit at a time
	// tip is the newest prepared block while tipAhead: Prepare builds on
	// it instead of the committed trees. Guarded by commitMu.
	tip       tipState
	tipAhead  bool
	tipBroken bool
	mu        sync.RWMutex
	arena     *arena // the nodes of every retained version's trees
	trees     [numDBs]ref
	versions  []version // last Retain committed heights, oldest first
	height    uint64
	roots     Roots
	has       bool
	// undoLow is the lowest height that may have an undo record on disk;
	// written only by the committer (and load).
	undoLow uint64
	stalls  atomic.Int64 // Pebble's write stalls (Stats)
	// noUndoLog is set only by BenchmarkUpdates, to measure what the undo
	// log costs a commit against the same in-memory retention without it.
	noUndoLog bool
}

var metaLast = []byte("mlast")

// entryKeyLen is the length of an authenticated entry's Pebble key.
const entryKeyLen = 2 + len(Key{})

func entryKey(db DB, k Key) []byte {
	b := make([]byte, entryKeyLen)
	putEntryKey(b, db, &k)
	return b
}

func putEntryKey(b []byte, db DB, k *Key) {
	b[0], b[1] = 'a', byte(db)
	copy(b[2:], k[:])
}

// maxRetainedBatch: Pebble keeps a closed batch's buffer up to this size
// for the next one, so a block's batch (about 2 MiB for 10,000 updates
// and their undo log) is not allocated afresh for every commit.
const maxRetainedBatch = 16 << 20

// batchSizeHint is about the size of a commit's Pebble batch: the entries
// and, when an undo log is written, its entries, counting each previous
// value as long as the new one (the usual case of an overwrite), before
// deduplication. The batch grows if it is short.
func batchSizeHint(all *[numDBs][]Write, logUndo bool) int {
	const perRecord = 1 + 2*binary.MaxVarintLen32 // kind, key and value lengths
	n := 1 << 10                                  // header, meta, raw writes
	for _, ws := range all {
		for _, w := range ws {
			n += perRecord + entryKeyLen + len(w.Value)
			if logUndo {
				n += 2 + len(Key{}) + binary.MaxVarintLen32 + len(w.Value)
			}
		}
	}
	if logUndo {
		n += perRecord + 9 + undoHeaderSize
	}
	return n
}

func rawKey(k []byte) []byte { return append([]byte{'r'}, k...) }

// memTableSize is Pebble's memtable size. Pebble's default, 4 MiB, makes
// any batch over about 2 MiB "large": it is flushed to its own L0 table at
// once, with the memtable, instead of being inserted. A block of 10,000
// updates with its undo log is about that, so each such commit cost a flush
// and, every few blocks, a compaction of L0 into the whole base level (the
// keys are spread over the key space). With 32 MiB, blocks up to about
// 16 MiB go through the memtable and flushes come every dozen or so such
// blocks. Memory: at most two memtables (Pebble's MemTableStopWritesThreshold),
// 64 MiB. The files on disk are the same kind either way.
const memTableSize = 32 << 20

// pebbleOptions are the store's Pebble options (also BenchmarkBarePebble's,
// so the comparison is like for like).
func pebbleOptions() *pebble.Options {
	return &pebble.Options{Logger: pebblelog.Quiet{}, MemTableSize: memTableSize}
}

// Open opens or creates a store in dir and rebuilds the commitment from
// the committed entries, checking it against the roots recorded with the
// last commit.
func Open(dir string, opts Options) (*Store, error) {
	s := &Store{opts: opts, arena: newArena()}
	po := pebbleOptions()
	po.EventListener = stallCounter(&s.stalls)
	db, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", dir, err)
	}
	if s.opts.Retain <= 0 {
		s.opts.Retain = 256
	}
	s.db = db
	if err := s.load(); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) load() error {
	meta, closer, err := s.db.Get(metaLast)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read last commit: %w", err)
	}
	if len(meta) != 8+3*32 {
		closer.Close()
		return fmt.Errorf("store: last-commit record has %d bytes", len(meta))
	}
	s.height = binary.BigEndian.Uint64(meta)
	copy(s.roots.State[:], meta[8:40])
	copy(s.roots.TxIndex[:], meta[40:72])
	copy(s.roots.TxReceipts[:], meta[72:104])
	s.has = true
	closer.Close()

	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{'a'}, UpperBound: []byte{'b'}})
	if err != nil {
		return fmt.Errorf("store: scan: %w", err)
	}
	defer it.Close()
	var ups [numDBs][]update
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()
		if len(k) != 2+len(Key{}) || k[1] >= byte(numDBs) {
			return fmt.Errorf("store: corrupt entry key %x", k)
		}
		v := append([]byte{}, it.Value()...) // never nil: nil is absence
		ups[k[1]] = append(ups[k[1]], update{path: sum256(k[2:]), vh: sum256(v), value: v})
	}
	if err := it.Error(); err != nil {
		return fmt.Errorf("store: scan: %w", err)
	}
	for db := range ups {
		sortUpdates(ups[db])
		s.trees[db] = s.arena.apply(0, ups[db]).root
	}
	for db := DB(0); db < numDBs; db++ {
		if got := s.arena.hash(s.trees[db]); got != s.roots.of(db) {
			return fmt.Errorf("store: %s rebuilt to root %x but height %d committed %x: the store is corrupt", db, got, s.height, s.roots.of(db))
		}
	}
	if s.undoLow, err = s.lowestUndo(s.height + 1); err != nil {
		return err
	}
	return s.loadVersions()
}

// sortUpdates sorts tree updates by path, the order apply needs. Paths
// are distinct within a batch (dedupe, or distinct keys on disk), so the
// order is total; it sorts small (first 8 path bytes, index) pairs and
// moves each update once, instead of swapping the updates themselves.
func sortUpdates(ups []update) {
	if len(ups) < 2 {
		return
	}
	type pathIdx struct {
		hi uint64
		i  int32
	}
	ord := make([]pathIdx, len(ups))
	for i := range ups {
		ord[i] = pathIdx{binary.BigEndian.Uint64(ups[i].path[:8]), int32(i)}
	}
	slices.SortFunc(ord, func(a, b pathIdx) int {
		if c := cmp.Compare(a.hi, b.hi); c != 0 {
			return c
		}
		if c := bytes.Compare(ups[a.i].path[8:], ups[b.i].path[8:]); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	// Permute in place, one cycle at a time: position j receives
	// ups[ord[j].i]; a done position is marked with i = -1.
	for j := range ord {
		if ord[j].i < 0 || int(ord[j].i) == j {
			continue
		}
		tmp := ups[j]
		k := j
		for {
			from := int(ord[k].i)
			ord[k].i = -1
			if from == j {
				ups[k] = tmp
				break
			}
			ups[k] = ups[from]
			k = from
		}
	}
}

// Close releases the database.
func (s *Store) Close() error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	return s.db.Close()
}

// LastCommitted reports the last committed height and its roots; ok is
// false for an empty store.
func (s *Store) LastCommitted() (height uint64, roots Roots, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.height, s.roots, s.has
}

// Get reads the latest committed value of k in db.
func (s *Store) Get(db DB, k Key) ([]byte, error) { return s.get(entryKey(db, k)) }

// GetRaw reads the raw namespace.
func (s *Store) GetRaw(k []byte) ([]byte, error) { return s.get(rawKey(k)) }

func (s *Store) get(k []byte) ([]byte, error) {
	v, closer, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: get: %w", err)
	}
	out := bytes.Clone(v)
	closer.Close()
	return out, nil
}

// Commit applies one block's writes atomically and returns the new roots.
func (s *Store) Commit(height uint64, b *Batch) (Roots, error) { return s.CommitWith(height, b, nil) }

// CommitWith is Commit where some raw writes depend on the new roots (a
// block header carries its state root): finish is called with the roots
// before anything is written, and its raw writes join the same atomic
// batch. If finish fails nothing is written.
func (s *Store) CommitWith(height uint64, b *Batch, finish func(Roots) ([]RawWrite, error)) (Roots, error) {
	p, err := s.Prepare(height, b, finish)
	if err != nil {
		return Roots{}, err
	}
	return p.Commit()
}

// Prepared is a block's commit computed but not yet written: its trees
// are updated in memory and its Pebble batch is filled, so the next
// block can be prepared on top of it while this one is written and
// synced (the node's block pipeline, docs/architecture.md). Nothing of it
// is visible to readers, on disk or in memory, until Commit returns.
// Every Prepared must be committed, in height order, or discarded.
type Prepared struct {
	s       *Store
	pb      *pebble.Batch
	height  uint64
	trees   [numDBs]ref
	roots   Roots
	undoLow uint64
	changes [numDBs]treeUpdate
}

// tipState is the newest prepared (not yet committed) block's trees:
// what the next Prepare builds on.
type tipState struct {
	trees   [numDBs]ref
	roots   Roots
	height  uint64
	undoLow uint64
}

// Roots are the roots the prepared block commits.
func (p *Prepared) Roots() Roots { return p.roots }

// Prepare computes the commit of height's writes on top of the last
// committed block, or of the last prepared one if any is still waiting
// for its Commit: the trees and roots, the undo log and the Pebble batch.
// finish is as in CommitWith. It writes nothing.
func (s *Store) Prepare(height uint64, b *Batch, finish func(Roots) ([]RawWrite, error)) (*Prepared, error) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	s.mu.RLock()
	base := tipState{trees: s.trees, roots: s.roots, height: s.height, undoLow: s.undoLow}
	has := s.has
	s.mu.RUnlock()
	switch {
	case !s.tipAhead:
		s.tipBroken = false
	case s.tipBroken:
		return nil, fmt.Errorf("store: commit height %d: a block below the prepared height %d failed to commit", height, s.tip.height)
	default:
		base, has = s.tip, true
	}
	if (has && height != base.height+1) || (!has && height != 0) {
		want := uint64(0)
		if has {
			want = base.height + 1
		}
		return nil, fmt.Errorf("store: commit height %d, expected %d", height, want)
	}
	trees, prevRoots := base.trees, base.roots

	// Block h's undo log lets Open rebuild height h-1 from h; it is needed
	// only if h-1 stays provable (undo.go).
	keepFrom := undoWindow(height, s.opts.Retain)
	logUndo := has && height >= keepFrom && !s.noUndoLog
	// The three trees are independent: each is deduplicated and updated on
	// its own goroutine (apply splits a large one further). The Pebble
	// batch is filled here, on one goroutine, in a fixed order, meanwhile:
	// each database's entries as soon as its writes are deduplicated.
	in := [numDBs][]Write{b.State, b.TxIndex, b.TxReceipts}
	var all [numDBs][]Write
	var priors [numDBs][]prior
	var deduped [numDBs]chan struct{}
	var changes [numDBs]treeUpdate
	var wg sync.WaitGroup
	for db := range in {
		deduped[db] = make(chan struct{})
		wg.Add(1)
		go func(db int) {
			defer wg.Done()
			all[db] = dedupe(in[db])
			if logUndo && len(all[db]) > 0 {
				priors[db] = make([]prior, len(all[db]))
			}
			close(deduped[db])
			changes[db] = s.arena.apply(trees[db], updatesOf(all[db], priors[db]))
			trees[db] = changes[db].root
		}(db)
	}
	pb := s.db.NewBatch(pebble.WithInitialSizeBytes(batchSizeHint(&in, logUndo)), pebble.WithMaxRetainedSizeBytes(maxRetainedBatch))
	for db := range all {
		<-deduped[db]
		for _, w := range all[db] {
			var op *pebble.DeferredBatchOp
			if w.Value == nil {
				op = pb.DeleteDeferred(entryKeyLen)
			} else {
				op = pb.SetDeferred(entryKeyLen, len(w.Value))
				copy(op.Value, w.Value)
			}
			putEntryKey(op.Key, DB(db), &w.Key)
			op.Finish()
		}
	}
	wg.Wait()
	// If the block is not prepared, the nodes it made are unreachable.
	prepared := false
	defer func() {
		if !prepared {
			pb.Close()
			for db := range changes {
				s.arena.release(changes[db].created)
			}
		}
	}()
	a := s.arena
	roots := Roots{State: a.hash(trees[StateDB]), TxIndex: a.hash(trees[TxIndexDB]), TxReceipts: a.hash(trees[TxReceiptsDB])}
	raw := b.Raw
	if finish != nil {
		more, err := finish(roots)
		if err != nil {
			return nil, fmt.Errorf("store: commit height %d: %w", height, err)
		}
		raw = append(append([]RawWrite(nil), raw...), more...)
	}
	for _, w := range raw {
		if w.Value == nil {
			pb.Delete(rawKey(w.Key), nil)
		} else {
			pb.Set(rawKey(w.Key), w.Value, nil)
		}
	}
	meta := binary.BigEndian.AppendUint64(nil, height)
	meta = append(append(append(meta, roots.State[:]...), roots.TxIndex[:]...), roots.TxReceipts[:]...)
	pb.Set(metaLast, meta, nil)
	if logUndo {
		// Encoded in place in the batch: its exact size is known.
		size := undoHeaderSize
		for db := range priors {
			size += undoEntriesSize(priors[db])
		}
		op := pb.SetDeferred(len(undoKey(height)), size)
		copy(op.Key, undoKey(height))
		rec := append(op.Value[:0], undoVersion)
		rec = append(append(append(rec, prevRoots.State[:]...), prevRoots.TxIndex[:]...), prevRoots.TxReceipts[:]...)
		for db := range all {
			rec = appendUndoEntries(rec, DB(db), all[db], priors[db])
		}
		if len(rec) != size || &rec[0] != &op.Value[0] {
			panic("store: undo record size")
		}
		op.Finish()
	}
	undoLow := base.undoLow
	pruneUndo(pb, undoLow, keepFrom)
	if undoLow < keepFrom {
		undoLow = keepFrom
	}
	prepared = true
	s.tip = tipState{trees: trees, roots: roots, height: height, undoLow: undoLow}
	s.tipAhead = true
	return &Prepared{s: s, pb: pb, height: height, trees: trees, roots: roots, undoLow: undoLow, changes: changes}, nil
}

// Commit writes the prepared block atomically, synced to disk before it
// returns (unless Options.NoSync), and only then shows it to readers.
// Blocks prepared on top of it may be prepared meanwhile but are
// committed after it. If the write fails, the block is dropped, and so
// is every block prepared on top of it (their Commit fails).
func (p *Prepared) Commit() (Roots, error) {
	s := p.s
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	defer p.pb.Close()
	last, _, has := s.LastCommitted()
	err := error(nil)
	if (has && p.height != last+1) || (!has && p.height != 0) {
		err = fmt.Errorf("store: commit height %d out of order after %d", p.height, last)
	} else {
		sync := pebble.Sync
		if s.opts.NoSync {
			sync = pebble.NoSync
		}
		if err = p.pb.Commit(sync); err != nil {
			err = fmt.Errorf("store: commit height %d: %w", p.height, err)
		}
	}
	if err != nil {
		p.drop()
		return Roots{}, err
	}
	var stale []ref
	for db := range p.changes {
		stale = append(stale, p.changes[db].replaced...)
	}
	s.mu.Lock()
	s.trees, s.height, s.roots, s.has, s.undoLow = p.trees, p.height, p.roots, true, p.undoLow
	s.versions = append(s.versions, version{height: p.height, trees: p.trees, stale: stale})
	s.trimVersions()
	s.mu.Unlock()
	s.commitMu.Lock()
	if s.tip.height == p.height {
		s.tipAhead = false // the next Prepare builds on the committed trees
	}
	s.commitMu.Unlock()
	return p.roots, nil
}

// Discard drops a prepared block that will not be committed (a node
// stopping with a block in its pipeline), and every block prepared on
// top of it.
func (p *Prepared) Discard() {
	p.s.syncMu.Lock()
	defer p.s.syncMu.Unlock()
	p.pb.Close()
	p.drop()
}

// drop frees the nodes only p made and, if p is the newest prepared
// block, moves the tip back to the committed trees. A block prepared on
// top of p reaches p's nodes, but it can never commit now (its height is
// out of order), so they are unreachable from anything that will be read.
func (p *Prepared) drop() {
	s := p.s
	for db := range p.changes {
		s.arena.release(p.changes[db].created)
	}
	s.commitMu.Lock()
	switch {
	case !s.tipAhead:
	case s.tip.height <= p.height:
		s.tipAhead, s.tipBroken = false, false
	default:
		s.tipBroken = true // the blocks above p reach freed nodes
	}
	s.commitMu.Unlock()
}

// trimVersions drops the versions beyond the last Retain and frees the
// nodes that only they reached: those replaced by the block of each
// version that is, or was, the oldest retained one. Called with s.mu held
// for writing, so no proof is walking them.
func (s *Store) trimVersions() {
	drop := max(len(s.versions)-s.opts.Retain, 0)
	for i := 0; i <= drop && i < len(s.versions); i++ {
		s.arena.release(s.versions[i].stale)
		s.versions[i].stale = nil
	}
	if drop > 0 {
		s.versions = append(s.versions[:0:0], s.versions[drop:]...)
	}
}

// updatesOf turns writes into tree updates sorted by path. If priors is
// not nil, apply fills priors[i] with what ws[i]'s key held before.
func updatesOf(ws []Write, priors []prior) []update {
	ups := make([]update, len(ws))
	hash := func(lo, hi int) {
		// Keys, and values of at most 64 bytes, are hashed 16 at a time.
		h := &hasher16{simd: true}
		var ins [][]byte
		var dst []*[32]byte
		for i := lo; i < hi; i++ {
			ins, dst = append(ins, ws[i].Key[:]), append(dst, &ups[i].path)
		}
		h.sums(ins, dst)
		ins, dst = ins[:0], dst[:0]
		for i := lo; i < hi; i++ {
			if priors != nil {
				ups[i].prior = &priors[i]
			}
			switch v := ws[i].Value; {
			case v == nil:
				ups[i].del = true
			case len(v) <= blockSize:
				ins, dst = append(ins, v), append(dst, &ups[i].vh)
			default:
				ups[i].vh = sum256(v)
			}
			if v := ws[i].Value; v != nil {
				ups[i].value = bytes.Clone(v) // the caller may reuse its buffer
			}
		}
		h.sums(ins, dst)
	}
	if len(ws) < parallelMin {
		hash(0, len(ws))
	} else { // two halves on two cores; each index written once
		mid := len(ws) / 2
		done := make(chan struct{})
		go func() { hash(0, mid); close(done) }()
		hash(mid, len(ws))
		<-done
	}
	sortUpdates(ups)
	return ups
}

// dedupe sorts writes by key, keeping the last write of each key, so the
// result never depends on the order the caller produced them in.
func dedupe(ws []Write) []Write {
	if len(ws) == 0 {
		return nil
	}
	idx := make([]int32, len(ws))
	for i := range idx {
		idx[i] = int32(i)
	}
	// By key, then by position: a total order, so the result is that of a
	// stable sort.
	slices.SortFunc(idx, func(a, b int32) int {
		if c := compareKeys(&ws[a].Key, &ws[b].Key); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]Write, 0, len(ws))
	for _, i := range idx {
		if n := len(out); n > 0 && out[n-1].Key == ws[i].Key {
			out[n-1] = ws[i] // later writes come later
			continue
		}
		out = append(out, ws[i])
	}
	return out
}

// compareKeys is bytes.Compare of two keys, 8 bytes at a time.
func compareKeys(a, b *Key) int {
	be := binary.BigEndian
	for i := 0; i+8 <= len(a); i += 8 {
		if c := cmp.Compare(be.Uint64(a[i:]), be.Uint64(b[i:])); c != 0 {
			return c
		}
	}
	return bytes.Compare(a[len(a)/8*8:], b[len(b)/8*8:])
}

// Prove returns a proof for k in db against that database's root at
// height, which must be one of the last Retain committed heights.
func (s *Store) Prove(db DB, k Key, height uint64) (*verifier.Proof, error) {
	p, _, err := s.ProveValue(db, k, height)
	return p, err
}

// ProveValue is Prove that also returns k's value at that height (nil if
// absent), which the latest state may no longer hold.
func (s *Store) ProveValue(db DB, k Key, height uint64) (*verifier.Proof, []byte, error) {
	if db >= numDBs {
		return nil, nil, fmt.Errorf("store: no database %d", db)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.versions) == 0 {
		return nil, nil, errors.New("store: nothing committed yet")
	}
	oldest, newest := s.versions[0].height, s.versions[len(s.versions)-1].height
	if height < oldest || height > newest {
		return nil, nil, fmt.Errorf("%w: height %d (provable heights are %d to %d)", ErrNotRetained, height, oldest, newest)
	}
	v := s.versions[height-oldest]
	p, value := s.arena.prove(v.trees[db], verifier.Path(k[:]))
	return p, bytes.Clone(value), nil
}

// GetAt reads k's value in db as of a retained committed height, from the
// in-memory trees: what Get returned while that height was the newest,
// even after later blocks are committed. A reader that pins a height
// (the node's head, which moves just after the store commits) gets one
// consistent state. Outside the retained heights it returns
// ErrNotRetained; an absent key is ErrNotFound, as for Get.
func (s *Store) GetAt(db DB, k Key, height uint64) ([]byte, error) {
	if db >= numDBs {
		return nil, fmt.Errorf("store: no database %d", db)
	}
	path := verifier.Path(k[:])
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.versions) == 0 || height < s.versions[0].height || height > s.versions[len(s.versions)-1].height {
		return nil, fmt.Errorf("%w: height %d", ErrNotRetained, height)
	}
	n := s.versions[height-s.versions[0].height].trees[db]
	for depth := 0; n != 0 && !n.isLeaf(); depth++ {
		if verifier.Bit(path, depth) == 0 {
			n = s.arena.inode(n).left
		} else {
			n = s.arena.inode(n).right
		}
	}
	if n == 0 || s.arena.leaf(n).path != path {
		return nil, ErrNotFound
	}
	return bytes.Clone(s.arena.value(n)), nil
}

// Root is db's root at a retained height.
func (s *Store) Root(db DB, height uint64) ([32]byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.versions) == 0 || height < s.versions[0].height || height > s.versions[len(s.versions)-1].height {
		return [32]byte{}, fmt.Errorf("%w: height %d", ErrNotRetained, height)
	}
	return s.arena.hash(s.versions[height-s.versions[0].height].trees[db]), nil
}

// ErrNotRetained is returned for a height outside the provable window.
var ErrNotRetained = errors.New("height not retained")
