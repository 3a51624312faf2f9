package relay

import (
	"bytes"
	"context"
	"testing"
)

// TestLinkedShardsCountOnce links a file's shards under a second path
// (a rename before its old path is deleted) and checks the usage: the
// shard bytes count once (the link adds only the index entries, less
// than the bytes), deleting either path first keeps them counted, and
// deleting both frees everything. The relay's capacity check and billing
// read this usage.
func TestLinkedShardsCountOnce(t *testing.T) {
	tests := []struct {
		name        string
		deleteFirst string
	}{
		{"old path deleted first", "a/old"},
		{"new path deleted first", "b/new"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Limits{})
			ctx := context.Background()
			m, shards := f.encodeFile(t, "a/old", bytes.Repeat([]byte("usage "), 40000))
			from, to := f.auth(t, "a/old"), f.auth(t, "b/new")
			var shardBytes uint64
			for k, s := range shards {
				if err := f.cli.PutShard(ctx, putReq(from, m, k[0], k[1]), s); err != nil {
					t.Fatal(err)
				}
				shardBytes += uint64(len(s))
			}
			used := f.srv.stat().Used
			if used < shardBytes {
				t.Fatalf("usage %d below the %d shard bytes held", used, shardBytes)
			}
			if err := f.cli.Link(ctx, from, to); err != nil {
				t.Fatal(err)
			}
			linked := f.srv.stat().Used
			if linked <= used || linked-used >= shardBytes {
				t.Fatalf("usage after link %d (was %d): the %d shard bytes counted twice, or the index entries not at all", linked, used, shardBytes)
			}
			first, second := from, to
			if tt.deleteFirst == "b/new" {
				first, second = to, from
			}
			if err := f.cli.Delete(ctx, first); err != nil {
				t.Fatal(err)
			}
			if got := f.srv.stat().Used; got != used {
				t.Fatalf("usage after deleting %s: %d, want %d", tt.deleteFirst, got, used)
			}
			for k, s := range shards {
				if got, err := f.cli.GetShard(ctx, second, m.Segments[k[0]].Hashes[k[1]]); err != nil || !bytes.Equal(got, s) {
					t.Fatalf("shard %v under the path kept: %v", k, err)
				}
			}
			if err := f.cli.Delete(ctx, second); err != nil {
				t.Fatal(err)
			}
			if got := f.srv.stat().Used; got != 0 {
				t.Fatalf("usage after deleting both paths: %d, want 0", got)
			}
		})
	}
}
