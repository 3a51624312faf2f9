package relay

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
)

// TestPrefixEnd checks the exclusive upper bound of a key prefix that
// dropVolume deletes up to: the last byte below 0xff raised by one and
// the 0xff bytes after it cut, or no bound when every byte is 0xff.
func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		p, want []byte
	}{
		{[]byte{1, 2}, []byte{1, 3}},
		{[]byte{1, 0xff}, []byte{2}},
		{[]byte{1, 0xfe, 0xff, 0xff}, []byte{1, 0xff}},
		{[]byte{0xfe}, []byte{0xff}},
		{[]byte{0xff, 0xff}, nil},
	} {
		if got := prefixEnd(tc.p); !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("prefixEnd(%x) = %x, want %x", tc.p, got, tc.want)
		}
	}
}

// TestFrameCapsAtTheirEdges checks readFrameInto accepts a header of
// exactly MaxHeaderBytes and data of exactly the kind's cap, and refuses
// one byte more of either with ErrBadFrame.
func TestFrameCapsAtTheirEdges(t *testing.T) {
	const dataCap = 10
	frame := func(hdrLen, dataLen int) []byte {
		var b bytes.Buffer
		b.WriteByte(7)
		binary.Write(&b, binary.BigEndian, uint32(hdrLen))
		b.Write(make([]byte, hdrLen))
		binary.Write(&b, binary.BigEndian, uint32(dataLen))
		b.Write(bytes.Repeat([]byte{0xab}, dataLen))
		return b.Bytes()
	}
	for _, tc := range []struct {
		name            string
		hdrLen, dataLen int
		ok              bool
	}{
		{"header and data at their caps", MaxHeaderBytes, dataCap, true},
		{"header one past its cap", MaxHeaderBytes + 1, 0, false},
		{"data one past its cap", 0, dataCap + 1, false},
	} {
		kind, hdr, data, err := readFrameInto(bytes.NewReader(frame(tc.hdrLen, tc.dataLen)), nil, 4, func(uint8) int { return dataCap })
		if !tc.ok {
			if !errors.Is(err, ErrBadFrame) {
				t.Errorf("%s: err = %v, want ErrBadFrame", tc.name, err)
			}
			continue
		}
		if err != nil || kind != 7 || len(hdr) != tc.hdrLen || !bytes.Equal(data, bytes.Repeat([]byte{0xab}, tc.dataLen)) {
			t.Errorf("%s: kind %d, %d header bytes, data %x, err %v", tc.name, kind, len(hdr), data, err)
		}
	}
}

// TestClientChecksRelayIdentity checks the client's TLS check of the
// relay's node key: a client told to expect another relay refuses the
// connection, and one told the right relay learns its proven ID.
func TestClientChecksRelayIdentity(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	// Any request connects first; the relay may refuse the empty Auth.
	_, _ = f.cli.Has(ctx, Auth{}, nil)
	if got := f.cli.ID(); got != f.srv.ID() {
		t.Fatalf("client's relay ID %x, want %x", got, f.srv.ID())
	}
	other := f.srv.ID()
	other[0] ^= 1
	cli, err := NewClient(f.srv.Addr(), other, f.owner)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.Has(ctx, Auth{}, nil); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Fatalf("a client expecting another relay: %v", err)
	}
}

// TestHasAnswersPerHash checks Has answers one bool per hash asked, false
// for a shard the relay does not hold.
func TestHasAnswersPerHash(t *testing.T) {
	f := newFixture(t, Limits{})
	got, err := f.cli.Has(context.Background(), f.auth(t, "a.txt"), []cbfs.ShardHash{{1}, {2}})
	if err != nil || len(got) != 2 || got[0] || got[1] {
		t.Fatalf("Has of two unknown shards = %v, %v; want [false false]", got, err)
	}
}

