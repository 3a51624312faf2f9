package relay

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
)

// Shard puts and gets go over TCP; the shard read back is the one stored.
func TestTCPShardRoundTrip(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "reports/a.txt", bytes.Repeat([]byte("tcp "), 5000))
	a := f.auth(t, "reports/a.txt")
	for k, s := range shards {
		if err := f.cli.PutShard(ctx, putReq(a, m, k[0], k[1]), s); err != nil {
			t.Fatal(err)
		}
	}
	for k, s := range shards {
		got, err := f.cli.GetShard(ctx, a, m.Segments[k[0]].Hashes[k[1]])
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("shard %v: %v", k, err)
		}
	}
	if n, want := f.srv.TCPReqs.Load(), int64(2*len(shards)); n != want {
		t.Fatalf("%d requests over TCP, want %d (every shard put and get)", n, want)
	}
	if f.cli.ID() != f.srv.ID() {
		t.Fatalf("client learned relay 0x%x, want 0x%x", f.cli.ID(), f.srv.ID())
	}
	// Other requests stay on QUIC.
	if _, err := f.cli.Stat(ctx); err != nil {
		t.Fatal(err)
	}
	if n := f.srv.TCPReqs.Load(); n != int64(2*len(shards)) {
		t.Fatalf("a stat request went over TCP (%d requests)", n)
	}
}

