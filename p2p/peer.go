package p2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/quic-go/quic-go"
)

// Lanes: lane 0 carries control frames (Hello, peer exchange); lane t
// carries topic t. Each lane is one unidirectional QUIC stream per
// direction, so a large block in flight never holds up a vote.
const numLanes = numTopics + 1

// laneUrgency is the RFC 9218 urgency per lane (lower is sooner): votes
// and proposals before control, control before blocks and transactions.
var laneUrgency = [numLanes]int8{2, 5, 4, 1, 0}

// peer is one established, Hello-checked connection.
type peer struct {
	h       *Host
	id      PeerID
	conn    *quic.Conn
	inbound bool
	addr    string // announced address, "" if unusable
	height  uint64
	inc     [8]byte   // the incarnation its Hello announced
	since   time.Time // when the Hello exchange completed

	ctrlOut *quic.SendStream    // our control stream (lane 0)
	ctrlIn  *quic.ReceiveStream // the peer's control stream, which carried its Hello

	lanes [numLanes]lane
	msgs  *tokenBucket // frames received
	bytes *tokenBucket // body bytes received
}

// lane is a bounded outbound queue drained by one writer goroutine.
type lane struct {
	mu    sync.Mutex
	q     [][]byte
	size  int
	wake  chan struct{} // capacity 1: "the queue is not empty"
	limit *Limits
}

// enqueue adds an encoded frame to lane i and reports false if the lane is
// full (the frame is dropped).
func (p *peer) enqueue(i int, b []byte) bool {
	l := &p.lanes[i]
	l.mu.Lock()
	if len(l.q) >= l.limit.SendQueueLen || l.size+len(b) > l.limit.SendQueueBytes {
		l.mu.Unlock()
		return false
	}
	l.q = append(l.q, b)
	l.size += len(b)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

func (l *lane) take() [][]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	q := l.q
	l.q, l.size = nil, 0
	return q
}

// admit charges one frame of n body bytes to the peer's token buckets.
func (p *peer) admit(n int) error {
	now := time.Now()
	if !p.msgs.take(1, now) {
		return fmt.Errorf("%w: frames/s", errRateLimited)
	}
	if !p.bytes.take(float64(n), now) {
		return fmt.Errorf("%w: bytes/s", errRateLimited)
	}
	return nil
}

// setup runs the Hello exchange on a TLS-verified connection and, if the
// peer belongs to our network and there is room, registers it and starts
// its goroutines. On any failure the connection is closed.
func (h *Host) setup(conn *quic.Conn, inbound bool) (*peer, error) {
	p, err := h.handshake(conn, inbound)
	if err != nil {
		return nil, err
	}
	if err := h.register(p); err != nil {
		return nil, err
	}
	return p, nil
}

