package relay

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// Deferred puts and the durability barrier (docs/decisions.md, "CBFS:
// shards acknowledged by a durability barrier").
//
// A put with PutShardReq.Defer is answered once the shard's bytes are
// checked against their hash and written to their file, without an fsync
// of the file or its directory and without an index entry: the relay has
// received it, not stored it. OpSyncShards then makes every named shard
// of one path durable at once (an fsync per file, one of the directory),
// commits their index entries in one batch with one WAL sync, and only
// then answers. The index entry is what Has, challenges, proofs, links
// and the startup sweep go by, so the rule of the synchronous put holds
// for both: a shard with an index entry is durable. A shard received but
// not yet synced lives only in the relay's memory (Server.deferred): if
// the relay stops, the barrier that names it finds it neither pending nor
// held and answers StatusNotFound, the writer treats it as lost, and the
// file left on disk has no index entry, so the startup sweep removes it.

// MaxSyncShards is the most shards one barrier names: their hashes
// (about 33 bytes each in CBOR) fit in a request header (MaxHeaderBytes)
// with room for the token.
const MaxSyncShards = 1024

// deferredShard is one shard received with Defer and not yet synced.
type deferredShard struct {
	vol  cbfs.VolumeID
	pid  cbfs.Tag
	hash cbfs.ShardHash
	meta []byte // the shardMeta to commit once durable
	size uint64 // bytes counted against the capacity (data and meta)
	at   time.Time
}

// deferredTTL is how long a received shard waits for its barrier before
// the relay drops it (a writer that died mid-put): writers send barriers
// every few hundred MiB, seconds apart.
const deferredTTL = 10 * time.Minute

// putDeferred stores a received shard without making it durable (see
// above). A shard held durably already, or received already and waiting
// for its barrier, is answered at once.
func (s *Server) putDeferred(d *deferredShard, mk, data []byte) error {
	now := s.cfg.Now()
	s.mu.Lock()
	s.expireDeferred(now)
	if _, ok := s.deferred[string(mk)]; ok || s.held(mk) {
		s.mu.Unlock()
		return nil
	}
	if s.used+s.pending+d.size > s.lim.Capacity {
		s.mu.Unlock()
		return fail(StatusFull, "relay full: %d of %d bytes used", s.used, s.lim.Capacity)
	}
	// Reserved before the write, so a second put of the same shard does
	// not write it again; dropped if the write fails.
	d.at = now
	s.deferred[string(mk)] = d
	s.pending += d.size
	s.mu.Unlock()

	if err := s.files.store(d.vol, d.pid, d.hash, data, false); err != nil {
		s.mu.Lock()
		s.dropDeferred(mk, d)
		s.mu.Unlock()
		return err
	}
	return nil
}

// dropDeferred forgets a received shard (if mk still names d) and gives
// back its reserved bytes; its file, if any, is left to a later put or
// the startup sweep. Called with s.mu held.
func (s *Server) dropDeferred(mk []byte, d *deferredShard) {
	if s.deferred[string(mk)] != d {
		return
	}
	delete(s.deferred, string(mk))
	s.pending -= d.size
}

// expireDeferred drops the received shards older than deferredTTL and
// removes their files. Called with s.mu held.
func (s *Server) expireDeferred(now time.Time) {
	for k, d := range s.deferred {
		if now.Sub(d.at) > deferredTTL {
			s.dropDeferred([]byte(k), d)
			os.Remove(s.files.path(d.vol, d.pid, d.hash))
		}
	}
}

// syncShards is the barrier: every named shard of the request's path is
// made durable and indexed, or the request fails. A shard that is held
// already counts as done; one neither held nor received (never sent, or
// sent before the relay restarted, or dropped) fails the whole request
// with StatusNotFound, and so does one whose file a delete removed.
func (s *Server) syncShards(r *ShardReq, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	vol, pid := r.Auth.Vol, r.Auth.Tags[len(r.Auth.Tags)-1]
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	type item struct {
		mk []byte
		d  *deferredShard
	}
	var todo []item
	seen := map[string]bool{}
	s.mu.Lock()
	for _, h := range r.Hashes {
		mk := key(pfxMeta, vol[:], pid[:], h[:])
		if seen[string(mk)] {
			continue
		}
		seen[string(mk)] = true
		if d, ok := s.deferred[string(mk)]; ok {
			todo = append(todo, item{mk, d})
			continue
		}
		if !s.held(mk) {
			s.mu.Unlock()
			return fail(StatusNotFound, "shard %x was not received (or the relay restarted since)", h[:8])
		}
	}
	s.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}

	// The files' bytes, sizes and extents, then their names (one
	// directory: one path). A failed fsync leaves the file's state unknown,
	// so every shard of this barrier is dropped: the writer places them
	// again.
	paths := make([]string, len(todo))
	for n, it := range todo {
		paths[n] = s.files.path(vol, pid, it.d.hash)
	}
	err := syncFiles(paths, s.files.pathDir(vol, pid))
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		for _, it := range todo {
			s.dropDeferred(it.mk, it.d)
		}
		if os.IsNotExist(err) {
			// A delete of the path removed the files meanwhile.
			return fail(StatusNotFound, "shards deleted before they were synced")
		}
		return fmt.Errorf("relay: sync shards: %w", err)
	}
	for _, it := range todo {
		// Dropped meanwhile (expired), or its file removed by a delete of
		// the path that ran after the fsync: not stored.
		if s.deferred[string(it.mk)] != it.d || !s.files.exists(vol, pid, it.d.hash) {
			for _, it := range todo {
				s.dropDeferred(it.mk, it.d)
			}
			return fail(StatusNotFound, "shard %x was dropped or deleted before it was synced", it.d.hash[:8])
		}
	}
	b := s.db.NewBatch()
	defer b.Close()
	for _, it := range todo {
		b.Set(it.mk, it.d.meta, nil)
		s.addUsage(b, vol, int64(it.d.size))
	}
	// Committed with the lock held (usage values are absolute); the WAL
	// sync covers every earlier NoSync commit as well.
	cerr := b.Commit(pebble.Sync)
	for _, it := range todo {
		s.dropDeferred(it.mk, it.d)
	}
	if cerr != nil {
		return fmt.Errorf("relay: store shard meta: %w", cerr)
	}
	s.PutShards.Add(int64(len(todo)))
	s.Barriers.Add(1)
	return nil
}

// syncFiles fsyncs each of paths, then dir (which holds their names).
func syncFiles(paths []string, dir string) error {
	for _, p := range paths {
		if err := syncFile(p); err != nil {
			return err
		}
	}
	return syncDir(dir)
}

// SyncShards asks the relay to make the named shards of a's path, put
// with PutShardReq.Defer, durable: nil means every one of them is held
// durably and indexed; any error means none may be counted on.
func (c *Client) SyncShards(ctx context.Context, a Auth, hashes []cbfs.ShardHash) error {
	_, _, err := c.Call(ctx, OpSyncShards, &ShardReq{Auth: a, Hashes: hashes}, nil)
	return err
}
