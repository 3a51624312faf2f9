package relay

// The bulk shard path: TLS 1.3 over TCP on the relay's port number, beside
// QUIC on UDP (docs/decisions.md, "CBFS bulk shard path over TLS/TCP").
// quic-go spends ~4.5 µs of CPU per 1,452-byte packet, so moving shards
// over it costs 4-5× the CPU of TLS over TCP (BenchmarkTransport); shard
// puts and gets, which are nearly all of a file's bytes, go over TCP.
//
// Same protocol: the TLS handshake uses the same node-key certificates,
// ALPN and peer checks as QUIC, and each request is one frame (wire.go)
// answered by one frame. Requests on a connection are served one after
// another; a client opens several connections for parallel transfers.
// Only OpPutShard and OpGetShard are served here (every other op is
// refused with StatusInvalid and the connection stays open): the small
// requests stay on QUIC, where a slow one does not hold up the others.

import (
	"bufio"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/cowboy-chain/cowboy/p2p"
)

// tcpBufBytes is the size of the read and write buffers of a TCP
// connection: a few TLS records. A shard's bytes pass through them
// straight (bufio reads and writes large slices directly).
const tcpBufBytes = 64 << 10

// rawBufBytes is the size of the buffers under TLS (rawConn).
const rawBufBytes = 128 << 10

// rawConn is the TCP connection under TLS. Go's TLS writes each record
// (16 KiB of a shard) with a write(2) of its own and reads about one
// record per read(2); on loopback each write is a TCP segment the
// receiving end handles, and may be woken for, on its own. While a frame
// is written (gather, then flush) the records are gathered and written
// rawBufBytes at a time; reads take what has arrived, up to rawBufBytes,
// at once. The handshake and alerts are written straight through. With
// 256 KiB buffers this took 15% off the CPU of both ends of 150 MiB over
// loopback (docs/benchmarks.md, "CBFS ... tenth session").
type rawConn struct {
	net.Conn
	r *bufio.Reader

	mu     sync.Mutex
	w      *bufio.Writer // made at the first gather
	gather bool
}

func newRawConn(c net.Conn) *rawConn {
	return &rawConn{Conn: c, r: bufio.NewReaderSize(c, rawBufBytes)}
}

func (c *rawConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *rawConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gather {
		return c.w.Write(p)
	}
	return c.Conn.Write(p)
}

// startGather gathers the writes that follow, until flush.
func (c *rawConn) startGather() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.w == nil {
		c.w = bufio.NewWriterSize(c.Conn, rawBufBytes)
	}
	c.gather = true
}

// flush writes what was gathered and stops gathering.
func (c *rawConn) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gather = false
	return c.w.Flush()
}

// bulkOp says whether op is served over the TCP path.
func bulkOp(op Op) bool { return op == OpPutShard || op == OpGetShard }

// listenTCP binds TCP on the UDP socket's address (same IP, same port).
func listenTCP(udp *net.UDPConn) (net.Listener, error) {
	ua := udp.LocalAddr().(*net.UDPAddr)
	return net.ListenTCP("tcp", &net.TCPAddr{IP: ua.IP, Port: ua.Port, Zone: ua.Zone})
}

// acceptRetry is how long acceptTCP waits after a failed Accept that did
// not close the listener (out of file descriptors, say) before it tries
// again: the TCP path must outlast a moment of exhaustion, not end.
const acceptRetry = 50 * time.Millisecond

// acceptTCP accepts TCP connections until the listener closes. They count
// against MaxConns together with the QUIC connections.
func (s *Server) acceptTCP(ln net.Listener, tc *tls.Config) {
	defer s.wg.Done()
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			time.Sleep(acceptRetry)
			continue
		}
		if s.conns.Add(1) > int64(s.lim.MaxConns) {
			s.conns.Add(-1)
			s.Refused.Add(1)
			c.Close()
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.conns.Add(-1)
			s.serveTCP(tls.Server(newRawConn(c), tc))
		}()
	}
}