func (h *Host) handshake(conn *quic.Conn, inbound bool) (*peer, error) {
	id, err := peerIDOf(conn.ConnectionState().TLS)
	if err != nil { // unreachable: VerifyPeerCertificate accepted it
		conn.CloseWithError(codeBadHello, "certificate")
		return nil, err
	}
	deadline := time.Now().Add(h.lim.HandshakeTimeout)
	ctx, cancel := context.WithDeadline(h.ctx, deadline)
	defer cancel()

	var height uint64
	if h.cfg.Height != nil {
		height = h.cfg.Height()
	}
	ctrl, err := conn.OpenUniStream()
	if err != nil {
		conn.CloseWithError(codeStream, "open control stream")
		return nil, fmt.Errorf("p2p: %s: open control stream: %w", id, err)
	}
	ctrl.SetPriority(laneUrgency[0], false)
	ctrl.SetWriteDeadline(deadline)
	if _, err := ctrl.Write(encodeFrame(&frame{kind: kindHello, hello: hello{
		Version: protocolVersion, ChainID: h.cfg.ChainID, GenesisHash: h.cfg.GenesisHash,
		NodeID: h.id, Height: height, Incarnation: h.inc, ListenAddr: h.addr,
	}})); err != nil {
		conn.CloseWithError(codeStream, "write hello")
		return nil, fmt.Errorf("p2p: %s: send hello: %w", id, err)
	}
	ctrl.SetWriteDeadline(time.Time{})

	// QUIC hands out a peer's streams in the order it opened them, and
	// both sides open the control stream first, so the first stream
	// accepted carries the Hello.
	in, err := conn.AcceptUniStream(ctx)
	if err != nil {
		h.noteRemoteRefusal(id, err)
		conn.CloseWithError(codeBadHello, "no hello")
		return nil, fmt.Errorf("p2p: %s: await hello: %w", id, err)
	}
	p := &peer{h: h, id: id, conn: conn, inbound: inbound}
	now := time.Now()
	p.msgs = newTokenBucket(h.lim.MsgsPerSec, h.lim.MsgBurst, now)
	p.bytes = newTokenBucket(h.lim.BytesPerSec, h.lim.ByteBurst, now)
	for i := range p.lanes {
		p.lanes[i] = lane{wake: make(chan struct{}, 1), limit: &h.lim}
	}
	in.SetReadDeadline(deadline)
	f, err := readFrame(in, &h.lim, p.admit)
	if err == nil {
		err = h.checkHello(id, f)
	}
	if err != nil {
		if _, _, bad := penaltyFor(err); bad {
			if !errors.Is(err, errWrongNetwork) && !errors.Is(err, ErrFrameTooLarge) && !errors.Is(err, ErrBadFrame) {
				err = fmt.Errorf("%w: %v", errBadHello, err)
			}
			h.misbehave(p, err)
		} else {
			h.noteRemoteRefusal(id, err)
			err = fmt.Errorf("%w: %v", errBadHello, err)
			conn.CloseWithError(codeBadHello, "no hello")
		}
		return nil, fmt.Errorf("p2p: %s: %w", id, err)
	}
	in.SetReadDeadline(time.Time{})
	p.height = f.hello.Height
	p.inc = f.hello.Incarnation
	p.since = time.Now()
	p.addr = announcedAddr(conn.RemoteAddr(), f.hello.ListenAddr)
	p.ctrlOut, p.ctrlIn = ctrl, in
	return p, nil
}

// noteRemoteRefusal bans a peer that closed the handshake saying we are on
// different networks: it may have read our Hello before we read its own,
// and redialling it would only fail again. Believing it costs nothing, as
// it refuses us anyway.
func (h *Host) noteRemoteRefusal(id PeerID, err error) {
	var ae *quic.ApplicationError
	if errors.As(err, &ae) && ae.Remote && ae.ErrorCode == codeWrongNetwork {
		h.scores.penalize(id, penaltyWrongNet, time.Now())
	}
}

// checkHello checks that the peer is on our network and tells the truth
// about its ID.
func (h *Host) checkHello(id PeerID, f *frame) error {
	if f.kind != kindHello {
		return fmt.Errorf("%w: first frame is %s", errBadHello, frameName(f.kind, f.topic))
	}
	hl := &f.hello
	switch {
	case hl.Version != protocolVersion:
		return fmt.Errorf("%w: protocol version %d, want %d", errWrongNetwork, hl.Version, protocolVersion)
	case hl.ChainID != h.cfg.ChainID:
		return fmt.Errorf("%w: chain id %d, want %d", errWrongNetwork, hl.ChainID, h.cfg.ChainID)
	case hl.GenesisHash != h.cfg.GenesisHash:
		return fmt.Errorf("%w: genesis %x, want %x", errWrongNetwork, hl.GenesisHash[:8], h.cfg.GenesisHash[:8])
	case hl.NodeID != id:
		return fmt.Errorf("%w: hello names %s, certificate %s", errBadHello, hl.NodeID, id)
	}
	return nil
}