// TestTransportConfig checks the QUIC settings both ends use against the
// reasons they have: a whole frame of the largest shard fits a stream's
// window and four fit the connection's; the client notices a relay killed
// without closing within 10 s and keeps a live idle connection open with
// keep-alives well inside its idle timeout; the server drops an idle
// connection but never sends keep-alives of its own.
func TestTransportConfig(t *testing.T) {
	frame := uint64(MaxShardBytes + MaxHeaderBytes)
	for _, c := range []struct {
		name            string
		handshake, idle time.Duration
		keepAlive       time.Duration
	}{
		{"client", dialTimeout, clientIdleTimeout, clientKeepAlive},
		{"server", serverHandshakeTimeout, serverIdleTimeout, 0},
	} {
		qc := transportConfig(c.handshake, c.idle, c.keepAlive)
		if qc.HandshakeIdleTimeout != c.handshake || qc.MaxIdleTimeout != c.idle || qc.KeepAlivePeriod != c.keepAlive {
			t.Errorf("%s: timeouts %v/%v/%v, want %v/%v/%v", c.name, qc.HandshakeIdleTimeout, qc.MaxIdleTimeout, qc.KeepAlivePeriod, c.handshake, c.idle, c.keepAlive)
		}
		if qc.MaxStreamReceiveWindow < frame || qc.MaxConnectionReceiveWindow < 4*frame {
			t.Errorf("%s: windows %d/%d cannot hold a %d-byte frame per stream and four per connection", c.name, qc.MaxStreamReceiveWindow, qc.MaxConnectionReceiveWindow, frame)
		}
		if qc.InitialStreamReceiveWindow > qc.MaxStreamReceiveWindow || qc.InitialConnectionReceiveWindow > qc.MaxConnectionReceiveWindow ||
			qc.InitialStreamReceiveWindow > qc.InitialConnectionReceiveWindow {
			t.Errorf("%s: initial windows %d/%d out of order with the maxima", c.name, qc.InitialStreamReceiveWindow, qc.InitialConnectionReceiveWindow)
		}
	}
	if clientIdleTimeout <= 0 || clientIdleTimeout > 10*time.Second {
		t.Errorf("client idle timeout %v: a relay killed with kill -9 must be noticed within 10 s", clientIdleTimeout)
	}
	if clientKeepAlive <= 0 || 2*clientKeepAlive > clientIdleTimeout {
		t.Errorf("client keep-alive %v against idle timeout %v: want at least two keep-alives per idle period", clientKeepAlive, clientIdleTimeout)
	}
	if serverIdleTimeout < clientIdleTimeout || serverHandshakeTimeout <= 0 {
		t.Errorf("server timeouts %v/%v: the server must not drop a client that keeps its connection alive", serverHandshakeTimeout, serverIdleTimeout)
	}
}

// TestListPages stores three files on a relay whose listing pages hold
// one manifest each: List must follow the pages to the last, in order,
// and each page but the last must say More.
func TestListPages(t *testing.T) {
	f := newFixture(t, Limits{ListPageBytes: 1})
	ctx := context.Background()
	paths := []string{"a.txt", "b.txt", "c.txt"}
	for _, p := range paths {
		if err := f.storeOne(t, p, []byte("data of "+p), 0); err != nil {
			t.Fatal(err)
		}
	}
	ents, err := f.cli.List(ctx, Auth{Token: f.tok, Vol: f.vol.ID})
	if err != nil || len(ents) != len(paths) {
		t.Fatalf("List over one-manifest pages = %d entries, %v; want %d", len(ents), err, len(paths))
	}
	seen := map[string]bool{}
	for _, e := range ents {
		m, err := f.vol.OpenManifest(e.Sealed, e.Tags[len(e.Tags)-1])
		if err != nil {
			t.Fatal(err)
		}
		seen[m.Path] = true
	}
	for _, p := range paths {
		if !seen[p] {
			t.Errorf("List missed %s", p)
		}
	}
	// Page by page on the server: one entry each, More on all but the last.
	var after cbfs.Tag
	for i := range paths {
		r, err := f.srv.list(&ListReq{Auth: Auth{Token: f.tok, Vol: f.vol.ID}, After: after}, f.owner.Address())
		if err != nil || len(r.Entries) != 1 || r.More != (i < len(paths)-1) {
			t.Fatalf("page %d: %d entries, More %v, %v", i, len(r.Entries), r.More, err)
		}
		tags := r.Entries[0].Tags
		after = tags[len(tags)-1]
	}
}

