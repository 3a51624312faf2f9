package store

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// PutRaw writes raw keys (Value nil deletes) outside any block commit,
// atomically and synced to disk before it returns (unless Options.NoSync).
// The consensus uses it for the small record a validator must persist
// before it sends a vote. It never touches the authenticated databases or
// the committed height.
func (s *Store) PutRaw(ws []RawWrite) error {
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	pb := s.db.NewBatch()
	defer pb.Close()
	for _, w := range ws {
		if w.Value == nil {
			pb.Delete(rawKey(w.Key), nil)
		} else {
			pb.Set(rawKey(w.Key), w.Value, nil)
		}
	}
	opt := pebble.Sync
	if s.opts.NoSync {
		opt = pebble.NoSync
	}
	if err := pb.Commit(opt); err != nil {
		return fmt.Errorf("store: put raw: %w", err)
	}
	return nil
}
