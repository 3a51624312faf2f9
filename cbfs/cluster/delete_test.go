package cluster

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestDeleteWithRelaysRefusing: Delete succeeds while any relay takes it
// (one that refuses is not an error then), and fails only when none does.
// The relays refuse because the token was revoked on them: they answer at
// once, where a relay that is gone costs a dial timeout.
func TestDeleteWithRelaysRefusing(t *testing.T) {
	for _, tt := range []struct {
		name    string
		refuse  []int
		wantErr bool
	}{
		{"every relay takes it", nil, false},
		{"one of three refuses", []int{1}, false},
		{"every relay refuses", []int{0, 1, 2}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tc := newTestCluster(t, 3)
			c := tc.client(t)
			ctx := context.Background()
			if _, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 1, M: 1, SegmentSize: 4096}, bytes.NewReader(randData(300)), nil); err != nil {
				t.Fatal(err)
			}
			id, err := tc.tok.Links[0].ID()
			if err != nil {
				t.Fatal(err)
			}
			rev, err := cbfs.Revoke(tc.owner, "v", id, uint64(time.Now().Add(time.Hour).Unix()))
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range tt.refuse {
				if err := c.clients[tc.infos[i].ID].Revoke(ctx, rev); err != nil {
					t.Fatal(err)
				}
			}
			err = c.Delete(ctx, tc.vol, "f")
			if (err != nil) != tt.wantErr {
				t.Fatalf("delete: %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

// TestRepairLostAndRebuilt: in one repair, a segment below K healthy
// shards is reported lost (the error says how many are healthy and how
// many it needs) while another segment is still rebuilt and the new
// manifest stored.
func TestRepairLostAndRebuilt(t *testing.T) {
	tc := newTestCluster(t, 5)
	c := tc.client(t)
	ctx := context.Background()
	m, err := c.Put(ctx, tc.vol, "two", cbfs.Params{K: 2, M: 2, SegmentSize: 4096}, bytes.NewReader(randData(6000)), nil)
	if err != nil || len(m.Segments) != 2 {
		t.Fatalf("put: %v, %d segments", err, len(m.Segments))
	}
	tags, _ := tc.vol.PathTags("two")
	a := c.auth(tc.vol.ID, tags)
	for si, drop := range []int{3, 1} {
		s := m.Segments[si]
		for j := 0; j < drop; j++ {
			if err := c.clients[s.Relays[j]].DropShards(ctx, a, []cbfs.ShardHash{s.Hashes[j]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rep, err := c.Repair(ctx, tc.vol, "two", 2)
	if err == nil || !strings.Contains(err.Error(), "segment 0 has 1 healthy shards, needs 2") {
		t.Fatalf("repair: %v, want segment 0 lost", err)
	}
	if rep.Lost != 1 || rep.Rebuilt != 1 || rep.Seq != 1 {
		t.Fatalf("report %+v, want 1 lost, 1 rebuilt, sequence 1", rep)
	}
	if after, err := c.Manifest(ctx, tc.vol, "two"); err != nil || after.Seq != 1 {
		t.Fatalf("manifest after repair: %+v %v", after, err)
	}
}
