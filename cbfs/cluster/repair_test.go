package cluster

import (
	"bytes"
	"context"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestReplaceAfterRepair replaces a file whose manifest a repair moved to
// sequence 1: the old version is deleted first, so the new one (sequence
// 0) is stored.
func TestReplaceAfterRepair(t *testing.T) {
	tc := newTestCluster(t, 8)
	ctx := context.Background()
	c, _ := New(tc.infos[:6], tc.owner, tc.tok)
	if _, err := c.Put(ctx, tc.vol, "f", cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(randData(50000)), nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	tc.srvs[0].Close()
	tc.srvs[2].Close()
	c2 := tc.client(t)
	if rep, err := c2.Repair(ctx, tc.vol, "f", 2); err != nil || rep.Rebuilt == 0 {
		t.Fatalf("repair %+v %v", rep, err)
	}
	small := []byte("replaced after repair")
	if _, err := c2.Put(ctx, tc.vol, "f", cbfs.Params{K: 2, M: 1, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(small), nil); err != nil {
		t.Fatalf("replace a repaired file: %v", err)
	}
	var out bytes.Buffer
	if _, err := c2.Get(ctx, tc.vol, "f", &out, nil); err != nil || !bytes.Equal(out.Bytes(), small) {
		t.Fatalf("get: %v", err)
	}
}