// serveTCP runs one TLS connection (over a rawConn): the handshake (the
// same certificate checks as QUIC), then requests one after another until
// the client leaves, stays idle past serverIdleTimeout, or sends what is
// not a whole frame (then the connection is closed after an error answer).
func (s *Server) serveTCP(c *tls.Conn) {
	defer c.Close()
	stop := context.AfterFunc(s.ctx, func() { c.Close() }) // Close ends blocked reads
	defer stop()
	c.SetDeadline(time.Now().Add(serverHandshakeTimeout))
	if err := c.HandshakeContext(s.ctx); err != nil {
		s.Refused.Add(1)
		return
	}
	cs := c.ConnectionState()
	raw := make([][]byte, len(cs.PeerCertificates))
	for i, pc := range cs.PeerCertificates {
		raw[i] = pc.Raw
	}
	peer, err := p2p.VerifyNodeCertificate(raw, time.Now())
	if err != nil || cs.NegotiatedProtocol != ALPN {
		s.Refused.Add(1)
		return
	}
	now := time.Now()
	reqs := &bucket{rate: s.lim.ReqsPerSec, burst: float64(s.lim.ReqBurst), tokens: float64(s.lim.ReqBurst), last: now}
	byts := &bucket{rate: s.lim.BytesPerSec, burst: float64(s.lim.ByteBurst), tokens: float64(s.lim.ByteBurst), last: now}
	r := bufio.NewReaderSize(c, tcpBufBytes)
	w := bufio.NewWriterSize(c, tcpBufBytes)
	rc := c.NetConn().(*rawConn)
	for {
		c.SetDeadline(time.Now().Add(serverIdleTimeout))
		if _, err := r.Peek(1); err != nil {
			return // the client left or stayed idle
		}
		c.SetDeadline(time.Now().Add(s.lim.RequestTimeout))
		keep, err := s.serveTCPRequest(r, w, rc, [20]byte(peer), reqs, byts)
		if err != nil {
			s.Refused.Add(1)
		}
		if !keep {
			lingerClose(c)
			return
		}
	}
}

// How long and how much lingerClose reads after an error answer.
const (
	lingerTime  = time.Second
	lingerBytes = 1 << 20
)

// lingerClose ends a connection after an error answer: it stops writing
// (close_notify, then FIN) and reads and drops what the client still
// sends, up to lingerBytes for up to lingerTime, so that the kernel does
// not reset the connection over unread bytes and lose the answer.
func lingerClose(c *tls.Conn) {
	if c.CloseWrite() != nil {
		return
	}
	c.SetReadDeadline(time.Now().Add(lingerTime))
	io.CopyN(io.Discard, c, lingerBytes)
}

// serveTCPRequest serves one request read from r, answering on w. keep
// is false when the connection must close: the request was not read
// whole (a bad or cut frame), or the answer could not be written. The
// frame is read before the rate limits are checked (unlike over QUIC,
// where a refused stream is cancelled unread): the byte stream must stay
// in step for the next request, and the frame caps bound what is read.
// An answer's TLS records are gathered on raw.
func (s *Server) serveTCPRequest(r io.Reader, w *bufio.Writer, raw *rawConn, peer [20]byte, reqs, byts *bucket) (keep bool, err error) {
	answer := func(status uint8, hdr, data []byte) error {
		raw.startGather()
		err := writeFrame(w, status, hdr, data)
		if err == nil {
			err = w.Flush()
		}
		return cmp.Or(err, raw.flush())
	}
	buf := getBuf()
	op, hdr, data, err := readFrameInto(r, buf, serverFirstAlloc, requestDataCap)
	if len(data) == 0 {
		// No data (a get) or no whole frame: the buffer goes back now, so
		// a get holds only the one its shard is read into.
		putBuf(buf)
		data = nil
	} else {
		defer putBuf(data) // no op keeps a request's data
	}
	if err != nil {
		if errors.Is(err, ErrBadFrame) {
			answer(StatusInvalid, []byte(err.Error()), nil)
		}
		return false, err
	}
	s.TCPReqs.Add(1)
	limited := ""
	if now := time.Now(); !reqs.take(1, now) {
		limited = "rate limited: requests"
	} else if !byts.take(frameBytes(hdr, data), now) {
		limited = "rate limited: bytes"
	}
	if limited != "" {
		if err := answer(StatusFull, []byte(limited), nil); err != nil {
			return false, err
		}
		return true, errRateLimited
	}
	if !bulkOp(Op(op)) {
		msg := fmt.Sprintf("op %d is served over QUIC only", op)
		if err := answer(StatusInvalid, []byte(msg), nil); err != nil {
			return false, err
		}
		return true, errors.New(msg)
	}
	rhdr, rdata, herr := s.handle(Op(op), hdr, data, peer)
	if Op(op) == OpGetShard {
		defer putBuf(rdata) // from the pool (readShard); written by then
	}
	if herr != nil {
		status := uint8(StatusInvalid)
		if re := (*requestError)(nil); errors.As(herr, &re) {
			status = re.status
		}
		if err := answer(status, []byte(herr.Error()), nil); err != nil {
			return false, err
		}
		return true, herr
	}
	if err := answer(StatusOK, rhdr, rdata); err != nil {
		return false, err
	}
	return true, nil
}

// errRateLimited is a request refused by a rate limit.
var errRateLimited = fail(StatusFull, "rate limited")

// tcpRetry is how long a client keeps to QUIC after a TCP dial to the
// relay failed (a firewall that drops TCP would otherwise cost a dial
// timeout per request).
const tcpRetry = 30 * time.Second

