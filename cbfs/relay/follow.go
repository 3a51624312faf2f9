package relay

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// ChainRevocation is a token link revoked on chain by the volume's owner
// (Storage Manager 0x0A "revoke"); the chain checked the owner, so a relay
// applies it without a signature.
type ChainRevocation struct {
	Volume cbfs.VolumeID
	Link   [32]byte
	Expiry uint64
}

// ChainEvents is what a relay follows on chain: token revocations and
// volumes evicted for unpaid rent (Storage Manager "evict").
type ChainEvents struct {
	Revocations []ChainRevocation
	Evictions   []cbfs.VolumeID
}

// ChainSource reads the events recorded on chain in blocks from and
// later: it returns them and the last height it covered (below from when
// the chain has no new block yet).
type ChainSource interface {
	Events(ctx context.Context, from uint64) (ChainEvents, uint64, error)
}

// ChainCursor is the last chain height whose revocations this relay has
// applied (0 before the first sync).
func (s *Server) ChainCursor() (uint64, error) {
	v, closer, err := s.db.Get(key(pfxCursor))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("relay: read chain cursor: %w", err)
	}
	defer closer.Close()
	if len(v) != 8 {
		return 0, errors.New("relay: chain cursor is not 8 bytes")
	}
	return binary.BigEndian.Uint64(v), nil
}

// SyncChain applies every revocation and eviction recorded on chain
// since the cursor and moves the cursor (kept on disk, so a restarted
// relay resumes where it stopped and a relay that was down catches up).
// It returns how many events it applied.
func (s *Server) SyncChain(ctx context.Context, src ChainSource) (int, error) {
	cur, err := s.ChainCursor()
	if err != nil {
		return 0, err
	}
	evs, to, err := src.Events(ctx, cur+1)
	if err != nil {
		return 0, fmt.Errorf("relay: read events from the chain: %w", err)
	}
	for _, r := range evs.Revocations {
		if err := s.addRevocation(r.Volume, r.Link, r.Expiry); err != nil {
			return 0, err
		}
	}
	for _, v := range evs.Evictions {
		if err := s.dropVolume(v); err != nil {
			return 0, err
		}
	}
	n := len(evs.Revocations) + len(evs.Evictions)
	if to <= cur {
		return n, nil
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], to)
	if err := s.db.Set(key(pfxCursor), b[:], pebble.Sync); err != nil {
		return 0, fmt.Errorf("relay: store chain cursor: %w", err)
	}
	return n, nil
}

// dropVolume deletes every shard, manifest and path of an evicted volume
// and its usage.
func (s *Server) dropVolume(vol cbfs.VolumeID) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	for _, p := range []byte{pfxShard, pfxMeta, pfxManifest, pfxPath} {
		lo := key(p, vol[:])
		if err := b.DeleteRange(lo, prefixEnd(lo), nil); err != nil {
			return fmt.Errorf("relay: drop volume: %w", err)
		}
	}
	s.addUsage(b, vol, -int64(s.volUsed[vol]))
	b.Delete(key(pfxUsage, vol[:]), nil)
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: drop volume: %w", err)
	}
	delete(s.volUsed, vol)
	if err := s.files.removeVolume(vol); err != nil {
		return fmt.Errorf("relay: drop volume files: %w", err)
	}
	return nil
}

// prefixEnd is the first key after every key that starts with p.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil // all 0xff: no upper bound
}

// FollowChain syncs every interval until ctx ends, so a revocation on
// chain reaches this relay within one interval of its block (plus the
// node's own lag): the bounded delay docs/cbfs.md states. Errors (a node
// down) are logged and retried at the next tick.
func (s *Server) FollowChain(ctx context.Context, src ChainSource, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.SyncChain(ctx, src); err != nil {
			s.log.Warn("follow the chain", "err", err)
		} else if n > 0 {
			s.log.Info("events from the chain", "n", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