// tlsDial opens a raw TLS connection to the relay's TCP port as key.
func tlsDial(t *testing.T, addr string, key *crypto.PrivateKey, alpn string) *tls.Conn {
	t.Helper()
	tc := &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true, NextProtos: []string{alpn}} // #nosec: test
	if key != nil {
		cert, err := p2p.NewNodeCertificate(key)
		if err != nil {
			t.Fatal(err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	c, err := tls.Dial("tcp", addr, tc)
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	return c
}

// Garbage on the TCP port: the relay answers a bad frame with a clear
// error and closes the connection, refuses bad handshakes, and lives on.
func TestTCPGarbage(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	// Not TLS at all.
	raw, err := net.Dial("tcp", f.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	raw.SetDeadline(time.Now().Add(10 * time.Second))
	raw.Write(bytes.Repeat([]byte{0x16, 0x03, 0xff, 0x00}, 300))
	if _, err := io.ReadAll(raw); err != nil && !isReset(err) {
		t.Fatalf("non-TLS bytes: %v", err)
	}
	raw.Close()

	frames := []struct {
		name   string
		frame  []byte
		status uint8
		msg    string
		open   bool // the connection serves a next request
	}{
		{"unknown op", []byte{99, 0, 0, 0, 0, 0, 0, 0, 0}, StatusInvalid, "malformed frame: unknown kind 99", false},
		{"header over the cap", []byte{1, 0xff, 0xff, 0xff, 0xff}, StatusInvalid, "malformed frame: header", false},
		{"data over the cap", []byte{1, 0, 0, 0, 1, 0xa0, 0xff, 0xff, 0xff, 0xff}, StatusInvalid, "malformed frame: data", false},
		{"garbage CBOR", []byte{2, 0, 0, 0, 3, 0xff, 0xfe, 0xfd, 0, 0, 0, 0}, StatusInvalid, "get shard: bad request", true},
		{"op served over QUIC only", []byte{byte(OpStat), 0, 0, 0, 1, 0xa0, 0, 0, 0, 0}, StatusInvalid, "served over QUIC only", true},
	}
	for _, c := range frames {
		t.Run(c.name, func(t *testing.T) {
			conn := tlsDial(t, f.srv.Addr(), f.owner, ALPN)
			defer conn.Close()
			conn.Write(c.frame)
			r := bufio.NewReader(conn)
			status, hdr, _, err := readAnswer(r, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			if status != c.status || !strings.Contains(string(hdr), c.msg) {
				t.Fatalf("answer %d %q, want %d %q", status, hdr, c.status, c.msg)
			}
			// A next request is served, or the connection is closed.
			conn.Write([]byte{byte(OpStat), 0, 0, 0, 1, 0xa0, 0, 0, 0, 0})
			_, _, _, err = readAnswer(r, nil)
			if c.open != (err == nil) {
				t.Fatalf("next request: %v, want connection open %v", err, c.open)
			}
		})
	}
	// A truncated frame: the client stops sending; the relay closes.
	conn := tlsDial(t, f.srv.Addr(), f.owner, ALPN)
	conn.Write([]byte{1, 0, 0})
	conn.CloseWrite()
	if _, _, _, err := readAnswer(conn, nil); err == nil {
		t.Fatal("a truncated frame was answered")
	}
	conn.Close()
	// No client certificate, or another protocol: the handshake fails or
	// the relay closes without serving.
	for _, h := range []struct {
		key  *crypto.PrivateKey
		alpn string
	}{{nil, ALPN}, {f.owner, "h2"}, {f.owner, ""}} {
		cfg := &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true} // #nosec: test
		if h.alpn != "" {
			cfg.NextProtos = []string{h.alpn}
		}
		if h.key != nil {
			cert, _ := p2p.NewNodeCertificate(h.key)
			cfg.Certificates = []tls.Certificate{cert}
		}
		c, err := tls.Dial("tcp", f.srv.Addr(), cfg)
		if err == nil {
			c.SetDeadline(time.Now().Add(10 * time.Second))
			c.Write([]byte{byte(OpGetShard), 0, 0, 0, 1, 0xa0, 0, 0, 0, 0})
			if _, _, _, err := readAnswer(c, nil); err == nil {
				t.Fatalf("served a connection with key %v, alpn %q", h.key != nil, h.alpn)
			}
			c.Close()
		}
	}
	if f.srv.Refused.Load() < int64(len(frames)) {
		t.Fatalf("%d refusals counted", f.srv.Refused.Load())
	}
	// The relay still serves, over TCP too.
	m, shards := f.encodeFile(t, "a", []byte("alive"))
	a := f.auth(t, "a")
	before := f.srv.TCPReqs.Load()
	if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), shards[[2]int{0, 0}]); err != nil {
		t.Fatalf("relay dead after garbage: %v", err)
	}
	if f.srv.TCPReqs.Load() != before+1 {
		t.Fatal("the put after the garbage did not go over TCP")
	}
}

// isReset says whether err is the peer resetting the connection.
func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

// A relay without TCP (or a client that turned it off) is served over
// QUIC: the client falls back after the TCP dial fails, and remembers.
func TestTCPFallbackToQUIC(t *testing.T) {
	cases := []struct {
		name       string
		noTCP      bool // relay side
		clientOff  bool
		wantTCPOps int64
		wantDown   bool
	}{
		{"relay without TCP", true, false, 0, true},
		{"client with TCP off", false, true, 0, false},
		{"both on", false, false, 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodeKey, _ := crypto.GenerateKey()
			srv, err := New(Config{Dir: t.TempDir(), Listen: "127.0.0.1:0", Key: nodeKey, NoTCP: c.noTCP})
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			f := newFixtureOn(t, &fixture{srv: srv})
			f.cli.SetBulkTCP(!c.clientOff)
			ctx := context.Background()
			m, shards := f.encodeFile(t, "a", []byte("fallback"))
			a := f.auth(t, "a")
			downAt := func() time.Time {
				f.cli.tcpMu.Lock()
				defer f.cli.tcpMu.Unlock()
				return f.cli.tcpDown
			}
			if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), shards[[2]int{0, 0}]); err != nil {
				t.Fatalf("put: %v", err)
			}
			afterPut := downAt()
			got, err := f.cli.GetShard(ctx, a, m.Segments[0].Hashes[0])
			if err != nil || !bytes.Equal(got, shards[[2]int{0, 0}]) {
				t.Fatalf("get: %v", err)
			}
			// Within tcpRetry of a failed dial the client does not dial
			// again (a new failure would move tcpDown).
			if !downAt().Equal(afterPut) {
				t.Fatal("the client dialed TCP again right after a failed dial")
			}
			if n := srv.TCPReqs.Load(); n != c.wantTCPOps {
				t.Fatalf("%d requests over TCP, want %d", n, c.wantTCPOps)
			}
			f.cli.tcpMu.Lock()
			down := !f.cli.tcpDown.IsZero()
			f.cli.tcpMu.Unlock()
			if down != c.wantDown {
				t.Fatalf("TCP marked down %v, want %v", down, c.wantDown)
			}
		})
	}
}

// The TCP path pins the relay's identity as QUIC does: a relay with
// another key is refused at the TCP handshake.
func TestTCPChecksRelayIdentity(t *testing.T) {
	f := newFixture(t, Limits{})
	other, _ := crypto.GenerateKey()
	cli, err := NewClient(f.srv.Addr(), cbfs.RelayID(other.Address()), f.owner)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.dialTCP(context.Background()); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Fatalf("dial of the wrong relay: %v", err)
	}
	m, shards := f.encodeFile(t, "a", []byte("pinned"))
	if err := cli.PutShard(context.Background(), putReq(f.auth(t, "a"), m, 0, 0), shards[[2]int{0, 0}]); err == nil {
		t.Fatal("a shard was put on a relay with another identity")
	}
	if f.srv.PutShards.Load() != 0 {
		t.Fatal("the relay stored a shard")
	}
}

