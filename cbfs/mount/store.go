package mount

import (
	"context"
	"io"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/cluster"
)

// ClusterStore is a volume on relays as a Store: files are put with the
// volume's K, M and segment size.
type ClusterStore struct {
	Cluster *cluster.Cluster
	Volume  *cbfs.Volume
	Params  cbfs.Params
}

// List lists the files the token may read, with their attributes. It
// returns once all relays but the volume's M have answered: every
// manifest is stored on at least M+1 of them.
func (s *ClusterStore) List(ctx context.Context) ([]Entry, error) {
	es, err := s.Cluster.ListQuorum(ctx, s.Volume, s.Params.M)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = Entry{Path: e.Path, Size: e.Size, Attrs: e.Attrs, Dir: e.Dir}
	}
	return out, nil
}

// Stat fetches a file's manifest.
func (s *ClusterStore) Stat(ctx context.Context, path string) (*cbfs.Manifest, error) {
	return s.Cluster.Manifest(ctx, s.Volume, path)
}

// Get fetches and decrypts a file, verifying every shard.
func (s *ClusterStore) Get(ctx context.Context, path string, w io.Writer) (*cbfs.Manifest, error) {
	return s.Cluster.Get(ctx, s.Volume, path, w, nil)
}

// Put encrypts, erasure-codes and uploads a file, replacing any there.
func (s *ClusterStore) Put(ctx context.Context, path string, r io.Reader, at cluster.Attrs) (*cbfs.Manifest, error) {
	return s.Cluster.PutAttrs(ctx, s.Volume, path, s.Params, r, nil, at)
}

// Update rewrites the changed segments of a stored file in place.
func (s *ClusterStore) Update(ctx context.Context, old *cbfs.Manifest, r io.ReaderAt, size uint64, changed func(seg int) bool, at cluster.Attrs) (*cbfs.Manifest, error) {
	return s.Cluster.Update(ctx, s.Volume, old, r, size, changed, at)
}

// Rename moves a stored file to a new path, its shards staying where
// they are (cluster Rename).
func (s *ClusterStore) Rename(ctx context.Context, from, to string) (*cbfs.Manifest, error) {
	return s.Cluster.Rename(ctx, s.Volume, from, to)
}

// Delete removes a file from every relay.
func (s *ClusterStore) Delete(ctx context.Context, path string) error {
	return s.Cluster.Delete(ctx, s.Volume, path)
}

// PutDir stores a directory's attributes in a manifest of its own.
func (s *ClusterStore) PutDir(ctx context.Context, path string, at cluster.Attrs) (*cbfs.Manifest, error) {
	return s.Cluster.PutDir(ctx, s.Volume, path, s.Params, at)
}