// register adds p to the peer set, resolving a second connection to the
// same node, and starts its goroutines.
func (h *Host) register(p *peer) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		p.conn.CloseWithError(codeShutdown, "shutdown")
		return ErrClosed
	}
	old := h.peers[p.id]
	if old != nil && !keepNew(h.id, old, p) {
		h.mu.Unlock()
		p.conn.CloseWithError(codeDuplicate, "duplicate connection")
		return fmt.Errorf("%w: %s", errDuplicateConn, p.id)
	}
	if old == nil && len(h.peers) >= h.cfg.MaxPeers {
		h.mu.Unlock()
		h.refuseFull(p)
		return fmt.Errorf("%w: refusing %s", errHostFull, p.id)
	}
	h.peers[p.id] = p
	want := len(h.peers) < h.cfg.MaxPeers
	// Counted under h.mu, which Close takes before waiting.
	h.wg.Add(numLanes + 1)
	h.mu.Unlock()

	if old != nil {
		why := "replaced by a newer connection"
		if old.inc != p.inc {
			why = "peer restarted (new incarnation)"
			h.log.Info("p2p peer restarted; old connection replaced", "peer", p.id)
		}
		old.conn.CloseWithError(codeDuplicate, why)
	}
	if p.addr != "" {
		h.book.add(p.addr, p.id, false)
		h.table.seen(p.id, p.addr)
	}
	h.log.Info("p2p peer connected", "peer", p.id, "addr", p.addr, "inbound", p.inbound)
	for i := range numLanes {
		go p.writeLoop(i)
	}
	go p.run()
	p.enqueue(0, encodeFrame(&frame{kind: kindRecord, record: h.rec}))
	if want {
		p.enqueue(0, encodeFrame(&frame{kind: kindFindNode, target: h.id}))
		if !h.cfg.NoPex {
			p.enqueue(0, encodeFrame(&frame{kind: kindPexRequest}))
		}
	}
	return nil
}

// refuseFull turns away a peer when this node has MaxPeers, but first
// gives it our peers' addresses: a full bootstrap node still bootstraps.
// The peer gets a moment to read them before the connection closes.
func (h *Host) refuseFull(p *peer) {
	p.ctrlOut.SetWriteDeadline(time.Now().Add(time.Second))
	if _, err := p.ctrlOut.Write(encodeFrame(&frame{kind: kindPexResponse, peers: h.pexSample(p.id)})); err == nil {
		p.ctrlOut.Close()
		t := time.NewTimer(time.Second)
		select {
		case <-p.conn.Context().Done():
		case <-h.ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
	p.conn.CloseWithError(codeFull, "max peers")
}

// keepNew decides between two connections to the same node. A new
// incarnation means the peer restarted: its old connection is dead (after
// kill -9 nothing told us), so the new one wins whatever the direction;
// the restarted peer holds only the new one, so both ends agree. Within
// one incarnation both ends must make the same choice without talking:
// between opposite directions keep the one dialled by the smaller ID; in
// the same direction the newer one wins.
func keepNew(self PeerID, old, nw *peer) bool {
	if old.inc != nw.inc {
		return true
	}
	if old.inbound == nw.inbound {
		return true
	}
	dialerOfNew := self
	if nw.inbound {
		dialerOfNew = nw.id
	}
	other := nw.id
	if nw.inbound {
		other = self
	}
	return bytes.Compare(dialerOfNew[:], other[:]) < 0
}

// run reads the control stream, accepts the peer's topic streams and, when
// the connection ends, unregisters the peer.
func (p *peer) run() {
	h := p.h
	defer h.wg.Done()
	var readers sync.WaitGroup
	readers.Go(func() { p.readLoop(p.ctrlIn) })
	for {
		s, err := p.conn.AcceptUniStream(p.conn.Context())
		if err != nil {
			break
		}
		readers.Go(func() { p.readLoop(s) })
	}
	p.conn.CloseWithError(codeShutdown, "")
	readers.Wait()

	h.mu.Lock()
	if h.peers[p.id] == p {
		delete(h.peers, p.id)
	}
	h.mu.Unlock()
	if p.addr != "" {
		var ae *quic.ApplicationError
		if errors.As(context.Cause(p.conn.Context()), &ae) && ae.Remote && ae.ErrorCode == codeFull {
			h.book.refused(p.addr, time.Now())
		} else {
			h.book.disconnected(p.addr, time.Since(p.since), time.Now())
		}
	}
	h.log.Info("p2p peer disconnected", "peer", p.id, "cause", context.Cause(p.conn.Context()))
}

// readLoop reads and handles frames from one incoming stream until the
// stream or connection ends or the peer misbehaves.
func (p *peer) readLoop(s *quic.ReceiveStream) {
	for {
		f, err := readFrame(s, &p.h.lim, p.admit)
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) && p.conn.Context().Err() == nil {
				// The peer ended its stream inside a frame.
				err = fmt.Errorf("%w: stream ends inside a frame", ErrBadFrame)
			}
			if _, _, bad := penaltyFor(err); bad {
				p.h.misbehave(p, err)
			}
			return
		}
		if err := p.handle(f); err != nil {
			p.h.misbehave(p, err)
			return
		}
	}
}

