package cluster

import (
	"bytes"
	"context"
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
