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

// List lists the files the token may read.
func (s *ClusterStore) List(ctx context.Context) ([]Entry, error) {
	es, err := s.Cluster.List(ctx, s.Volume)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, len(es))
	for i, e := range es {
		out[i] = Entry{Path: e.Path, Size: e.Size}
	}
	return out, nil
}

// Get fetches and decrypts a file, verifying every shard.
func (s *ClusterStore) Get(ctx context.Context, path string, w io.Writer) error {
	_, err := s.Cluster.Get(ctx, s.Volume, path, w, nil)
	return err
}

// Put encrypts, erasure-codes and uploads a file, replacing any there.
func (s *ClusterStore) Put(ctx context.Context, path string, r io.Reader) error {
	_, err := s.Cluster.Put(ctx, s.Volume, path, s.Params, r, nil)
	return err
}

// Delete removes a file from every relay.
func (s *ClusterStore) Delete(ctx context.Context, path string) error {
	return s.Cluster.Delete(ctx, s.Volume, path)
}
