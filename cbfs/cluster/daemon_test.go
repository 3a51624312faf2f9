package cluster

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
)

// TestRepairDaemon stores two files on six of eight relays, stops two of
// the six, and runs the repair daemon: its first pass rebuilds the lost
// shards onto the spare relays, the next finds nothing to do, and then
// both files read back intact with two more relays gone.
func TestRepairDaemon(t *testing.T) {
	tc := newTestCluster(t, 8)
	ctx := context.Background()
	first, _ := New(tc.infos[:6], tc.owner, tc.tok)
	files := map[string][]byte{"a": randData(300_000), "dir/b": randData(70_000)}
	for p, d := range files {
		if _, err := first.Put(ctx, tc.vol, p, cbfs.Params{K: 4, M: 2, SegmentSize: cbfs.MinSegmentSize}, bytes.NewReader(d), nil); err != nil {
			t.Fatal(err)
		}
	}
	first.Close()
	tc.srvs[1].Close()
	tc.srvs[4].Close()

	c := tc.client(t)
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	passes := make(chan VolumeRepair)
	errs := make(chan error, 1)
	go c.RepairDaemon(dctx, tc.vol, -1, time.Millisecond, func(s VolumeRepair, err error) {
		if err != nil {
			errs <- err
			return
		}
		select {
		case passes <- s:
		case <-dctx.Done():
		}
	})
	next := func() VolumeRepair {
		select {
		case s := <-passes:
			return s
		case err := <-errs:
			t.Fatalf("repair pass: %v", err)
		}
		return VolumeRepair{}
	}
	p1 := next()
	if p1.Files != 2 || p1.Rebuilt == 0 || p1.Degraded == 0 || p1.Lost != 0 || len(p1.Failed) != 0 {
		t.Fatalf("first pass %+v", p1)
	}
	if p2 := next(); p2.Files != 2 || p2.Rebuilt != 0 || p2.Degraded != 0 || len(p2.Failed) != 0 {
		t.Fatalf("second pass %+v: the first did not restore K+M", p2)
	}
	cancel()

	// Full redundancy again: two more relays may go.
	tc.srvs[0].Close()
	tc.srvs[6].Close()
	r := tc.client(t)
	for p, d := range files {
		var out bytes.Buffer
		if _, err := r.Get(ctx, tc.vol, p, &out, nil); err != nil || !bytes.Equal(out.Bytes(), d) {
			t.Fatalf("get %s after repair: %v", p, err)
		}
	}
}