// Only shard puts and gets take the TCP path.
func TestBulkOp(t *testing.T) {
	for op := Op(0); op <= OpLink+1; op++ {
		if want := op == OpPutShard || op == OpGetShard; bulkOp(op) != want {
			t.Errorf("bulkOp(%d) = %v", op, !want)
		}
	}
}

// A client keeps at most maxIdleTCP idle connections; the rest, and all
// after Close, are closed.
func TestPutIdleBound(t *testing.T) {
	key, _ := crypto.GenerateKey()
	cli, err := NewClient("127.0.0.1:1", cbfs.RelayID{}, key)
	if err != nil {
		t.Fatal(err)
	}
	var far []net.Conn
	for i := 0; i < maxIdleTCP+2; i++ {
		a, b := net.Pipe()
		far = append(far, b)
		cli.putIdle(tls.Client(a, &tls.Config{}))
	}
	if len(cli.idle) != maxIdleTCP {
		t.Fatalf("%d idle connections kept, want %d", len(cli.idle), maxIdleTCP)
	}
	closed := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := c.Read(make([]byte, 1))
		return errors.Is(err, io.EOF)
	}
	if !closed(far[maxIdleTCP]) || !closed(far[maxIdleTCP+1]) {
		t.Fatal("a connection over the bound was not closed")
	}
	cli.Close()
	if len(cli.idle) != 0 || !closed(far[0]) {
		t.Fatal("Close left idle connections open")
	}
	a, b := net.Pipe()
	cli.putIdle(tls.Client(a, &tls.Config{}))
	if len(cli.idle) != 0 || !closed(b) {
		t.Fatal("a connection was kept after Close")
	}
	if _, ok, err := cli.tcpConn(context.Background()); ok || !errors.Is(err, errTCPClosed) {
		t.Fatalf("tcpConn after Close: ok %v, err %v", ok, err)
	}
}

// A relay on a fixed port whose TCP side is taken does not start; with
// NoTCP it does, and serves no TCP.
func TestListenTCPTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	nodeKey, _ := crypto.GenerateKey()
	if srv, err := New(Config{Dir: t.TempDir(), Listen: addr, Key: nodeKey}); err == nil || !strings.Contains(err.Error(), "tcp") {
		if err == nil {
			srv.Close()
		}
		t.Fatalf("relay started with its TCP port taken: %v", err)
	}
	srv, err := New(Config{Dir: t.TempDir(), Listen: addr, Key: nodeKey, NoTCP: true})
	if err != nil {
		t.Fatalf("NoTCP relay on a port taken for TCP only: %v", err)
	}
	defer srv.Close()
	if srv.tcp != nil || srv.Addr() != addr {
		t.Fatalf("NoTCP relay: tcp %v, addr %s", srv.tcp, srv.Addr())
	}
}

// listen retries another port when the TCP side of a free UDP port is
// taken, listenTries times with port 0 and never with a fixed port.
func TestListenRetries(t *testing.T) {
	errTaken := errors.New("taken")
	cases := []struct {
		name    string
		port    int
		noTCP   bool
		fails   int // the TCP bind fails this many times, then succeeds
		calls   int
		wantErr bool
	}{
		{"any port, first try", 0, false, 0, 1, false},
		{"any port, third try", 0, false, 2, 3, false},
		{"any port, every try fails", 0, false, listenTries + 5, listenTries, true},
		{"fixed port taken", -1, false, 1, 1, true},
		{"no TCP", 0, true, 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			port := c.port
			if port < 0 { // a fixed port free for UDP now
				u, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
				if err != nil {
					t.Fatal(err)
				}
				port = u.LocalAddr().(*net.UDPAddr).Port
				u.Close()
			}
			s := &Server{cfg: Config{NoTCP: c.noTCP}}
			calls := 0
			err := s.listen(&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}, func(u *net.UDPConn) (net.Listener, error) {
				calls++
				if calls <= c.fails {
					return nil, errTaken
				}
				return listenTCP(u)
			})
			if calls != c.calls || (err != nil) != c.wantErr || c.wantErr && !errors.Is(err, errTaken) {
				t.Fatalf("%d TCP binds, err %v; want %d, error %v", calls, err, c.calls, c.wantErr)
			}
			if err == nil {
				if s.udp == nil || (s.tcp == nil) != c.noTCP {
					t.Fatalf("udp %v, tcp %v", s.udp, s.tcp)
				}
				s.udp.Close()
				if s.tcp != nil {
					s.tcp.Close()
				}
			}
		})
	}
}

