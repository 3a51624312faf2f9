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
// permission bits, modification and access times (unix nanoseconds) and
// owner; zero (nil owner) is "not recorded".
type Attrs struct {
	Mode    uint32
	ModTime int64
	ATime   int64
	Owner   *cbfs.Owner
}

// AttrsOf reads the attributes a manifest keeps.
func AttrsOf(m *cbfs.Manifest) Attrs {
	return Attrs{Mode: m.Mode, ModTime: m.ModTime, ATime: m.ATime, Owner: m.Owner}
}

// set records at in m.
func (at Attrs) set(m *cbfs.Manifest) {
	m.Mode, m.ModTime, m.ATime, m.Owner = at.Mode, at.ModTime, at.ATime, at.Owner
}

// PutDir stores the attributes of the directory at path as a manifest
// with no contents (Dir set), replacing any manifest there; its sequence
// is above the old one's. The mount keeps directory modes, times and
// owners, and empty directories, this way. p gives the copies kept
// (K+M relays, at least M+1).
func (c *Cluster) PutDir(ctx context.Context, v *cbfs.Volume, path string, p cbfs.Params, at Attrs) (*cbfs.Manifest, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	tags, err := v.PathTags(path)
	if err != nil {
		return nil, err
	}
	clean, err := cbfs.CleanPath(path)
	if err != nil {
		return nil, err
	}
	var seq uint64
	if old, err := c.Manifest(ctx, v, path); err == nil {
		seq = old.Seq + 1
		if !old.Dir {
			// A file there goes with its shards, as a Put replaces one.
			if err := c.Delete(ctx, v, path); err != nil {
				return nil, fmt.Errorf("cluster: directory %s: replace file: %w", path, err)
			}
		}
	}
	fid, err := cbfs.NewFileID()
	if err != nil {
		return nil, err
	}
	m := &cbfs.Manifest{Version: cbfs.ManifestVersion, Volume: v.ID, File: fid, Path: clean,
		K: uint8(p.K), M: uint8(p.M), SegSize: uint32(p.SegmentSize), Seq: seq, Dir: true}
	at.set(m)
	if err := c.putManifest(ctx, v, tags, m); err != nil {
		return nil, fmt.Errorf("cluster: directory %s: %w", path, err)
	}
	return m, nil
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
		K: old.K, M: old.M, SegSize: old.SegSize, Seq: old.Seq + 1}
	at.set(m)
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

// Rename moves the file at from to the path to without moving its
// shards: the relays holding them link them under the new path, the
// manifest is sealed again for the new path (the segment keys derive from
// the FileID, index and generation, never the path, so the ciphertext
// stays valid and nothing is encrypted twice under one key), then the old
// path is deleted. A file at to is replaced, as by Put, and the new
// manifest's sequence is above both old ones. Each step leaves a readable
// file: a crash before the manifest is stored leaves the old file and
// unreferenced links; one after it leaves the file under both paths.
func (c *Cluster) Rename(ctx context.Context, v *cbfs.Volume, from, to string) (*cbfs.Manifest, error) {
	fromTags, err := v.PathTags(from)
	if err != nil {
		return nil, err
	}
	toTags, err := v.PathTags(to)
	if err != nil {
		return nil, err
	}
	clean, err := cbfs.CleanPath(to)
	if err != nil {
		return nil, err
	}
	if fromTags[len(fromTags)-1] == toTags[len(toTags)-1] {
		return nil, fmt.Errorf("cluster: rename %s to itself", from)
	}
	old, err := c.Manifest(ctx, v, from)
	if err != nil {
		return nil, fmt.Errorf("cluster: rename %s: %w", from, err)
	}
	seq := old.Seq + 1
	if tgt, err := c.Manifest(ctx, v, to); err == nil {
		seq = max(seq, tgt.Seq+1)
		if err := c.Delete(ctx, v, to); err != nil {
			return nil, fmt.Errorf("cluster: rename: replace %s: %w", to, err)
		}
	}
	fa, ta := c.auth(v.ID, fromTags), c.auth(v.ID, toTags)
	holders := map[cbfs.RelayID]bool{}
	for _, s := range old.Segments {
		for _, id := range s.Relays {
			holders[id] = true
		}
	}
	// Every relay holding a shard must link it: one that cannot would
	// lose its shards with the old path.
	var errs []error
	for _, r := range c.relays {
		if !holders[r.ID] {
			continue
		}
		if err := c.callMaybeDown(r.ID, true, func(cl *relay.Client) error { return cl.Link(ctx, fa, ta) }); err != nil {
			errs = append(errs, fmt.Errorf("0x%x: %w", r.ID[:4], err))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("cluster: rename %s: link shards: %w", from, errors.Join(errs...))
	}
	m := *old
	m.Path, m.Seq = clean, seq
	if err := c.putManifest(ctx, v, toTags, &m); err != nil {
		return nil, fmt.Errorf("cluster: rename %s: %w", from, err)
	}
	if err := c.Delete(ctx, v, from); err != nil {
		return nil, fmt.Errorf("cluster: rename: remove %s: %w", from, err)
	}
	return &m, nil
}
