package relay

import (
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

// RevocationSource reads the revocations recorded on chain in blocks
// from and later: it returns them and the last height it covered (below
// from when the chain has no new block yet).
type RevocationSource interface {
	Revocations(ctx context.Context, from uint64) ([]ChainRevocation, uint64, error)
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

// SyncRevocations applies every revocation recorded on chain since the
// cursor and moves the cursor (kept on disk, so a restarted relay resumes
// where it stopped and a relay that was down catches up).
func (s *Server) SyncRevocations(ctx context.Context, src RevocationSource) (int, error) {
	cur, err := s.ChainCursor()
	if err != nil {
		return 0, err
	}
	revs, to, err := src.Revocations(ctx, cur+1)
	if err != nil {
		return 0, fmt.Errorf("relay: read revocations from the chain: %w", err)
	}
	for _, r := range revs {
		if err := s.addRevocation(r.Volume, r.Link, r.Expiry); err != nil {
			return 0, err
		}
	}
	if to <= cur {
		return len(revs), nil
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], to)
	if err := s.db.Set(key(pfxCursor), b[:], pebble.Sync); err != nil {
		return 0, fmt.Errorf("relay: store chain cursor: %w", err)
	}
	return len(revs), nil
}

// FollowRevocations syncs every interval until ctx ends, so a revocation
// on chain reaches this relay within one interval of its block (plus the
// node's own lag): the bounded delay docs/cbfs.md states. Errors (a node
// down) are logged and retried at the next tick.
func (s *Server) FollowRevocations(ctx context.Context, src RevocationSource, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := s.SyncRevocations(ctx, src); err != nil {
			s.log.Warn("follow revocations", "err", err)
		} else if n > 0 {
			s.log.Info("revocations from the chain", "n", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