// The request rate limit holds over TCP: past the burst the relay answers
// "rate limited", and the connection stays in step for later requests.
func TestTCPRequestRateLimit(t *testing.T) {
	f := newFixture(t, Limits{ReqsPerSec: 0.001, ReqBurst: 2})
	conn := tlsDial(t, f.srv.Addr(), f.owner, ALPN)
	defer conn.Close()
	r := bufio.NewReader(conn)
	req := []byte{byte(OpGetShard), 0, 0, 0, 1, 0xa0, 0, 0, 0, 0} // an empty map: refused, whole
	for i, want := range []string{"get shard: bad request", "get shard: bad request", "rate limited: requests", "rate limited: requests"} {
		conn.Write(req)
		status, hdr, _, err := readAnswer(r, nil)
		if err != nil || string(hdr) != want {
			t.Fatalf("request %d: %q, %v; want %q", i, hdr, err, want)
		}
		if i >= 2 && status != StatusFull {
			t.Fatalf("request %d: status %d, want StatusFull", i, status)
		}
	}
	if n := f.srv.TCPReqs.Load(); n != 4 {
		t.Fatalf("%d requests read over TCP, want 4", n)
	}
}

// A shard request whose pooled TCP connection broke is sent again over
// QUIC, and its answer is the relay's.
func TestTCPBrokenConnFallsBack(t *testing.T) {
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFile(t, "a", []byte("broken"))
	a := f.auth(t, "a")
	if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), shards[[2]int{0, 0}]); err != nil {
		t.Fatal(err)
	}
	f.cli.tcpMu.Lock()
	for _, c := range f.cli.idle {
		c.Close() // left in the pool, as a connection the relay dropped
	}
	n := len(f.cli.idle)
	f.cli.tcpMu.Unlock()
	if n != 1 {
		t.Fatalf("%d idle connections after one put, want 1", n)
	}
	before := f.srv.TCPReqs.Load()
	got, err := f.cli.GetShard(ctx, a, m.Segments[0].Hashes[0])
	if err != nil || !bytes.Equal(got, shards[[2]int{0, 0}]) {
		t.Fatalf("get over a broken connection: %q, %v", got, err)
	}
	if f.srv.TCPReqs.Load() != before {
		t.Fatal("the broken connection carried the request")
	}
}

