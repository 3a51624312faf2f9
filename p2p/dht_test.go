package p2p

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

func idWith(b ...byte) (id PeerID) {
	copy(id[:], b)
	return id
}

func TestRoutingTable(t *testing.T) {
	self := idWith(0x80)
	r := newRoutingTable(self)
	cases := []struct {
		id     PeerID
		bucket int
	}{
		{idWith(0x00), 0},
		{idWith(0xc0), 1},
		{idWith(0x81), 7},
		{idWith(0x80, 0x01), 15},
		{self, idBits},
	}
	for _, c := range cases {
		if got := r.bucketOf(c.id); got != c.bucket {
			t.Errorf("bucket of %x = %d, want %d", c.id[:2], got, c.bucket)
		}
	}
	// A full bucket drops its least recently seen entry.
	for i := 0; i < kBucket+5; i++ {
		r.seen(idWith(0x00, byte(i)), fmt.Sprintf("10.0.0.1:%d", i))
	}
	r.seen(self, "10.0.0.9:1") // never itself
	r.seen(idWith(0xff), "")   // never without an address
	if n := r.size(); n != kBucket {
		t.Fatalf("table holds %d, want %d", n, kBucket)
	}
	got := r.closest(idWith(0x00, 24), 3, PeerID{})
	want := []byte{24, 16, 17} // entries 5..24 remain; XOR distances 0, 8, 9
	for i, e := range got {
		if e.ID[1] != want[i] {
			t.Fatalf("closest to 00 18: %x %x %x", got[0].ID[:2], got[1].ID[:2], got[2].ID[:2])
		}
	}
	if got := r.closest(idWith(0x00, 24), 30, idWith(0x00, 24)); len(got) != kBucket-1 {
		t.Fatalf("closest skipping one: %d entries", len(got))
	}
	if got := r.closest(idWith(0x00, 0), 30, PeerID{}); got[0].ID != idWith(0x00, 5) {
		t.Fatalf("evicted entries remain: nearest is %x", got[0].ID[:2])
	}
}

func TestDHTFrames(t *testing.T) {
	lim := DefaultLimits()
	key := mustKey(t)
	nodes := make([]nodeEntry, kBucket)
	for i := range nodes {
		nodes[i] = nodeEntry{Rec: signRecord(key, fmt.Sprintf("127.0.0.1:%d", 1000+i), uint64(i)), Observed: "10.0.0.1:1"}
	}
	for _, f := range []*frame{
		{kind: kindFindNode, target: idWith(1, 2, 3)},
		{kind: kindNodes, nodes: nodes},
		{kind: kindNodes, nodes: []nodeEntry{}},
		{kind: kindRecord, record: signRecord(key, "[::]:7", 9)},
	} {
		b := encodeFrame(f)
		got, err := readFrame(bytes.NewReader(b), &lim, nil)
		if err != nil {
			t.Fatalf("%s: %v", frameName(f.kind, 0), err)
		}
		if !bytes.Equal(encodeFrame(got), b) {
			t.Fatalf("%s does not round-trip", frameName(f.kind, 0))
		}
	}
	trailing := encodeFrame(&frame{kind: kindNodes, nodes: nodes[:1]})
	trailing[5]++ // one byte more announced than the list has
	rec := encodeFrame(&frame{kind: kindRecord, record: nodes[0].Rec})
	shortRec := append([]byte(nil), rec[:len(rec)-1]...)
	shortRec[5]--
	bad := [][]byte{
		append([]byte{byte(kindFindNode), 0, 0, 0, 0, 19}, make([]byte, 19)...), // short target
		append([]byte{byte(kindFindNode), 1, 0, 0, 0, 20}, make([]byte, 20)...), // a topic
		encodeFrame(&frame{kind: kindNodes, nodes: append(nodes, nodes[0])}),    // over k
		append(trailing, 0), // trailing byte after the list
		shortRec,            // address cut short
		append(header(kindRecord, 0, 10), make([]byte, 10)...),                      // not even a signature
		append(header(kindNodes, 0, 30), append([]byte{1}, make([]byte, 29)...)...), // entry cut in its record
	}
	for i, b := range bad {
		if _, err := readFrame(bytes.NewReader(b), &lim, nil); err == nil {
			t.Errorf("bad frame %d accepted", i)
		}
	}
}

// TestDHTMeshes20Nodes: twenty nodes on loopback, peer exchange off, each
// starting from one bootstrap node, end fully meshed through DHT lookups
// alone.
func TestDHTMeshes20Nodes(t *testing.T) {
	const n = 20
	mod := func(c *Config) {
		c.NoPex = true
		c.DHTInterval = 100 * time.Millisecond
		c.PexInterval = time.Hour
	}
	boot := startHost(t, mod)
	hosts := []*Host{boot}
	for i := 1; i < n; i++ {
		hosts = append(hosts, startHost(t, func(c *Config) {
			mod(c)
			c.Bootstrap = []string{boot.Addr()}
		}))
	}
	start := time.Now()
	waitFor(t, 60*time.Second, "a full mesh by DHT", func() bool {
		for _, h := range hosts {
			if len(h.Peers()) != n-1 {
				return false
			}
		}
		return true
	})
	t.Logf("20 nodes fully meshed in %v", time.Since(start).Round(time.Millisecond))
	for i, h := range hosts {
		if h.DHTSize() < n-1 {
			t.Errorf("node %d: %d peers in its DHT table", i, h.DHTSize())
		}
	}
}