// maxIdleTCP is how many idle TCP connections a client keeps per relay:
// about the number of shards it moves to one relay at once.
const maxIdleTCP = 8

// errTCPClosed is a request on a closed client.
var errTCPClosed = errors.New("client closed")

// dialTCP opens a TLS connection to the relay, checking its identity as
// the QUIC dial does.
func (c *Client) dialTCP(ctx context.Context) (*tls.Conn, error) {
	tc, got, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	d := &net.Dialer{Timeout: dialTimeout}
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	conn := tls.Client(newRawConn(nc), tc)
	hctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	if err := conn.HandshakeContext(hctx); err != nil {
		nc.Close()
		return nil, err
	}
	if p := conn.ConnectionState().NegotiatedProtocol; p != ALPN {
		conn.Close()
		return nil, fmt.Errorf("relay %s: TLS protocol %q, want %q", c.addr, p, ALPN)
	}
	c.mu.Lock()
	c.id = *got
	c.mu.Unlock()
	return conn, nil
}

// tcpConn returns an idle TCP connection or dials one. ok is false when
// TCP is not to be tried now (turned off, or a recent dial failed).
func (c *Client) tcpConn(ctx context.Context) (conn *tls.Conn, ok bool, err error) {
	c.tcpMu.Lock()
	if c.tcpClosed {
		c.tcpMu.Unlock()
		return nil, false, errTCPClosed
	}
	if n := len(c.idle); n > 0 {
		conn = c.idle[n-1]
		c.idle = c.idle[:n-1]
		c.tcpMu.Unlock()
		return conn, true, nil
	}
	down := c.noTCP || time.Now().Before(c.tcpDown)
	c.tcpMu.Unlock()
	if down {
		return nil, false, nil
	}
	conn, err = c.dialTCP(ctx)
	if err != nil {
		if ctx.Err() == nil {
			c.tcpMu.Lock()
			c.tcpDown = time.Now().Add(tcpRetry)
			c.tcpMu.Unlock()
		}
		return nil, false, err
	}
	return conn, true, nil
}

// putIdle keeps conn for the next request, or closes it.
func (c *Client) putIdle(conn *tls.Conn) {
	c.tcpMu.Lock()
	defer c.tcpMu.Unlock()
	if c.tcpClosed || len(c.idle) >= maxIdleTCP {
		conn.Close()
		return
	}
	c.idle = append(c.idle, conn)
}

// closeTCP closes the idle TCP connections; later requests use none.
func (c *Client) closeTCP() {
	c.tcpMu.Lock()
	defer c.tcpMu.Unlock()
	c.tcpClosed = true
	for _, conn := range c.idle {
		conn.Close()
	}
	c.idle = nil
}

// SetBulkTCP turns the TCP path for shard transfers on (the default) or
// off (everything over QUIC, as before it existed: for A/B measurements
// and networks where the relay's TCP port is filtered).
func (c *Client) SetBulkTCP(on bool) {
	c.tcpMu.Lock()
	defer c.tcpMu.Unlock()
	c.noTCP = !on
}

// callTCP sends one shard request over TCP. done is false when it could
// not be sent that way (no connection, or the connection failed before an
// answer came): the caller then sends it over QUIC. Shard puts and gets
// are idempotent, so a request the relay may have seen can be sent again.
// The answer's data goes into dst when its capacity allows.
func (c *Client) callTCP(ctx context.Context, op Op, h, data, dst []byte) (rh, rd []byte, done bool, err error) {
	conn, ok, err := c.tcpConn(ctx)
	if !ok {
		if ctx.Err() != nil {
			return nil, nil, true, ctx.Err()
		}
		return nil, nil, false, err
	}
	deadline := time.Now().Add(requestTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	conn.SetDeadline(deadline)
	// A cancelled ctx ends the request at once.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	raw := conn.NetConn().(*rawConn)
	raw.startGather()
	w := bufio.NewWriterSize(conn, tcpBufBytes)
	err = writeFrame(w, uint8(op), h, data)
	if err == nil {
		err = w.Flush()
	}
	err = cmp.Or(err, raw.flush())
	var status uint8
	if err == nil {
		status, rh, rd, err = readAnswer(conn, dst)
	}
	if !stop() || err != nil {
		conn.Close()
		if ctx.Err() != nil {
			return nil, nil, true, ctx.Err()
		}
		return nil, nil, false, fmt.Errorf("relay %s: tcp: %w", c.addr, err)
	}
	conn.SetDeadline(time.Time{})
	c.putIdle(conn)
	if status != StatusOK {
		return nil, nil, true, &StatusError{Status: status, Msg: string(rh)}
	}
	return rh, rd, true, nil
}