// TCP connections count against MaxConns like QUIC ones.
func TestTCPMaxConns(t *testing.T) {
	f := newFixture(t, Limits{MaxConns: 1})
	first := tlsDial(t, f.srv.Addr(), f.owner, ALPN)
	r := bufio.NewReader(first)
	req := []byte{byte(OpGetShard), 0, 0, 0, 1, 0xa0, 0, 0, 0, 0}
	first.Write(req)
	if _, _, _, err := readAnswer(r, nil); err != nil {
		t.Fatalf("first connection: %v", err)
	}
	served := func() bool {
		cert, _ := p2p.NewNodeCertificate(f.owner)
		c, err := tls.Dial("tcp", f.srv.Addr(), &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true, NextProtos: []string{ALPN}, Certificates: []tls.Certificate{cert}}) // #nosec: test
		if err != nil {
			return false
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		c.Write(req)
		_, _, _, err = readAnswer(c, nil)
		return err == nil
	}
	if served() {
		t.Fatal("a second connection was served beyond MaxConns 1")
	}
	first.Close()
	deadline := time.Now().Add(30 * time.Second)
	for !served() {
		if time.Now().After(deadline) {
			t.Fatal("no connection served after the first left")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGetShardTo: a shard is read into the caller's buffer when it has
// room, over TCP and over QUIC alike (a get then allocates nothing per
// shard), and into a new buffer when it has not; the bytes are the
// shard's either way.
func TestGetShardTo(t *testing.T) {
	for _, tcp := range []bool{true, false} {
		f := newFixture(t, Limits{})
		f.cli.SetBulkTCP(tcp)
		ctx := context.Background()
		m, shards := f.encodeFile(t, "reports/a.txt", bytes.Repeat([]byte("into "), 3000))
		a := f.auth(t, "reports/a.txt")
		s := shards[[2]int{0, 1}]
		if err := f.cli.PutShard(ctx, putReq(a, m, 0, 1), s); err != nil {
			t.Fatal(err)
		}
		h := m.Segments[0].Hashes[1]
		room := make([]byte, 3, len(s)+10)
		got, err := f.cli.GetShardTo(ctx, a, h, room)
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("tcp %v: into a buffer with room: %v", tcp, err)
		}
		if &got[0] != &room[:1][0] {
			t.Fatalf("tcp %v: the shard was not read into the buffer given", tcp)
		}
		small := make([]byte, 0, len(s)-1)
		got, err = f.cli.GetShardTo(ctx, a, h, small)
		if err != nil || !bytes.Equal(got, s) {
			t.Fatalf("tcp %v: into a buffer too small: %v", tcp, err)
		}
		if &got[0] == &small[:1][0] {
			t.Fatalf("tcp %v: a shard longer than the buffer was read into it", tcp)
		}
		if n := f.srv.TCPReqs.Load(); (n > 0) != tcp {
			t.Fatalf("tcp %v: %d requests over TCP", tcp, n)
		}
	}
}

// countConn counts the writes that reach the connection.
type countConn struct {
	net.Conn
	writes int
}

func (c *countConn) Write(p []byte) (int, error) {
	c.writes++
	return c.Conn.Write(p)
}

// TestRawConnGathers: while gathering, writes reach the connection only
// when rawBufBytes are buffered or at flush, in one write, and in order;
// without gathering each write goes straight through; reads return what
// was written.
func TestRawConnGathers(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	cc := &countConn{Conn: a}
	rc := newRawConn(cc)
	got := make(chan []byte)
	go func() {
		d, _ := io.ReadAll(b)
		got <- d
	}()
	var want []byte
	for _, step := range []struct {
		gather     bool
		n, records int
		writes     int // reaching cc after the step
	}{
		{false, 5, 1, 1},
		{true, 16 << 10, 7, 1 + 1}, // 112 KiB gathered, one write at flush
		{true, 16 << 10, 9, 2 + 2}, // 144 KiB: one write when full, one at flush
		{false, 16 << 10, 2, 4 + 2},
	} {
		if step.gather {
			rc.startGather()
		}
		for i := 0; i < step.records; i++ {
			p := bytes.Repeat([]byte{byte(len(want))}, step.n)
			if n, err := rc.Write(p); n != len(p) || err != nil {
				t.Fatalf("write: %d %v", n, err)
			}
			want = append(want, p...)
		}
		if step.gather {
			if err := rc.flush(); err != nil {
				t.Fatal(err)
			}
		}
		if cc.writes != step.writes {
			t.Fatalf("%d writes reached the connection, want %d", cc.writes, step.writes)
		}
	}
	a.Close()
	if d := <-got; !bytes.Equal(d, want) {
		t.Fatalf("read %d bytes, want the %d written, in order", len(d), len(want))
	}
	// Reads: what the other end wrote, through the buffer.
	c, d := net.Pipe()
	defer d.Close()
	go func() {
		d.Write([]byte("hello"))
		d.Close()
	}()
	r, err := io.ReadAll(newRawConn(c))
	if err != nil || string(r) != "hello" {
		t.Fatalf("read %q %v", r, err)
	}
}

// TestTCPGetHoldsOneBuffer: a request without data (a get) gives its
// pooled buffer back before it is answered, so the shard read takes that
// one: after a put and two gets, one after another, the relay has used
// one buffer, not two. (Counted once the relay has closed, when every
// request has given its buffers back.)
func TestTCPGetHoldsOneBuffer(t *testing.T) {
	for getBuf() != nil { // empty the pool
	}
	f := newFixture(t, Limits{})
	ctx := context.Background()
	m, shards := f.encodeFileSeg(t, "reports/a.txt", bytes.Repeat([]byte("one buffer "), 40000), 256<<10)
	a := f.auth(t, "reports/a.txt")
	s := shards[[2]int{0, 0}]
	if err := f.cli.PutShard(ctx, putReq(a, m, 0, 0), s); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if got, err := f.cli.GetShard(ctx, a, m.Segments[0].Hashes[0]); err != nil || !bytes.Equal(got, s) {
			t.Fatalf("get %d: %v", i, err)
		}
	}
	f.cli.Close()
	f.srv.Close()
	n := 0
	for getBuf() != nil {
		n++
	}
	if n != 1 {
		t.Fatalf("%d buffers in the pool after a put and two gets, want 1", n)
	}
}