// TestLimitsWithDefaults: every zero field of Limits takes its default,
// every set field is kept, and the byte burst is never below one frame of
// the largest shard (a smaller one would refuse every full-size put).
func TestLimitsWithDefaults(t *testing.T) {
	frame := MaxShardBytes + MaxHeaderBytes
	set := Limits{Capacity: 1, MaxConns: 2, MaxStreams: 3, ReqsPerSec: 4, ReqBurst: 5,
		BytesPerSec: 6, ByteBurst: frame + 7, RequestTimeout: 8, ListPageBytes: 9}
	d := DefaultLimits()
	d.ByteBurst = max(d.ByteBurst, frame)
	lowBurst := set
	lowBurst.ByteBurst = 1
	wantLow := set
	wantLow.ByteBurst = frame
	for _, c := range []struct {
		name     string
		in, want Limits
	}{
		{"all zero: the defaults", Limits{}, d},
		{"all set: kept", set, set},
		{"a byte burst below one frame is raised to it", lowBurst, wantLow},
	} {
		if got := c.in.withDefaults(); got != c.want {
			t.Errorf("%s: withDefaults(%+v) = %+v, want %+v", c.name, c.in, got, c.want)
		}
	}
}

// TestGrowth pins readInto's growth: first, then doubling, and the whole
// rest when it is at most a quarter more than the step; a peer announcing
// n bytes makes the relay hold memory for what it sent, not for n.
func TestGrowth(t *testing.T) {
	for _, c := range []struct{ have, c, n, first, want int }{
		{0, 0, 1000, 100, 100},    // the first step, not the announced 1,000
		{0, 0, 125, 100, 125},     // the rest is exactly a quarter more: all of it
		{0, 0, 126, 100, 100},     // a byte more: the step
		{0, 0, 120, 100, 120},     // within the quarter
		{0, 0, 40, 100, 40},       // less than the first step
		{100, 100, 1000, 10, 100}, // doubling: as much as the buffer holds
		{100, 100, 150, 64, 50},   // the rest, counted from what is held
		{100, 100, 225, 64, 125},  // the rest at exactly a quarter more than the held 100
		{200, 256, 1000, 64, 256}, // the step is the capacity, not the length
	} {
		if got := growth(c.have, c.c, c.n, c.first); got != c.want {
			t.Errorf("growth(have %d, cap %d, n %d, first %d) = %d, want %d", c.have, c.c, c.n, c.first, got, c.want)
		}
	}
	// readInto itself: a reader that sends 1,000 announced bytes in small
	// pieces gets them all, and one that stops early is an error.
	data := bytes.Repeat([]byte{7}, 1000)
	got, err := readInto(iotest.OneByteReader(bytes.NewReader(data)), nil, len(data), 64)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("readInto = %d bytes, %v", len(got), err)
	}
	if _, err := readInto(bytes.NewReader(data[:10]), nil, len(data), 64); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("short read: %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestPoolable: only buffers from 64 KiB to a default segment (and an
// O_DIRECT block) go back to the pool.
func TestPoolable(t *testing.T) {
	for _, c := range []struct {
		c    int
		want bool
	}{{0, false}, {64<<10 - 1, false}, {64 << 10, true}, {8<<20 + 64<<10, true}, {8<<20 + 64<<10 + 1, false}, {MaxShardBytes, false}} {
		if got := poolable(c.c); got != c.want {
			t.Errorf("poolable(%d) = %v, want %v", c.c, got, c.want)
		}
	}
}

// TestBufPool: a buffer given back is handed out again, empty, and
// survives a collection (a sync.Pool would drop it); the pool keeps at
// most bufKeep buffers and none it may not keep (poolable).
func TestBufPool(t *testing.T) {
	for getBuf() != nil { // empty it
	}
	big := make([]byte, 100, 64<<10)
	putBuf(big)
	runtime.GC()
	runtime.GC()
	b := getBuf()
	if len(b) != 0 || cap(b) != cap(big) || &b[:1][0] != &big[0] {
		t.Fatalf("getBuf after putBuf: len %d cap %d, want the buffer given back, empty", len(b), cap(b))
	}
	if getBuf() != nil {
		t.Fatal("one buffer given back, two handed out")
	}
	putBuf(make([]byte, 64<<10-1))
	if getBuf() != nil {
		t.Fatal("a buffer too small to pool came back")
	}
	for i := 0; i < bufKeep+3; i++ {
		putBuf(make([]byte, 0, 64<<10))
	}
	n := 0
	for getBuf() != nil {
		n++
	}
	if n != bufKeep {
		t.Fatalf("the pool kept %d buffers, want %d", n, bufKeep)
	}
}

// TestBucket: a token bucket refills rate per second up to burst, spends
// exactly what is left, and refuses (spending nothing) beyond it.
func TestBucket(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	b := &bucket{rate: 10, burst: 20, tokens: 0, last: t0}
	steps := []struct {
		at   time.Duration
		n    float64
		ok   bool
		left float64
	}{
		{0, 1, false, 0},                         // empty
		{time.Second, 10, true, 0},               // refilled 10, all spent: exactly what is left
		{time.Second, 0.5, false, 0},             // no time passed: nothing new
		{3 * time.Second, 15, true, 5},           // refilled 20 (capped at burst), not 20+
		{3500 * time.Millisecond, 11, false, 10}, // 5 + 0.5 s × 10 = 10 < 11: refused, nothing spent
		{3500 * time.Millisecond, 10, true, 0},
	}
	for i, s := range steps {
		if ok := b.take(s.n, t0.Add(s.at)); ok != s.ok || b.tokens != s.left {
			t.Fatalf("step %d: take(%v) at +%v = %v with %v left, want %v with %v", i, s.n, s.at, ok, b.tokens, s.ok, s.left)
		}
	}
}

// TestServerQUICConfig: the listener takes MaxStreams requests at once per
// connection and no unidirectional streams.
func TestServerQUICConfig(t *testing.T) {
	s := &Server{lim: Limits{MaxStreams: 7}.withDefaults()}
	qc := s.quicConfig()
	if qc.MaxIncomingStreams != 7 || qc.MaxIncomingUniStreams >= 0 || qc.MaxIdleTimeout != serverIdleTimeout || qc.KeepAlivePeriod != 0 {
		t.Fatalf("server QUIC config: streams %d, uni %d, idle %v, keep-alive %v", qc.MaxIncomingStreams, qc.MaxIncomingUniStreams, qc.MaxIdleTimeout, qc.KeepAlivePeriod)
	}
}

// TestHashBatchBound: Has and DropShards take at most 4,096 hashes. A
// frame's 64 KiB header cap holds fewer, so the handler's own bound is
// checked below the wire.
func TestHashBatchBound(t *testing.T) {
	f := newFixture(t, Limits{})
	a := f.auth(t, "a.txt")
	for _, op := range []Op{OpHas, OpDropShards} {
		for _, c := range []struct {
			n  int
			ok bool
		}{{4096, true}, {4097, false}} {
			hdr, err := cbfs.Marshal(&ShardReq{Auth: a, Hashes: make([]cbfs.ShardHash, c.n)})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = f.srv.handle(op, hdr, nil, f.owner.Address())
			if (err == nil) != c.ok {
				t.Errorf("op %d with %d hashes: %v; want ok=%v", op, c.n, err, c.ok)
			}
		}
	}
}

// TestRevocationsPrunedAtLoad: a reopened relay keeps the revocations of
// links that have not expired and drops (from memory and disk) those whose
// link expired, at or before now (a link is refused at its expiry).
func TestRevocationsPrunedAtLoad(t *testing.T) {
	dir := t.TempDir()
	nodeKey, _ := crypto.GenerateKey()
	now := time.Unix(2_000_000_000, 0)
	open := func() *Server {
		srv, err := New(Config{Dir: dir, Listen: "127.0.0.1:0", Key: nodeKey, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	srv := open()
	vol := cbfs.VolumeID{9}
	exp := map[byte]uint64{1: uint64(now.Unix()) - 1, 2: uint64(now.Unix()), 3: uint64(now.Unix()) + 1}
	for id := byte(1); id <= 3; id++ {
		if err := srv.addRevocation(vol, [32]byte{id}, exp[id]); err != nil {
			t.Fatal(err)
		}
	}
	srv.Close()
	srv = open()
	defer srv.Close()
	for id, want := range map[byte]bool{1: false, 2: false, 3: true} {
		if got := srv.isRevoked(vol, [32]byte{id}); got != want {
			t.Errorf("link %d (expiry now%+d) revoked after reopen = %v, want %v", id, int64(exp[id])-now.Unix(), got, want)
		}
	}
	if n := len(srv.revoked); n != 1 {
		t.Errorf("%d revocations held, want 1", n)
	}
}

// TestMaxConns: a relay with MaxConns 1 serves one client, refuses a
// second while the first is connected, and serves a new one once the
// first has gone (the count goes back down).
func TestMaxConns(t *testing.T) {
	f := newFixture(t, Limits{MaxConns: 1})
	ctx := context.Background()
	if _, err := f.cli.Stat(ctx); err != nil {
		t.Fatalf("first client: %v", err)
	}
	second, err := NewClient(f.srv.Addr(), f.srv.ID(), f.owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := second.Stat(ctx); err == nil {
		t.Fatal("a second connection was served beyond MaxConns 1")
	}
	second.Close()
	f.cli.Close()
	// The server sees the first connection close some time later: wait
	// for a new client to be served, within a deadline.
	deadline := time.Now().Add(30 * time.Second)
	for {
		third, err := NewClient(f.srv.Addr(), f.srv.ID(), f.owner)
		if err != nil {
			t.Fatal(err)
		}
		_, err = third.Stat(ctx)
		third.Close()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no client served after the first left: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// storeOne puts a small file's shards and its sealed manifest (sequence
// seq) on f's relay.
func (f *fixture) storeOne(t *testing.T, path string, data []byte, seq uint64) error {
	t.Helper()
	m, shards := f.encodeFile(t, path, data)
	return f.putFile(t, path, m, shards, seq)
}

// putFile puts an encoded file's shards and its sealed manifest.
func (f *fixture) putFile(t *testing.T, path string, m *cbfs.Manifest, shards map[[2]int][]byte, seq uint64) error {
	t.Helper()
	ctx := context.Background()
	a := f.auth(t, path)
	for k, s := range shards {
		if err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			return err
		}
	}
	sealed, _ := f.vol.SealManifest(m, a.Tags[len(a.Tags)-1])
	return f.cli.PutManifest(ctx, a, seq, sealed)
}

// TestCapacityExact: a relay whose capacity is exactly what one file
// takes stores it (full to the byte) and refuses the next byte; shards
// in flight (pending) count against the capacity; a manifest replaced by
// a bigger one changes the usage by the difference.
func TestCapacityExact(t *testing.T) {
	ctx := context.Background()
	data := bytes.Repeat([]byte("exact "), 500)
	probe := newFixture(t, Limits{})
	if err := probe.storeOne(t, "a.txt", data, 0); err != nil {
		t.Fatal(err)
	}
	st, err := probe.cli.Stat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	size := st.Used

	full := newFixture(t, Limits{Capacity: size})
	if err := full.storeOne(t, "a.txt", data, 0); err != nil {
		t.Fatalf("a file of exactly the capacity (%d bytes) refused: %v", size, err)
	}
	if st, err := full.cli.Stat(ctx); err != nil || st.Used != size {
		t.Fatalf("used %d of %d (%v)", st.Used, size, err)
	}
	if err := full.storeOne(t, "b.txt", []byte("x"), 0); err == nil {
		t.Fatal("a put beyond a full relay was stored")
	}
	// On the full relay a manifest may be replaced by one of the same
	// length (the usage stays exactly at the capacity), not by a longer one.
	fa := full.auth(t, "a.txt")
	fm, _ := full.encodeFile(t, "a.txt", data)
	same, _ := full.vol.SealManifest(fm, fa.Tags[len(fa.Tags)-1])
	if err := full.cli.PutManifest(ctx, fa, 1, same); err != nil {
		t.Fatalf("a same-length manifest on a full relay: %v", err)
	}
	if err := full.cli.PutManifest(ctx, fa, 2, append(same, 0)); err == nil {
		t.Fatal("a manifest one byte longer was stored on a full relay")
	}

	// Bytes in flight (pending) count: a relay with room for exactly one
	// more shard refuses it while another put's byte is pending.
	putB := func(f *fixture) error {
		m, shards := f.encodeFile(t, "b.txt", []byte("bee"))
		return f.cli.PutShard(ctx, putReq(f.auth(t, "b.txt"), m, 0, 0), shards[[2]int{0, 0}])
	}
	if err := putB(probe); err != nil {
		t.Fatal(err)
	}
	st2, err := probe.cli.Stat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	shardB := st2.Used - size
	busy := newFixture(t, Limits{Capacity: size + shardB})
	if err := busy.storeOne(t, "a.txt", data, 0); err != nil {
		t.Fatal(err)
	}
	busy.srv.mu.Lock()
	busy.srv.pending = 1
	busy.srv.mu.Unlock()
	if err := putB(busy); err == nil {
		t.Fatal("pending bytes were not counted against the capacity")
	}
	busy.srv.mu.Lock()
	busy.srv.pending = 0
	busy.srv.mu.Unlock()
	if err := putB(busy); err != nil {
		t.Fatalf("the shard that exactly fills the relay: %v", err)
	}

	// A manifest replaced by a longer one: usage moves by the difference.
	grow := newFixture(t, Limits{})
	if err := grow.storeOne(t, "a.txt", data, 0); err != nil {
		t.Fatal(err)
	}
	st1, _ := grow.cli.Stat(ctx)
	a := grow.auth(t, "a.txt")
	m, _ := grow.encodeFile(t, "a.txt", data)
	sealed1, _ := grow.vol.SealManifest(m, a.Tags[len(a.Tags)-1])
	sealed2 := append(bytes.Clone(sealed1), make([]byte, 100)...)
	if err := grow.cli.PutManifest(ctx, a, 1, sealed2); err != nil {
		t.Fatal(err)
	}
	st3, _ := grow.cli.Stat(ctx)
	if st3.Used != st1.Used+100 {
		t.Fatalf("used %d after a manifest 100 bytes longer replaced one (was %d)", st3.Used, st1.Used)
	}
}

// TestObjectDepth: a request may name an object up to cbfs.MaxDepth path
// tags deep, and none deeper or shallower than one.
func TestObjectDepth(t *testing.T) {
	f := newFixture(t, Limits{})
	base := f.auth(t, "a.txt")
	for _, c := range []struct {
		depth int
		ok    bool
	}{{0, false}, {1, true}, {cbfs.MaxDepth, true}, {cbfs.MaxDepth + 1, false}} {
		a := base
		a.Tags = make([]cbfs.Tag, c.depth)
		for i := range a.Tags {
			a.Tags[i] = cbfs.Tag{byte(i + 1)}
		}
		// Past the depth check the made-up tags name no stored object:
		// only the depth refusal matters here.
		_, err := f.srv.authorize(&a, cbfs.PermRead, f.owner.Address(), true)
		refused := err != nil && strings.Contains(err.Error(), "request names no object")
		if refused == c.ok {
			t.Errorf("depth %d: %v, want refused for its depth = %v", c.depth, err, !c.ok)
		}
	}
}

// TestListPageBoundary: a listing page takes entries while the sealed
// bytes so far (each entry charged its sealed length and 64 bytes a path
// tag) plus the next sealed manifest stay within ListPageBytes: with room
// for exactly two, the pages hold 2 and 1.
func TestListPageBoundary(t *testing.T) {
	paths := []string{"d/a.txt", "d/b.txt", "d/c.txt"}
	probe := newFixture(t, Limits{})
	if err := probe.storeOne(t, paths[0], []byte("same"), 0); err != nil {
		t.Fatal(err)
	}
	ents, err := probe.cli.List(context.Background(), Auth{Token: probe.tok, Vol: probe.vol.ID})
	if err != nil || len(ents) != 1 || len(ents[0].Tags) != 2 {
		t.Fatalf("probe list: %d entries, %v", len(ents), err)
	}
	sealed := len(ents[0].Sealed)
	charge := sealed + 64*2
	for _, c := range []struct {
		limit int
		pages []int
	}{
		{charge + sealed, []int{2, 1}},        // room for exactly two
		{charge + sealed - 1, []int{1, 1, 1}}, // a byte less: one a page
	} {
		f := newFixture(t, Limits{ListPageBytes: c.limit})
		for _, p := range paths {
			if err := f.storeOne(t, p, []byte("same"), 0); err != nil {
				t.Fatal(err)
			}
		}
		var after cbfs.Tag
		for i, want := range c.pages {
			r, err := f.srv.list(&ListReq{Auth: Auth{Token: f.tok, Vol: f.vol.ID}, After: after}, f.owner.Address())
			if err != nil || len(r.Entries) != want || r.More != (i < len(c.pages)-1) {
				t.Fatalf("limit %d, page %d: %d entries (want %d), More %v, %v", c.limit, i, len(r.Entries), want, r.More, err)
			}
			for _, e := range r.Entries {
				if len(e.Sealed) != sealed {
					t.Fatalf("sealed manifests differ in length (%d, %d): the test needs equal ones", len(e.Sealed), sealed)
				}
			}
			tags := r.Entries[len(r.Entries)-1].Tags
			after = tags[len(tags)-1]
		}
	}
}

// TestChallengeLength: a challenge asks for 1 to MaxChallengeBytes bytes.
func TestChallengeLength(t *testing.T) {
	f := newFixture(t, Limits{})
	if err := f.storeOne(t, "a.txt", []byte("challenged"), 0); err != nil {
		t.Fatal(err)
	}
	a := f.auth(t, "a.txt")
	for _, c := range []struct {
		n  uint64
		ok bool
	}{{0, false}, {1, true}, {MaxChallengeBytes, true}, {MaxChallengeBytes + 1, false}} {
		// Hash names no shard: past the length check the answer is "not
		// found"; only the length refusal matters here.
		_, _, err := f.srv.challenge(&ChallengeReq{Auth: a, Length: c.n}, f.owner.Address())
		refused := err != nil && strings.Contains(err.Error(), "challenge length")
		if refused == c.ok {
			t.Errorf("length %d: %v, want refused for its length = %v", c.n, err, !c.ok)
		}
	}
}

// TestChallengeRanges: a challenge range is answered, and proved against
// the file's root, when it lies inside the shard (from a byte to the whole
// shard, past the first Bao group, up to the last byte) and refused when
// any of it lies outside (past the end, or an offset+length that wraps).
func TestChallengeRanges(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	data := bytes.Repeat([]byte("bao groups "), 9000) // ~99 KB: shards of ~48 KiB
	m, shards := f.encodeFileSeg(t, "big.bin", data, 96<<10)
	if err := f.putFile(t, "big.bin", m, shards, 0); err != nil {
		t.Fatal(err)
	}
	a := f.auth(t, "big.bin")
	h := m.Segments[0].Hashes[1]
	shard := shards[[2]int{0, 1}]
	size := uint64(len(shard))
	group := uint64(1024 << baoGroup)
	if size <= 2*group || size > MaxChallengeBytes {
		t.Fatalf("shard of %d bytes: the test needs one above two Bao groups (%d) and within a challenge", size, 2*group)
	}
	for _, c := range []struct {
		off, n uint64
		ok     bool
	}{
		{0, 1, true}, {0, size, true}, {group + 5, 100, true}, {2*group + 1, size - 2*group - 1, true}, {size - 1, 1, true},
		{size, 1, false}, {size - 10, 11, false}, {0, size + 1, false}, {1<<64 - 1, 2, false}, {5, 0, false},
	} {
		resp, slice, err := f.cli.Challenge(ctx, &ChallengeReq{Auth: a, Hash: h, Offset: c.off, Length: c.n})
		if (err == nil) != c.ok {
			t.Errorf("range %d+%d of %d: %v, want ok=%v", c.off, c.n, size, err, c.ok)
			continue
		}
		if !c.ok {
			// Refused by the range check itself, not later by the slicer.
			if !strings.Contains(err.Error(), "outside") {
				t.Errorf("range %d+%d of %d refused for another reason: %v", c.off, c.n, size, err)
			}
			continue
		}
		proven, err := VerifyChallenge(m.Root(), h, c.off, c.n, resp, slice)
		if err != nil || !bytes.Equal(proven, shard[c.off:c.off+c.n]) {
			t.Errorf("range %d+%d: answer does not prove the shard's bytes: %v", c.off, c.n, err)
		}
	}
}

// TestFrameBytes: the byte budget charges a request's header and data.
func TestFrameBytes(t *testing.T) {
	if got := frameBytes(make([]byte, 3), make([]byte, 40)); got != 43 {
		t.Fatalf("frameBytes(3, 40) = %v, want 43", got)
	}
}

// TestCloseUnstarted: a relay opened and closed without Start closes
// cleanly (its store is released; there is no listener to close).
func TestCloseUnstarted(t *testing.T) {
	nodeKey, _ := crypto.GenerateKey()
	srv, err := New(Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: nodeKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatalf("close before start: %v", err)
	}
}

// TestManifestSeq: a manifest older than the stored one is refused, the
// same sequence with the same bytes is a retry (accepted), with other bytes
// a second writer (refused), and a newer sequence replaces it.
func TestManifestSeq(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	if err := f.storeOne(t, "a.txt", []byte("sequenced"), 1); err != nil {
		t.Fatal(err)
	}
	a := f.auth(t, "a.txt")
	m, _ := f.encodeFile(t, "a.txt", []byte("sequenced"))
	sealed, _ := f.vol.SealManifest(m, a.Tags[len(a.Tags)-1])
	_, stored, err := f.cli.GetManifest(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		seq  uint64
		data []byte
		ok   bool
	}{
		{"older", 0, sealed, false},
		{"the same again (a retry)", 1, stored, true},
		{"the same sequence, other bytes", 1, sealed, false},
		{"newer", 2, sealed, true},
	} {
		if err := f.cli.PutManifest(ctx, a, c.seq, c.data); (err == nil) != c.ok {
			t.Errorf("%s (seq %d): %v, want ok=%v", c.name, c.seq, err, c.ok)
		}
	}
}

// TestRequestDataCap: every op has a data cap, and an unknown op none
// (negative: the frame is refused before its data is read).
func TestRequestDataCap(t *testing.T) {
	for _, c := range []struct {
		op   uint8
		want int
	}{{uint8(OpPutShard), MaxShardBytes}, {uint8(OpPutManifest), MaxManifestBytes}, {uint8(OpGetShard), 0}, {0, -1}, {200, -1}} {
		if got := requestDataCap(c.op); got != c.want {
			t.Errorf("requestDataCap(%d) = %d, want %d", c.op, got, c.want)
		}
	}
}

// TestDropShards: DropShards deletes the named shards of a file that the
// relay holds (they read as not found and free their bytes), leaves the
// others, and ignores hashes it does not hold.
func TestDropShards(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "a.txt", bytes.Repeat([]byte("drop "), 2000))
	a := f.auth(t, "a.txt")
	for k, s := range shards {
		if err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	before, err := f.cli.Stat(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gone, kept := m.Segments[0].Hashes[0], m.Segments[0].Hashes[1]
	if err := f.cli.DropShards(ctx, a, []cbfs.ShardHash{gone, {0xee}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.cli.GetShard(ctx, a, gone); !errors.Is(err, ErrNotFound) {
		t.Fatalf("dropped shard: %v, want ErrNotFound", err)
	}
	if got, err := f.cli.GetShard(ctx, a, kept); err != nil || !bytes.Equal(got, shards[[2]int{0, 1}]) {
		t.Fatalf("kept shard: %v", err)
	}
	after, err := f.cli.Stat(ctx)
	if err != nil || after.Used >= before.Used {
		t.Fatalf("used %d after the drop, %d before (%v)", after.Used, before.Used, err)
	}
	// Nothing held: nothing changes.
	if err := f.cli.DropShards(ctx, a, []cbfs.ShardHash{{0xee}}); err != nil {
		t.Fatal(err)
	}
	if again, _ := f.cli.Stat(ctx); again.Used != after.Used {
		t.Fatalf("used %d after dropping nothing, %d before", again.Used, after.Used)
	}
}

// TestCancelledNamesTheCause: a call whose stream failed reports the
// context's error when the context ended (so callers can tell their own
// cancel or deadline from a relay fault with errors.Is), and the stream's
// error otherwise.
func TestCancelledNamesTheCause(t *testing.T) {
	streamErr := errors.New("stream reset by the relay")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"live context", context.Background(), streamErr},
		{"cancelled", canceled, context.Canceled},
		{"past its deadline", expired, context.DeadlineExceeded},
	} {
		if got := cancelled(c.ctx, streamErr); !errors.Is(got, c.want) {
			t.Errorf("%s: cancelled = %v, want %v", c.name, got, c.want)
		}
	}
}