// handle acts on one frame after the handshake.
func (p *peer) handle(f *frame) error {
	h := p.h
	switch f.kind {
	case kindHello:
		return fmt.Errorf("%w: second hello", ErrBadFrame)
	case kindPexRequest:
		p.enqueue(0, encodeFrame(&frame{kind: kindPexResponse, peers: h.pexSample(p.id)}))
	case kindFindNode:
		p.enqueue(0, encodeFrame(&frame{kind: kindNodes, nodes: h.table.closestRecords(f.target, kBucket, p.id)}))
	case kindRecord:
		f.record.ID = p.id
		if err := h.records.verify(&f.record); err != nil {
			return err
		}
		h.table.setRecord(f.record)
	case kindNodes:
		// Every record must be signed by its node, or the answer is
		// refused whole: its sender made or passed on a forgery.
		for i := range f.nodes {
			if err := h.records.verify(&f.nodes[i].Rec); err != nil {
				return err
			}
		}
		for _, e := range f.nodes {
			if e.Rec.ID == h.id || e.Rec.ID.IsZero() {
				continue
			}
			if a := e.Rec.dialAddr(e.Observed); a != "" {
				h.book.add(a, e.Rec.ID, false)
			}
		}
	case kindPexResponse:
		for _, e := range f.peers {
			if e.ID != h.id && !e.ID.IsZero() {
				h.book.add(e.Addr, e.ID, false)
			}
		}
	case kindGossip:
		id := msgID(f.topic, f.payload)
		if !h.seen.add(id) {
			h.nDup.Add(1)
			return nil
		}
		// The ID is marked seen before validation, so an invalid message
		// is checked once, not once per peer that relays it.
		if h.cfg.Validate != nil {
			if err := h.cfg.Validate(f.topic, p.id, f.payload); err != nil {
				h.nRejected.Add(1)
				h.log.Debug("p2p gossip rejected", "peer", p.id, "topic", f.topic, "err", err)
				return nil
			}
		}
		h.deliver(Message{Topic: f.topic, From: p.id, Payload: f.payload, ID: id})
		if !h.holdsRelay(f.topic) {
			h.broadcast(f, p.id, true)
		}
	case kindDirect:
		h.deliver(Message{Topic: f.topic, From: p.id, Payload: f.payload, Direct: true})
	}
	return nil
}

// pexSample lists up to maxPexEntries connected peers other than the
// asker: addresses we have seen work, never hearsay.
func (h *Host) pexSample(asker PeerID) []peerAddr {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]peerAddr, 0, min(len(h.peers), maxPexEntries))
	for _, q := range h.peers { // map order: a different sample each time
		if len(out) == maxPexEntries {
			break
		}
		if q.id != asker && q.addr != "" {
			out = append(out, peerAddr{ID: q.id, Addr: q.addr})
		}
	}
	return out
}

// writeLoop drains lane i into its stream (the control stream, or a topic
// stream opened on first use).
func (p *peer) writeLoop(i int) {
	defer p.h.wg.Done()
	l := &p.lanes[i]
	ctx := p.conn.Context()
	var s *quic.SendStream
	if i == 0 {
		s = p.ctrlOut
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.wake:
		}
		for _, b := range l.take() {
			if s == nil {
				var err error
				if s, err = p.conn.OpenUniStreamSync(ctx); err != nil {
					return
				}
				s.SetPriority(laneUrgency[i], false)
			}
			if _, err := s.Write(b); err != nil {
				p.conn.CloseWithError(codeStream, "write failed")
				return
			}
		}
	}
}
