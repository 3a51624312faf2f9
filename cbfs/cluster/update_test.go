package cluster

import (
	"bytes"
	"context"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// TestUpdateRewritesOnlyChangedSegments: an overwrite inside one segment,
// an append, a truncate and an attribute change each rewrite only the
// segments they touch (under a new generation, so no segment key is used
// twice), keep the FileID and the other segments' shards, drop the
// replaced shards from the relays, and leave a file that reads back and
// passes an audit against its new root.
func TestUpdateRewritesOnlyChangedSegments(t *testing.T) {
	tc := newTestCluster(t, 6)
	c := tc.client(t)
	ctx := context.Background()
	seg := cbfs.MinSegmentSize
	p := cbfs.Params{K: 4, M: 2, SegmentSize: seg}
	data := randData(4*seg + 100) // 5 segments, the last short
	m0, err := c.PutAttrs(ctx, tc.vol, "u.bin", p, bytes.NewReader(data), nil, Attrs{Mode: 0o640, ModTime: 1e18})
	if err != nil {
		t.Fatal(err)
	}
	auth := func() relay.Auth {
		tags, _ := tc.vol.PathTags("u.bin")
		return c.auth(tc.vol.ID, tags)
	}
	held := func(s cbfs.Segment) int {
		n := 0
		for j, id := range s.Relays {
			have, err := c.clients[id].Has(ctx, auth(), []cbfs.ShardHash{s.Hashes[j]})
			if err == nil && have[0] {
				n++
			}
		}
		return n
	}
	cases := []struct {
		name    string
		edit    func([]byte) []byte
		changed []int // segments the caller says it wrote
		rewrote []int // segments that must get new shards
		attrs   Attrs
	}{
		{"overwrite in segment 2", func(b []byte) []byte { copy(b[2*seg+10:], "XYZ"); return b }, []int{2}, []int{2}, Attrs{Mode: 0o640, ModTime: 1e18}},
		{"append into a new segment", func(b []byte) []byte { return append(b, randData(seg)...) }, []int{4, 5}, []int{4, 5}, Attrs{Mode: 0o640, ModTime: 2e18}},
		{"truncate into segment 1", func(b []byte) []byte { return b[:seg+7] }, nil, []int{1}, Attrs{Mode: 0o600, ModTime: 2e18}},
		{"attributes only", func(b []byte) []byte { return b }, nil, nil, Attrs{Mode: 0o444, ModTime: 3e18}},
		{"truncate to zero", func(b []byte) []byte { return b[:0] }, nil, []int{0}, Attrs{Mode: 0o444, ModTime: 3e18}},
	}
	old := m0
	for _, tt := range cases {
		data = tt.edit(bytes.Clone(data))
		m, err := c.Update(ctx, tc.vol, old, bytes.NewReader(data), uint64(len(data)), func(i int) bool {
			for _, x := range tt.changed {
				if x == i {
					return true
				}
			}
			return false
		}, tt.attrs)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.File != m0.File || m.Seq != old.Seq+1 || m.Mode != tt.attrs.Mode || m.ModTime != tt.attrs.ModTime {
			t.Fatalf("%s: manifest %+v", tt.name, m)
		}
		for i, s := range m.Segments {
			rewritten := false
			for _, x := range tt.rewrote {
				rewritten = rewritten || x == i
			}
			kept := i < len(old.Segments) && s.Gen == old.Segments[i].Gen && s.Hashes[0] == old.Segments[i].Hashes[0]
			if rewritten == kept {
				t.Fatalf("%s: segment %d rewritten=%v, kept=%v", tt.name, i, rewritten, kept)
			}
			if rewritten && i < len(old.Segments) {
				if n := held(old.Segments[i]); n != 0 {
					t.Fatalf("%s: %d old shards of segment %d still held", tt.name, n, i)
				}
			}
		}
		for i := len(m.Segments); i < len(old.Segments); i++ {
			if n := held(old.Segments[i]); n != 0 {
				t.Fatalf("%s: %d shards of cut segment %d still held", tt.name, n, i)
			}
		}
		var out bytes.Buffer
		got, err := c.Get(ctx, tc.vol, "u.bin", &out, nil)
		if err != nil || !bytes.Equal(out.Bytes(), data) || got.Seq != m.Seq {
			t.Fatalf("%s: read back: %v", tt.name, err)
		}
		if bad, err := c.Audit(ctx, tc.vol, "u.bin", 3); err != nil || len(bad) != 0 {
			t.Fatalf("%s: audit: %v %v", tt.name, bad, err)
		}
		ents, err := c.List(ctx, tc.vol)
		if err != nil || len(ents) != 1 || ents[0].Attrs != tt.attrs || ents[0].Size != uint64(len(data)) {
			t.Fatalf("%s: list %+v %v", tt.name, ents, err)
		}
		old = m
	}
}
