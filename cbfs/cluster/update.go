package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// Attrs are the file attributes a manifest keeps (for the FUSE mount):
// permission bits and modification time (unix nanoseconds); zero is "not
// recorded".
type Attrs struct {
	Mode    uint32
	ModTime int64
}

// Update rewrites the file described by old in place: segments that
// changed (changed(i), or whose length changes with the new size, or that
// are new) are sealed again under a fresh generation and placed; the
// others keep their shards where they are. Then every relay gets the
// proofs against the new root, the manifest is stored with its sequence
// increased, and the replaced segments' old shards are dropped. The file
// keeps its FileID, shape and path. r holds the whole new contents (size
// bytes). With nothing changed it only records new attributes.
func (c *Cluster) Update(ctx context.Context, v *cbfs.Volume, old *cbfs.Manifest, r io.ReaderAt, size uint64, changed func(seg int) bool, at Attrs) (*cbfs.Manifest, error) {
	if old.Volume != v.ID {
		return nil, errors.New("cluster: update: manifest of another volume")
	}
	tags, err := v.PathTags(old.Path)
	if err != nil {
		return nil, err
	}
	a := c.auth(v.ID, tags)
	p := old.Params()
	m := &cbfs.Manifest{Version: old.Version, Volume: old.Volume, File: old.File, Path: old.Path, Size: size,
		K: old.K, M: old.M, SegSize: old.SegSize, Seq: old.Seq + 1, Mode: at.Mode, ModTime: at.ModTime}
	n := 1
	if size > 0 {
		n = int((size + uint64(old.SegSize) - 1) / uint64(old.SegSize))
	}
	all := make([]int, p.K+p.M)
	for j := range all {
		all[j] = j
	}
	drop := map[cbfs.RelayID][]cbfs.ShardHash{} // old shards, once the new manifest is stored
	dropSeg := func(s cbfs.Segment) {
		for j, id := range s.Relays {
			drop[id] = append(drop[id], s.Hashes[j])
		}
	}
	var fresh []cbfs.Segment // placed by this update: dropped again if it fails
	failed := func(err error) (*cbfs.Manifest, error) {
		for _, s := range fresh {
			for j, id := range s.Relays {
				c.call(id, func(cl *relay.Client) error { return cl.DropShards(ctx, a, []cbfs.ShardHash{s.Hashes[j]}) })
			}
		}
		return nil, err
	}
	for i := 0; i < n; i++ {
		m.Segments = append(m.Segments, cbfs.Segment{}) // SegmentLen needs m.Size only
		ln := m.SegmentLen(i)
		if i < len(old.Segments) && !changed(i) && old.SegmentLen(i) == ln {
			s := old.Segments[i]
			m.Segments[i] = cbfs.Segment{Hashes: append([]cbfs.ShardHash(nil), s.Hashes...), Relays: append([]cbfs.RelayID(nil), s.Relays...), Gen: s.Gen}
			continue
		}
		plain := make([]byte, ln)
		if k, err := r.ReadAt(plain, int64(i)*int64(old.SegSize)); k < ln {
			return failed(fmt.Errorf("cluster: update %s: read segment %d: %d of %d bytes: %v", old.Path, i, k, ln, err))
		}
		gen, err := cbfs.NewSegmentGen()
		if err != nil {
			return failed(err)
		}
		e, err := cbfs.EncodeSegment(v, p, old.File, i, gen, plain)
		if err != nil {
			return failed(err)
		}
		placed, err := c.placeSegment(ctx, a, Rank(segmentSeed(old.File, i), c.relays), e.Shards, e.Hashes, map[cbfs.RelayID]bool{}, all, nil)
		if err != nil {
			return failed(fmt.Errorf("cluster: update %s: place segment %d: %w", old.Path, i, err))
		}
		s := cbfs.Segment{Hashes: e.Hashes, Relays: make([]cbfs.RelayID, len(all)), Gen: gen}
		for j := range all {
			s.Relays[j] = placed[j]
		}
		m.Segments[i] = s
		fresh = append(fresh, s)
		if i < len(old.Segments) {
			dropSeg(old.Segments[i])
		}
	}
	for i := n; i < len(old.Segments); i++ {
		dropSeg(old.Segments[i])
	}
	if err := m.Validate(); err != nil {
		return failed(err)
	}
	if len(fresh) > 0 || m.Root() != old.Root() {
		if err := c.putProofs(ctx, a, m); err != nil {
			return failed(err)
		}
	}
	if err := c.putManifest(ctx, v, tags, m); err != nil {
		return failed(err)
	}
	// The new manifest is stored: the replaced shards are garbage. A relay
	// that misses this keeps them until the file is deleted (and bills
	// them), so failures here do not fail the update.
	for id, hs := range drop {
		c.call(id, func(cl *relay.Client) error { return cl.DropShards(ctx, a, hs) })
	}
	return m, nil
}
