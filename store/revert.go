package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// RevertTo rewinds the store to target, one of the retained heights: the
// devnet's dev_revert. It walks the undo records of heights head … target+1
// (undo.go), newest first, and writes what each key held before each
// block; a key several blocks changed ends with the value of the oldest
// record, what it held at target. In the same synced Pebble batch it
// deletes those undo records, records target as the last commit with the
// roots the record of target+1 carries, and applies raw (the caller's
// block bodies and index entries above target, to delete). A crash
// therefore leaves either the old head or target, never a mix, and the
// result survives a restart.
//
// The in-memory trees are then rebuilt from disk, as Open does, and
// checked against the recorded roots, so the retained versions below
// target stay provable. That costs a scan of the entries: fine for a
// devnet, which is the only caller.
func (s *Store) RevertTo(target uint64, raw []RawWrite) (Roots, error) {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	if s.tipAhead {
		return Roots{}, fmt.Errorf("store: revert to %d while block %d is prepared and not committed", target, s.tip.height)
	}
	s.mu.RLock()
	head, has := s.height, s.has
	oldest := uint64(0)
	var wantRoots Roots
	inWindow := len(s.versions) > 0 && target >= s.versions[0].height && target <= head
	if inWindow {
		oldest = s.versions[0].height
		v := s.versions[target-oldest]
		wantRoots = Roots{State: s.arena.hash(v.trees[StateDB]), TxIndex: s.arena.hash(v.trees[TxIndexDB]), TxReceipts: s.arena.hash(v.trees[TxReceiptsDB])}
	} else if len(s.versions) > 0 {
		oldest = s.versions[0].height
	}
	s.mu.RUnlock()
	if !has {
		return Roots{}, errors.New("store: revert: nothing committed yet")
	}
	if !inWindow {
		return Roots{}, fmt.Errorf("store: revert to height %d: %w (retained heights are %d to %d)", target, ErrNotRetained, oldest, head)
	}
	if target == head {
		return wantRoots, nil
	}
	pb := s.db.NewBatch()
	defer pb.Close()
	var roots Roots
	for h := head; h > target; h-- {
		v, closer, err := s.db.Get(undoKey(h))
		if err != nil {
			return Roots{}, fmt.Errorf("store: revert: read undo log of height %d: %w", h, err)
		}
		rec := append([]byte(nil), v...)
		closer.Close()
		roots, err = walkUndo(rec, func(db DB, key []byte, present bool, value []byte) {
			ek := make([]byte, entryKeyLen)
			ek[0], ek[1] = 'a', byte(db)
			copy(ek[2:], key)
			if present {
				pb.Set(ek, value, nil)
			} else {
				pb.Delete(ek, nil)
			}
		})
		if err != nil {
			return Roots{}, fmt.Errorf("store: revert: undo log of height %d: %w", h, err)
		}
		pb.Delete(undoKey(h), nil)
	}
	if roots != wantRoots {
		return Roots{}, fmt.Errorf("store: revert: the undo log of height %d records roots %x but the retained tree of height %d has %x: the store is corrupt", target+1, roots.State, target, wantRoots.State)
	}
	for _, w := range raw {
		if w.Value == nil {
			pb.Delete(rawKey(w.Key), nil)
		} else {
			pb.Set(rawKey(w.Key), w.Value, nil)
		}
	}
	meta := binary.BigEndian.AppendUint64(nil, target)
	meta = append(append(append(meta, roots.State[:]...), roots.TxIndex[:]...), roots.TxReceipts[:]...)
	pb.Set(metaLast, meta, nil)
	if err := pb.Commit(pebble.Sync); err != nil {
		return Roots{}, fmt.Errorf("store: revert to height %d: %w", target, err)
	}
	// Rebuild the trees from what is now on disk, as Open would.
	fresh := &Store{db: s.db, opts: s.opts, arena: newArena()}
	if err := fresh.load(); err != nil {
		return Roots{}, fmt.Errorf("store: revert to height %d: reload: %w", target, err)
	}
	s.mu.Lock()
	s.arena, s.trees, s.versions = fresh.arena, fresh.trees, fresh.versions
	s.height, s.roots, s.has, s.undoLow = fresh.height, fresh.roots, fresh.has, fresh.undoLow
	s.mu.Unlock()
	return roots, nil
}

// walkUndo calls fn for each entry of an undo record, in record order, and
// returns the roots below the block. Values alias rec.
func walkUndo(rec []byte, fn func(db DB, key []byte, present bool, value []byte)) (Roots, error) {
	var roots Roots
	if len(rec) < undoHeaderSize || rec[0] != undoVersion {
		return roots, fmt.Errorf("%w: bad header", errUndoMalformed)
	}
	copy(roots.State[:], rec[1:33])
	copy(roots.TxIndex[:], rec[33:65])
	copy(roots.TxReceipts[:], rec[65:97])
	rest := rec[undoHeaderSize:]
	for len(rest) > 0 {
		if len(rest) < 2+len(Key{}) {
			return roots, fmt.Errorf("%w: truncated entry", errUndoMalformed)
		}
		db, key, flag := DB(rest[0]), rest[1:1+len(Key{})], rest[1+len(Key{})]
		rest = rest[2+len(Key{}):]
		if db >= numDBs {
			return roots, fmt.Errorf("%w: database %d", errUndoMalformed, db)
		}
		switch flag {
		case 0:
			fn(db, key, false, nil)
		case 1:
			n, used := binary.Uvarint(rest)
			if used <= 0 || n > uint64(len(rest)-used) {
				return roots, fmt.Errorf("%w: value length", errUndoMalformed)
			}
			fn(db, key, true, rest[used:used+int(n):used+int(n)])
			rest = rest[used+int(n):]
		default:
			return roots, fmt.Errorf("%w: presence flag %d", errUndoMalformed, flag)
		}
	}
	return roots, nil
}
