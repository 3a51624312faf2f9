package cluster

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
)

// restart stops relay i and starts it again on its store and address, as
// a relay killed and restarted would come back: what it had received but
// not made durable is gone.
func (tc *testCluster) restart(tb testing.TB, i int) {
	tb.Helper()
	addr := tc.srvs[i].Addr()
	tc.srvs[i].Close()
	srv, err := relay.New(relay.Config{Dir: tc.dirs[i], Listen: addr, Key: tc.keys[i]})
	if err != nil {
		tb.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { srv.Close() })
	tc.srvs[i] = srv
}

// restartFor is restart, and c's client for the relay replaced by a new
// one, as a client that noticed the restart would have.
func (tc *testCluster) restartFor(tb testing.TB, c *Cluster, i int) {
	tb.Helper()
	tc.restart(tb, i)
	id := tc.srvs[i].ID()
	old := c.clients[id]
	cl, err := relay.NewClient(old.Addr(), id, tc.owner)
	if err != nil {
		tb.Fatal(err)
	}
	old.Close()
	c.clients[id] = cl
}

// lose has relays idx drop what they received for the test's file (a
// delete of its path), as a restart would: they stay up and answer its
// barrier "not found".
func (tc *testCluster) lose(tb testing.TB, c *Cluster, idx ...int) {
	tags, _ := tc.vol.PathTags("b/f.bin")
	for _, i := range idx {
		if err := c.clients[tc.srvs[i].ID()].Delete(context.Background(), c.auth(tc.vol.ID, tags)); err != nil {
			tb.Fatal(err)
		}
	}
}

// kill stops relay i and closes c's connection to it.
func (tc *testCluster) kill(c *Cluster, i int) {
	tc.srvs[i].Close()
	c.clients[tc.srvs[i].ID()].Close()
}

// TestPutBarrier: a put's shards count as stored only once their relay's
// durability barrier succeeded. A relay that restarts or dies after
// receiving its shards and before the barrier makes the put rebuild them
// and place them again (every shard the manifest names is then held: a
// repair finds nothing to do and the file reads back), or, with no relay
// left to take them, fail without storing a manifest. Barriers run once
// per relay at the end of a small put, and after every segment when
// ackEvery is one byte.
func TestPutBarrier(t *testing.T) {
	p := cbfs.Params{K: 4, M: 2, SegmentSize: 4 * cbfs.MinSegmentSize}
	data := randData(3*p.SegmentSize - 5) // three segments
	cases := []struct {
		name      string
		relays    int
		every     int
		stop      func(tc *testCluster, c *Cluster) // before the last barriers
		fails     bool
		tooFew    bool  // it fails for want of K durable shards
		barriers  int64 // per relay that is never stopped (-1: not checked)
		notPlaced int   // a relay that must not be in the manifest (-1: none)
	}{
		{name: "no failure", relays: 6, barriers: 1, notPlaced: -1},
		{name: "a barrier per segment", relays: 6, every: 1, barriers: 3, notPlaced: -1},
		// The relay restarts and the client reconnects: the relay no
		// longer has the shards it received, the barrier says so, and they
		// are placed again, durably, on the same relay (no other is left).
		// Two relays (M) lose them: each segment keeps exactly K durable
		// shards, enough to rebuild the other two.
		{name: "two relays lost the shards", relays: 6, stop: func(tc *testCluster, c *Cluster) { tc.lose(t, c, 0, 1) }, barriers: -1, notPlaced: -1},
		// Three relays lose them: fewer than K are left, the put fails.
		{name: "three relays lost the shards", relays: 6, stop: func(tc *testCluster, c *Cluster) { tc.lose(t, c, 0, 1, 2) }, fails: true, tooFew: true, barriers: -1},
		{name: "relay restarted", relays: 6, stop: func(tc *testCluster, c *Cluster) { tc.restartFor(t, c, 0) }, barriers: -1, notPlaced: -1},
		// The relay is gone: its barrier fails on the transport (the
		// client's connection is closed too, so it sees that at once, not
		// at the idle timeout), and the shards go to the spare relay, or
		// the put fails.
		{name: "relay dead, spare relay", relays: 7, stop: func(tc *testCluster, c *Cluster) { tc.kill(c, 0) }, barriers: -1, notPlaced: 0},
		{name: "relay dead, no spare", relays: 6, stop: func(tc *testCluster, c *Cluster) { tc.kill(c, 0) }, fails: true, barriers: -1},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			tc := newTestCluster(t, tt.relays)
			c := tc.client(t)
			c.ackEvery = tt.every
			if tt.stop != nil {
				c.beforeAck = func() { tt.stop(tc, c) }
			}
			ctx := context.Background()
			m, err := c.Put(ctx, tc.vol, "b/f.bin", p, bytes.NewReader(data), nil)
			if tt.fails {
				if err == nil {
					t.Fatal("the put succeeded with a relay's shards never made durable and nowhere to place them")
				}
				if errors.Is(err, errTooFewDurable) != tt.tooFew {
					t.Fatalf("put failed with %v; want errTooFewDurable: %v", err, tt.tooFew)
				}
				c.beforeAck = nil
				if _, err := c.Manifest(ctx, tc.vol, "b/f.bin"); err == nil {
					t.Fatal("a failed put stored its manifest")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.notPlaced >= 0 {
				for i, s := range m.Segments {
					for j, id := range s.Relays {
						if id == tc.srvs[tt.notPlaced].ID() {
							t.Fatalf("segment %d shard %d placed on the dead relay", i, j)
						}
					}
				}
			}
			// Every shard the manifest names is held where it says.
			rep, err := c.Repair(ctx, tc.vol, "b/f.bin", int(p.M))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Degraded != 0 || rep.Rebuilt != 0 {
				t.Fatalf("after the put a repair found %d degraded segments (%d shards rebuilt)", rep.Degraded, rep.Rebuilt)
			}
			var out bytes.Buffer
			if _, err := c.Get(ctx, tc.vol, "b/f.bin", &out, nil); err != nil || !bytes.Equal(out.Bytes(), data) {
				t.Fatalf("read back: %v", err)
			}
			if tt.barriers >= 0 {
				for i, srv := range tc.srvs {
					if n := srv.Barriers.Load(); n != tt.barriers {
						t.Fatalf("relay %d ran %d barriers, want %d", i, n, tt.barriers)
					}
				}
			}
		})
	}
}

// TestPutBarrierEvery: a put asks for barriers as soon as ackEvery shard
// bytes have been received since the last ones, not only past it: with
// ackEvery at exactly one segment's shard bytes, a file of two full
// segments gets a barrier after each segment on every relay (and none is
// left for the end).
func TestPutBarrierEvery(t *testing.T) {
	p := cbfs.Params{K: 4, M: 2, SegmentSize: 4 * cbfs.MinSegmentSize}
	data := randData(2 * p.SegmentSize)
	tc := newTestCluster(t, 6)
	c := tc.client(t)
	ctx := context.Background()
	m, err := c.Put(ctx, tc.vol, "shape.bin", p, bytes.NewReader(data[:p.SegmentSize]), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.ackEvery = int(m.K+m.M) * m.ShardLen(0)
	before := make([]int64, len(tc.srvs))
	for i, srv := range tc.srvs {
		before[i] = srv.Barriers.Load()
	}
	if _, err := c.Put(ctx, tc.vol, "two.bin", p, bytes.NewReader(data), nil); err != nil {
		t.Fatal(err)
	}
	for i, srv := range tc.srvs {
		if n := srv.Barriers.Load() - before[i]; n != 2 {
			t.Fatalf("relay %d ran %d barriers for two segments, want 2", i, n)
		}
	}
}
