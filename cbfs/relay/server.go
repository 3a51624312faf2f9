package relay

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/quic-go/quic-go"
	"lukechampine.com/blake3/bao"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/internal/pebblelog"
	"github.com/cowboy-chain/cowboy/p2p"
)

// baoGroup is the Bao chunk-group exponent: 16 KiB groups, so the outboard
// tree of a 2 MiB shard is 8 KiB and a challenge proof a few hundred bytes.
const baoGroup = cbfs.BaoGroup

// Limits bound what one client can make the relay do. Zero fields take
// DefaultLimits.
type Limits struct {
	Capacity       uint64        // bytes of shards and manifests stored; default 64 GiB
	MaxConns       int           // concurrent connections; default 256
	MaxStreams     int64         // concurrent requests per connection; default 64
	ReqsPerSec     float64       // per connection; default 500
	ReqBurst       int           // default 1000
	BytesPerSec    float64       // request bytes per connection per second; default 512 MiB
	ByteBurst      int           // default 256 MiB (at least one largest shard)
	RequestTimeout time.Duration // reading a request and writing its answer; default 60 s
	ListPageBytes  int           // sealed manifests in one page of a listing; default 4 MiB
}

// DefaultLimits are sized for one relay on a small machine.
func DefaultLimits() Limits {
	return Limits{
		Capacity: 64 << 30, MaxConns: 256, MaxStreams: 64,
		ReqsPerSec: 500, ReqBurst: 1000, BytesPerSec: 512 << 20, ByteBurst: 256 << 20,
		RequestTimeout: 60 * time.Second, ListPageBytes: 4 << 20,
	}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Capacity == 0 {
		l.Capacity = d.Capacity
	}
	if l.MaxConns == 0 {
		l.MaxConns = d.MaxConns
	}
	if l.MaxStreams == 0 {
		l.MaxStreams = d.MaxStreams
	}
	if l.ReqsPerSec == 0 {
		l.ReqsPerSec = d.ReqsPerSec
	}
	if l.ReqBurst == 0 {
		l.ReqBurst = d.ReqBurst
	}
	if l.BytesPerSec == 0 {
		l.BytesPerSec = d.BytesPerSec
	}
	if l.ByteBurst == 0 {
		l.ByteBurst = d.ByteBurst
	}
	l.ByteBurst = max(l.ByteBurst, MaxShardBytes+MaxHeaderBytes)
	if l.RequestTimeout == 0 {
		l.RequestTimeout = d.RequestTimeout
	}
	if l.ListPageBytes == 0 {
		l.ListPageBytes = d.ListPageBytes
	}
	return l
}

// Config configures a relay.
type Config struct {
	Dir    string             // store directory: Pebble, and shard files under shards/
	Listen string             // ip:port: QUIC on UDP, and the bulk shard path on TCP (tcp.go)
	NoTCP  bool               // serve QUIC only (no TCP listener)
	Key    *crypto.PrivateKey // node key: the relay's identity (RelayID)
	Limits Limits
	Log    *slog.Logger
	Now    func() time.Time // clock for token expiry; time.Now if nil
}

// Server is a running relay.
type Server struct {
	cfg   Config
	lim   Limits
	id    cbfs.RelayID
	db    *pebble.DB
	udp   *net.UDPConn
	tcp   net.Listener // nil with Config.NoTCP
	tr    *quic.Transport
	ln    *quic.Listener
	log   *slog.Logger
	conns atomic.Int64

	files *shardFiles

	mu      sync.Mutex // serialises metadata read-modify-write (usage, path registration)
	used    uint64
	pending uint64 // bytes of shards being written, reserved against the capacity
	volUsed map[cbfs.VolumeID]uint64
	revoked map[[64]byte]uint64 // volume ‖ link ID -> when it may be forgotten
	// deferred holds the shards received with PutShardReq.Defer and not
	// yet made durable, by their meta key (barrier.go); their bytes are
	// counted in pending.
	deferred map[string]*deferredShard
	// syncMu runs one durability barrier at a time.
	syncMu sync.Mutex

	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	// Counters, for tests and logs.
	Refused   atomic.Int64 // requests refused (bad frame, denied, limits)
	PutShards atomic.Int64 // shards received (put shard requests that stored bytes)
	TCPReqs   atomic.Int64 // whole requests read over the TCP path
	Barriers  atomic.Int64 // durability barriers (OpSyncShards) that synced shards
}

// Key prefixes in Pebble.
const (
	pfxShard    = 's' // vol ‖ pathID ‖ hash -> shard bytes (stores written before shard files; files.go)
	pfxMeta     = 'o' // vol ‖ pathID ‖ hash -> shardMeta: the index of the shard files
	pfxManifest = 'm' // vol ‖ pathID -> storedManifest
	pfxPath     = 'p' // vol ‖ pathID -> path tags
	pfxUsage    = 'u' // vol -> u64 bytes
	pfxRevoked  = 'r' // vol ‖ link ID -> u64 forget-after
	pfxCursor   = 'c' // -> u64 last chain height whose revocations are applied
)

type shardMeta struct {
	Root     [32]byte        `cbor:"1,keyasint"`
	N        uint8           `cbor:"2,keyasint"`
	Proof    cbfs.ShardProof `cbor:"3,keyasint"`
	Outboard []byte          `cbor:"4,keyasint"`
}

type storedManifest struct {
	Seq    uint64 `cbor:"1,keyasint"`
	Sealed []byte `cbor:"2,keyasint"`
}

func key(p byte, parts ...[]byte) []byte {
	k := []byte{p}
	for _, x := range parts {
		k = append(k, x...)
	}
	return k
}

// New opens the store and binds the UDP port; Start begins serving.
func New(cfg Config) (*Server, error) {
	if cfg.Key == nil {
		return nil, errors.New("relay: no node key")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, lim: cfg.Limits.withDefaults(), id: cbfs.RelayID(cfg.Key.Address()), log: cfg.Log,
		volUsed: map[cbfs.VolumeID]uint64{}, revoked: map[[64]byte]uint64{}, deferred: map[string]*deferredShard{},
		files: &shardFiles{root: filepath.Join(cfg.Dir, shardsDirName)}}
	db, err := pebble.Open(cfg.Dir, &pebble.Options{Logger: pebblelog.Quiet{}})
	if err != nil {
		return nil, fmt.Errorf("relay: open store %s: %w", cfg.Dir, err)
	}
	s.db = db
	if err := s.load(); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.sweep(); err != nil {
		db.Close()
		return nil, err
	}
	ua, err := net.ResolveUDPAddr("udp", cfg.Listen)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("relay: listen address %q: %w", cfg.Listen, err)
	}
	if err := s.listen(ua, listenTCP); err != nil {
		db.Close()
		return nil, fmt.Errorf("relay: listen %q: %w", cfg.Listen, err)
	}
	s.tr = &quic.Transport{Conn: s.udp}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s, nil
}

// listenTries bounds the attempts to find a port number free on both UDP
// and TCP when the configured port is 0 (any).
const listenTries = 20

// listen binds UDP at ua and, unless Config.NoTCP, TCP on the same port
// number. With port 0 a port whose TCP side is taken is given back and
// another one tried. tcpOn binds the TCP side (listenTCP).
func (s *Server) listen(ua *net.UDPAddr, tcpOn func(*net.UDPConn) (net.Listener, error)) error {
	for try := 1; ; try++ {
		udp, err := net.ListenUDP("udp", ua)
		if err != nil {
			return err
		}
		if s.cfg.NoTCP {
			s.udp = udp
			return nil
		}
		tcp, err := tcpOn(udp)
		if err == nil {
			s.udp, s.tcp = udp, tcp
			return nil
		}
		udp.Close()
		if ua.Port != 0 || try == listenTries {
			return fmt.Errorf("tcp: %w", err)
		}
	}
}

// load rebuilds usage counters and the revocation set from the store.
func (s *Server) load() error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{pfxUsage}, UpperBound: []byte{pfxUsage + 1}})
	if err != nil {
		return fmt.Errorf("relay: load usage: %w", err)
	}
	for it.First(); it.Valid(); it.Next() {
		var v cbfs.VolumeID
		copy(v[:], it.Key()[1:])
		n := binary.BigEndian.Uint64(it.Value())
		s.volUsed[v] = n
		s.used += n
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("relay: load usage: %w", err)
	}
	it, err = s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{pfxRevoked}, UpperBound: []byte{pfxRevoked + 1}})
	if err != nil {
		return fmt.Errorf("relay: load revocations: %w", err)
	}
	// A revocation outlives the link it revokes by nothing: once the
	// link has expired it is refused anyway, so expired entries are
	// dropped here (the revocation set cannot grow without bound).
	now := uint64(s.cfg.Now().Unix())
	var stale [][]byte
	for it.First(); it.Valid(); it.Next() {
		var id [64]byte
		copy(id[:], it.Key()[1:])
		exp := binary.BigEndian.Uint64(it.Value())
		if exp <= now {
			stale = append(stale, bytes.Clone(it.Key()))
			continue
		}
		s.revoked[id] = exp
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("relay: load revocations: %w", err)
	}
	for _, k := range stale {
		if err := s.db.Delete(k, pebble.NoSync); err != nil {
			return fmt.Errorf("relay: prune revocations: %w", err)
		}
	}
	return nil
}

// ID is the relay's node address.
func (s *Server) ID() cbfs.RelayID { return s.id }

// Addr is the bound UDP address (TCP, unless Config.NoTCP, has the same).
func (s *Server) Addr() string { return s.udp.LocalAddr().String() }

// Start accepts connections until Close.
func (s *Server) Start() error {
	cert, err := p2p.NewNodeCertificate(s.cfg.Key)
	if err != nil {
		return err
	}
	tc := &tls.Config{
		MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13,
		Certificates: []tls.Certificate{cert}, ClientAuth: tls.RequireAnyClientCert,
		NextProtos: []string{ALPN}, SessionTicketsDisabled: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			_, err := p2p.VerifyNodeCertificate(raw, time.Now())
			return err
		},
	}
	ln, err := s.tr.Listen(tc, s.quicConfig())
	if err != nil {
		return fmt.Errorf("relay: listen: %w", err)
	}
	s.ln = ln
	s.wg.Add(1)
	go s.acceptLoop()
	if s.tcp != nil {
		s.wg.Add(1)
		go s.acceptTCP(s.tcp, tc)
	}
	s.log.Info("cbfs relay started", "id", fmt.Sprintf("0x%x", s.id), "addr", s.Addr())
	return nil
}

// Close stops serving and closes the store. It is idempotent.
func (s *Server) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.close() })
	return s.closeErr
}

// quicConfig is the listener's QUIC configuration: the shared transport
// settings, at most MaxStreams concurrent requests per connection, and no
// unidirectional streams (the protocol has none; -1 refuses them).
func (s *Server) quicConfig() *quic.Config {
	qc := transportConfig(serverHandshakeTimeout, serverIdleTimeout, 0)
	qc.MaxIncomingStreams, qc.MaxIncomingUniStreams = s.lim.MaxStreams, -1
	return qc
}

func (s *Server) close() error {
	s.cancel()
	if s.ln != nil {
		s.ln.Close()
	}
	s.tr.Close()
	s.udp.Close()
	if s.tcp != nil {
		s.tcp.Close()
	}
	s.wg.Wait()
	return s.db.Close()
}

func (s *Server) acceptLoop() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept(s.ctx)
		if err != nil {
			return
		}
		if s.conns.Add(1) > int64(s.lim.MaxConns) {
			s.conns.Add(-1)
			s.Refused.Add(1)
			conn.CloseWithError(codeFull, "too many connections")
			continue
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer s.conns.Add(-1)
			s.serveConn(conn)
		}()
	}
}

// Connection close codes.
const (
	codeShutdown  quic.ApplicationErrorCode = 0
	codeBadFrame  quic.ApplicationErrorCode = 1
	codeFull      quic.ApplicationErrorCode = 2
	codeBadClient quic.ApplicationErrorCode = 3
)

type bucket struct {
	mu          sync.Mutex
	rate, burst float64
	tokens      float64
	last        time.Time
}

// frameBytes is what a request costs in the per-connection byte budget:
// its header and its data.
func frameBytes(hdr, data []byte) float64 { return float64(len(hdr) + len(data)) }

// take spends n tokens at now, after refilling rate per second since the
// last take up to burst; false (and nothing spent) if fewer are left.
func (b *bucket) take(n float64, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	b.last = now
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}

func (s *Server) serveConn(conn *quic.Conn) {
	cs := conn.ConnectionState().TLS
	raw := make([][]byte, len(cs.PeerCertificates))
	for i, c := range cs.PeerCertificates {
		raw[i] = c.Raw
	}
	peer, err := p2p.VerifyNodeCertificate(raw, time.Now())
	if err != nil {
		conn.CloseWithError(codeBadClient, "bad certificate")
		return
	}
	now := time.Now()
	reqs := &bucket{rate: s.lim.ReqsPerSec, burst: float64(s.lim.ReqBurst), tokens: float64(s.lim.ReqBurst), last: now}
	byts := &bucket{rate: s.lim.BytesPerSec, burst: float64(s.lim.ByteBurst), tokens: float64(s.lim.ByteBurst), last: now}
	for {
		st, err := conn.AcceptStream(s.ctx)
		if err != nil {
			return
		}
		// Close waits for the streams too: a request still served when
		// the database closes would panic in Pebble (seen under load
		// when a client cancels a request and the relay then closes).
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			if err := s.serveStream(st, [20]byte(peer), reqs, byts); err != nil {
				s.Refused.Add(1)
				if errors.Is(err, ErrBadFrame) {
					conn.CloseWithError(codeBadFrame, "malformed frame")
				}
			}
		}()
	}
}

// requestError is an error answered to the client with a status.
type requestError struct {
	status uint8
	err    error
}

func (e *requestError) Error() string { return e.err.Error() }
func (e *requestError) Unwrap() error { return e.err }

func fail(status uint8, format string, a ...any) error {
	return &requestError{status, fmt.Errorf(format, a...)}
}

func (s *Server) serveStream(st *quic.Stream, peer [20]byte, reqs, byts *bucket) error {
	defer st.Close()
	st.SetDeadline(time.Now().Add(s.lim.RequestTimeout))
	if !reqs.take(1, time.Now()) {
		st.CancelRead(1)
		writeFrame(st, StatusFull, []byte("rate limited: requests"), nil)
		return fail(StatusFull, "rate limited")
	}
	op, hdr, data, err := readFrameInto(st, getBuf(), serverFirstAlloc, requestDataCap)
	defer func() { putBuf(data) }() // no op keeps a request's data
	if err != nil {
		st.CancelRead(1)
		if errors.Is(err, ErrBadFrame) {
			writeFrame(st, StatusInvalid, []byte(err.Error()), nil)
		}
		return err
	}
	if !byts.take(frameBytes(hdr, data), time.Now()) {
		writeFrame(st, StatusFull, []byte("rate limited: bytes"), nil)
		return fail(StatusFull, "rate limited")
	}
	rhdr, rdata, err := s.handle(Op(op), hdr, data, peer)
	if Op(op) == OpGetShard {
		defer putBuf(rdata) // from the pool (readShard); written by then
	}
	if err != nil {
		var re *requestError
		status := uint8(StatusInvalid)
		if errors.As(err, &re) {
			status = re.status
		}
		writeFrame(st, status, []byte(err.Error()), nil)
		return err
	}
	return writeFrame(st, StatusOK, rhdr, rdata)
}

// handle runs one request; it never panics on any input.
func (s *Server) handle(op Op, hdr, data []byte, peer [20]byte) (rh, rd []byte, err error) {
	switch op {
	case OpPutShard:
		var r PutShardReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "put shard: %v", err)
		}
		return nil, nil, s.putShard(&r, data, peer)
	case OpGetShard:
		var r ShardReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil || len(r.Hashes) != 1 {
			return nil, nil, fail(StatusInvalid, "get shard: bad request")
		}
		d, err := s.getShard(&r, peer)
		return nil, d, err
	case OpHas:
		var r ShardReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil || len(r.Hashes) > 4096 {
			return nil, nil, fail(StatusInvalid, "has: bad request")
		}
		resp, err := s.has(&r, peer)
		if err != nil {
			return nil, nil, err
		}
		b, err := cbfs.Marshal(resp)
		return b, nil, err
	case OpPutManifest:
		var r ManifestReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "put manifest: %v", err)
		}
		return nil, nil, s.putManifest(&r, data, peer)
	case OpGetManifest:
		var r ManifestReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "get manifest: %v", err)
		}
		m, err := s.getManifest(&r, peer)
		if err != nil {
			return nil, nil, err
		}
		b, err := cbfs.Marshal(&ManifestResp{Seq: m.Seq})
		return b, m.Sealed, err
	case OpList:
		var r ListReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "list: %v", err)
		}
		resp, err := s.list(&r, peer)
		if err != nil {
			return nil, nil, err
		}
		b, err := cbfs.Marshal(resp)
		return nil, b, err
	case OpDelete:
		var r ManifestReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "delete: %v", err)
		}
		return nil, nil, s.delete(&r, peer)
	case OpChallenge:
		var r ChallengeReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "challenge: %v", err)
		}
		return s.challenge(&r, peer)
	case OpRevoke:
		var r RevokeReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "revoke: %v", err)
		}
		return nil, nil, s.revoke(&r.Revocation)
	case OpPutProofs:
		var r ProofsReq
		var ents []ShardProofEntry
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "put proofs: %v", err)
		}
		if err := cbfs.Unmarshal(data, &ents); err != nil {
			return nil, nil, fail(StatusInvalid, "put proofs: %v", err)
		}
		return nil, nil, s.putProofs(&r, ents, peer)
	case OpStat:
		b, err := cbfs.Marshal(s.stat())
		return b, nil, err
	case OpDropShards:
		var r ShardReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil || len(r.Hashes) > 4096 {
			return nil, nil, fail(StatusInvalid, "drop shards: bad request")
		}
		return nil, nil, s.dropShards(&r, peer)
	case OpSyncShards:
		var r ShardReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil || len(r.Hashes) > MaxSyncShards {
			return nil, nil, fail(StatusInvalid, "sync shards: bad request")
		}
		return nil, nil, s.syncShards(&r, peer)
	case OpLink:
		var r LinkReq
		if err := cbfs.Unmarshal(hdr, &r); err != nil {
			return nil, nil, fail(StatusInvalid, "link: %v", err)
		}
		return nil, nil, s.link(&r, peer)
	}
	return nil, nil, fail(StatusInvalid, "unknown op %d", op)
}

func (s *Server) isRevoked(vol cbfs.VolumeID, id [32]byte) bool {
	var k [64]byte
	copy(k[:], vol[:])
	copy(k[32:], id[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.revoked[k]
	return ok
}

// authorize checks the token for perm on the request's object (or the
// whole volume if object is false) and, for writes, registers the object's
// path tags so no later request can claim it under another prefix.
func (s *Server) authorize(a *Auth, perm cbfs.Perm, peer [20]byte, object bool) (*cbfs.Verified, error) {
	tok, err := cbfs.DecodeToken(a.Token)
	if err != nil {
		return nil, fail(StatusDenied, "%v", err)
	}
	v, err := tok.Verify(uint64(s.cfg.Now().Unix()), s.isRevoked)
	if err != nil {
		return nil, fail(StatusDenied, "%v", err)
	}
	var tags []cbfs.Tag
	if object {
		if len(a.Tags) == 0 || len(a.Tags) > cbfs.MaxDepth {
			return nil, fail(StatusInvalid, "request names no object")
		}
		tags = a.Tags
	}
	if err := v.Allows(a.Vol, tags, perm, peer); err != nil {
		return nil, fail(StatusDenied, "%v", err)
	}
	if !object {
		return v, nil
	}
	// The stored tag chain of a path is authoritative: a request must
	// present exactly it (a prefix token cannot reach a file by lying
	// about the file's parents).
	pid := a.Tags[len(a.Tags)-1]
	pk := key(pfxPath, a.Vol[:], pid[:])
	enc, err := cbfs.Marshal(a.Tags)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	got, closer, err := s.db.Get(pk)
	switch {
	case err == nil:
		same := bytes.Equal(got, enc)
		closer.Close()
		if !same {
			return nil, fail(StatusDenied, "path tags do not match the stored object")
		}
	case errors.Is(err, pebble.ErrNotFound):
		if perm&cbfs.PermWrite == 0 {
			return nil, fail(StatusNotFound, "no such object")
		}
		// Not synced here: every write op ends with a synced commit, and
		// the WAL is sequential, so that sync makes this record durable
		// before the op is acknowledged.
		if err := s.db.Set(pk, enc, pebble.NoSync); err != nil {
			return nil, fmt.Errorf("relay: register path: %w", err)
		}
	default:
		return nil, fmt.Errorf("relay: read path: %w", err)
	}
	return v, nil
}

func (s *Server) addUsage(b *pebble.Batch, vol cbfs.VolumeID, delta int64) {
	n := int64(s.volUsed[vol]) + delta
	if n < 0 {
		n = 0
	}
	s.used = uint64(int64(s.used) - int64(s.volUsed[vol]) + n)
	s.volUsed[vol] = uint64(n)
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], uint64(n))
	b.Set(key(pfxUsage, vol[:]), v[:], nil)
}

func (s *Server) putShard(r *PutShardReq, data []byte, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	outboard, root := bao.EncodeBuf(data, baoGroup, true)
	if cbfs.ShardHash(root) != r.Hash {
		return fail(StatusInvalid, "shard bytes do not match their hash")
	}
	if int(r.Proof.ShardLen) != len(data) {
		return fail(StatusInvalid, "shard length %d, proof says %d", len(data), r.Proof.ShardLen)
	}
	if r.Root != ([32]byte{}) {
		if err := r.Proof.Verify(r.Root, int(r.N), r.Hash); err != nil {
			return fail(StatusInvalid, "shard proof: %v", err)
		}
	}
	meta, err := cbfs.Marshal(&shardMeta{Root: r.Root, N: r.N, Proof: r.Proof, Outboard: outboard})
	if err != nil {
		return err
	}
	vol, pid := r.Auth.Vol, r.Auth.Tags[len(r.Auth.Tags)-1]
	mk := key(pfxMeta, vol[:], pid[:], r.Hash[:])
	size := uint64(len(data) + len(meta))
	if r.Defer {
		return s.putDeferred(&deferredShard{vol: vol, pid: pid, hash: r.Hash, meta: meta, size: size}, mk, data)
	}
	s.mu.Lock()
	if s.held(mk) {
		s.mu.Unlock()
		return s.syncWAL() // already held (puts are idempotent), maybe not yet synced
	}
	if s.used+s.pending+size > s.lim.Capacity {
		s.mu.Unlock()
		return fail(StatusFull, "relay full: %d of %d bytes used", s.used, s.lim.Capacity)
	}
	s.pending += size
	s.mu.Unlock()

	// The bytes go to their file, durably, outside the lock: shards of
	// several segments are written at once (files.go says why this order
	// survives a crash).
	werr := s.files.write(vol, pid, r.Hash, data)

	s.mu.Lock()
	s.pending -= size
	if werr != nil {
		s.mu.Unlock()
		return werr
	}
	if s.held(mk) {
		s.mu.Unlock()
		return s.syncWAL()
	}
	// A delete of the path that ran while the file was written removed
	// it: the shard is not stored.
	if !s.files.exists(vol, pid, r.Hash) {
		s.mu.Unlock()
		return fail(StatusNotFound, "the file was deleted while its shard was stored")
	}
	b := s.db.NewBatch()
	defer b.Close()
	b.Set(mk, meta, nil)
	s.addUsage(b, vol, int64(size))
	s.PutShards.Add(1)
	// Committed in order under the lock (usage values are absolute), synced
	// after it, so concurrent puts share one WAL fsync.
	err = b.Commit(pebble.NoSync)
	s.mu.Unlock()
	if err != nil {
		return fmt.Errorf("relay: store shard meta: %w", err)
	}
	return s.syncWAL()
}

// held says whether the key exists.
func (s *Server) held(k []byte) bool {
	_, closer, err := s.db.Get(k)
	if err != nil {
		return false
	}
	closer.Close()
	return true
}

// syncWAL makes every commit so far durable: the WAL is written in commit
// order, so syncing it now covers each earlier NoSync commit.
func (s *Server) syncWAL() error {
	if err := s.db.LogData(nil, pebble.Sync); err != nil {
		return fmt.Errorf("relay: sync store: %w", err)
	}
	return nil
}

func (s *Server) putProofs(r *ProofsReq, ents []ShardProofEntry, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	for _, e := range ents {
		if err := e.Proof.Verify(r.Root, int(r.N), e.Hash); err != nil {
			return fail(StatusInvalid, "proof for %x: %v", e.Hash[:8], err)
		}
		mk := key(pfxMeta, r.Auth.Vol[:], pid[:], e.Hash[:])
		v, closer, err := s.db.Get(mk)
		if errors.Is(err, pebble.ErrNotFound) {
			return fail(StatusNotFound, "no shard %x", e.Hash[:8])
		}
		if err != nil {
			return fmt.Errorf("relay: read shard meta: %w", err)
		}
		var meta shardMeta
		uerr := cbfs.Unmarshal(v, &meta)
		closer.Close()
		if uerr != nil {
			return fmt.Errorf("relay: shard meta: %w", uerr)
		}
		if bao.EncodedSize(int(e.Proof.ShardLen), baoGroup, true) != len(meta.Outboard) {
			return fail(StatusInvalid, "proof length does not match the stored shard")
		}
		meta.Root, meta.N, meta.Proof = r.Root, r.N, e.Proof
		enc, err := cbfs.Marshal(&meta)
		if err != nil {
			return err
		}
		b.Set(mk, enc, nil)
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: store proofs: %w", err)
	}
	return nil
}

func (s *Server) getShard(r *ShardReq, peer [20]byte) ([]byte, error) {
	if _, err := s.authorize(&r.Auth, cbfs.PermRead, peer, true); err != nil {
		return nil, err
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	b, err := s.readShard(r.Auth.Vol, pid, r.Hashes[0], getBuf())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fail(StatusNotFound, "no such shard")
	}
	if err != nil {
		return nil, fmt.Errorf("relay: read shard: %w", err)
	}
	return b, nil
}

func (s *Server) has(r *ShardReq, peer [20]byte) (*HasResp, error) {
	if _, err := s.authorize(&r.Auth, cbfs.PermRead, peer, true); err != nil {
		if re := (*requestError)(nil); errors.As(err, &re) && re.status == StatusNotFound {
			return &HasResp{Have: make([]bool, len(r.Hashes))}, nil
		}
		return nil, err
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	resp := &HasResp{Have: make([]bool, len(r.Hashes))}
	for i, h := range r.Hashes {
		_, closer, err := s.db.Get(key(pfxMeta, r.Auth.Vol[:], pid[:], h[:]))
		if err == nil {
			closer.Close()
			resp.Have[i] = true
		}
	}
	return resp, nil
}

func (s *Server) putManifest(r *ManifestReq, data []byte, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	mk := key(pfxManifest, r.Auth.Vol[:], pid[:])
	enc, err := cbfs.Marshal(&storedManifest{Seq: r.Seq, Sealed: data})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var old int
	if v, closer, err := s.db.Get(mk); err == nil {
		var m storedManifest
		uerr := cbfs.Unmarshal(v, &m)
		old = len(v)
		closer.Close()
		if uerr == nil && m.Seq > r.Seq {
			return fail(StatusInvalid, "manifest seq %d older than stored %d", r.Seq, m.Seq)
		}
		// The same sequence with other bytes is a second writer (a repair
		// and an update of one file at once): the first one stays, so a
		// manifest whose replaced shards were dropped cannot come back.
		// The same bytes again are a retry, and fine.
		if uerr == nil && m.Seq == r.Seq && !bytes.Equal(m.Sealed, data) {
			return fail(StatusInvalid, "manifest seq %d already stored with other contents", r.Seq)
		}
	}
	if s.used+uint64(len(enc))-uint64(old) > s.lim.Capacity {
		return fail(StatusFull, "relay full")
	}
	b := s.db.NewBatch()
	defer b.Close()
	b.Set(mk, enc, nil)
	s.addUsage(b, r.Auth.Vol, int64(len(enc)-old))
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: store manifest: %w", err)
	}
	return nil
}

func (s *Server) getManifest(r *ManifestReq, peer [20]byte) (*storedManifest, error) {
	if _, err := s.authorize(&r.Auth, cbfs.PermRead, peer, true); err != nil {
		return nil, err
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	v, closer, err := s.db.Get(key(pfxManifest, r.Auth.Vol[:], pid[:]))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, fail(StatusNotFound, "no such file")
	}
	if err != nil {
		return nil, fmt.Errorf("relay: read manifest: %w", err)
	}
	defer closer.Close()
	var m storedManifest
	if err := cbfs.Unmarshal(v, &m); err != nil {
		return nil, fmt.Errorf("relay: stored manifest: %w", err)
	}
	return &m, nil
}

// The server's QUIC timeouts: a client has serverHandshakeTimeout to finish
// its handshake, and an idle connection is dropped after serverIdleTimeout.
const (
	serverHandshakeTimeout = 5 * time.Second
	serverIdleTimeout      = 30 * time.Second
)

func (s *Server) list(r *ListReq, peer [20]byte) (*ListResp, error) {
	v, err := s.authorize(&r.Auth, cbfs.PermRead, peer, false)
	if err != nil {
		return nil, err
	}
	lo := key(pfxManifest, r.Auth.Vol[:])
	if r.After != (cbfs.Tag{}) {
		lo = append(key(pfxManifest, r.Auth.Vol[:], r.After[:]), 0)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: key(pfxManifest+1, r.Auth.Vol[:])})
	if err != nil {
		return nil, fmt.Errorf("relay: list: %w", err)
	}
	defer it.Close()
	resp := &ListResp{}
	total := 0
	for it.SeekGE(lo); it.Valid(); it.Next() {
		if !bytes.HasPrefix(it.Key(), key(pfxManifest, r.Auth.Vol[:])) {
			break
		}
		pid := it.Key()[1+32:]
		tv, closer, err := s.db.Get(key(pfxPath, r.Auth.Vol[:], pid))
		if err != nil {
			continue
		}
		var tags []cbfs.Tag
		uerr := cbfs.Unmarshal(tv, &tags)
		closer.Close()
		if uerr != nil || v.Allows(r.Auth.Vol, tags, cbfs.PermRead, peer) != nil {
			continue
		}
		var m storedManifest
		if cbfs.Unmarshal(it.Value(), &m) != nil {
			continue
		}
		if total+len(m.Sealed) > s.lim.ListPageBytes && len(resp.Entries) > 0 {
			resp.More = true
			break
		}
		total += len(m.Sealed) + 64*len(tags)
		resp.Entries = append(resp.Entries, ListEntry{Tags: tags, Seq: m.Seq, Sealed: m.Sealed})
	}
	return resp, nil
}

func (s *Server) delete(r *ManifestReq, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	vol := r.Auth.Vol
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	var freed int64
	for _, p := range []byte{pfxShard, pfxMeta} {
		lo := key(p, vol[:], pid[:])
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixEnd(lo)})
		if err != nil {
			return fmt.Errorf("relay: delete: %w", err)
		}
		for it.First(); it.Valid(); it.Next() {
			if p == pfxMeta { // a shard is counted as its bytes and its meta
				freed += s.shardUsage(vol, pid, it.Key()[len(lo):], it.Value())
			}
			b.Delete(bytes.Clone(it.Key()), nil)
		}
		it.Close()
	}
	mk := key(pfxManifest, vol[:], pid[:])
	if v, closer, err := s.db.Get(mk); err == nil {
		freed += int64(len(v))
		closer.Close()
	}
	b.Delete(mk, nil)
	b.Delete(key(pfxPath, vol[:], pid[:]), nil)
	s.addUsage(b, vol, -freed)
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: delete: %w", err)
	}
	// The index is gone first: a crash now leaves files that the startup
	// sweep removes, never an index entry without its file.
	if err := s.files.removePath(vol, pid); err != nil {
		return fmt.Errorf("relay: delete shard files: %w", err)
	}
	return nil
}

// shardUsage is what one indexed shard of path pid counts in the usage:
// its index entry, and its bytes unless its file is linked under another
// path too (then they are counted once, under whichever path keeps the
// file last). Called under s.mu, before the entry or file is removed.
func (s *Server) shardUsage(vol cbfs.VolumeID, pid cbfs.Tag, hash []byte, meta []byte) int64 {
	n := int64(len(meta))
	var h cbfs.ShardHash
	copy(h[:], hash)
	if s.files.shared(vol, pid, h) {
		return n
	}
	var m shardMeta
	if cbfs.Unmarshal(meta, &m) == nil {
		n += int64(m.Proof.ShardLen)
	}
	return n
}

// link gives every shard held for r.From to r.To as well, by hard links
// to the same files (no bytes are copied) and copies of their index
// entries (hash, proof, outboard). The files are linked and their
// directory synced before the index entries are committed: a crash in
// between leaves unindexed links that the startup sweep removes. A
// linked shard's bytes are counted once in the usage (shardUsage); only
// its index entry counts again.
func (s *Server) link(r *LinkReq, peer [20]byte) error {
	if r.From.Vol != r.To.Vol {
		return fail(StatusInvalid, "link: paths of two volumes")
	}
	if _, err := s.authorize(&r.From, cbfs.PermRead, peer, true); err != nil {
		return err
	}
	if _, err := s.authorize(&r.To, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	vol := r.From.Vol
	from, to := r.From.Tags[len(r.From.Tags)-1], r.To.Tags[len(r.To.Tags)-1]
	if from == to {
		return fail(StatusInvalid, "link: a path to itself")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	var added int64
	linked := false
	for _, p := range []byte{pfxShard, pfxMeta} {
		lo := key(p, vol[:], from[:])
		it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixEnd(lo)})
		if err != nil {
			return fmt.Errorf("relay: link: %w", err)
		}
		for it.First(); it.Valid(); it.Next() {
			var h cbfs.ShardHash
			copy(h[:], it.Key()[len(lo):])
			nk := key(p, vol[:], to[:], h[:])
			if s.held(nk) {
				continue
			}
			if p == pfxMeta {
				added += int64(len(it.Value()))
				if !s.files.exists(vol, from, h) {
					// Shard bytes kept in Pebble (older stores) are
					// copied with the entry below: counted again.
					var m shardMeta
					if cbfs.Unmarshal(it.Value(), &m) == nil {
						added += int64(m.Proof.ShardLen)
					}
				} else {
					if err := s.files.ensureDir(s.files.pathDir(vol, to)); err != nil {
						it.Close()
						return fmt.Errorf("relay: link: %w", err)
					}
					err := os.Link(s.files.path(vol, from, h), s.files.path(vol, to, h))
					if err != nil && !errors.Is(err, fs.ErrExist) {
						it.Close()
						return fmt.Errorf("relay: link shard file: %w", err)
					}
					linked = true
				}
			}
			b.Set(nk, bytes.Clone(it.Value()), nil)
		}
		it.Close()
	}
	if linked {
		if err := syncDir(s.files.pathDir(vol, to)); err != nil {
			return fmt.Errorf("relay: link: %w", err)
		}
	}
	if b.Empty() {
		return s.syncWAL() // the path registration, if new
	}
	s.addUsage(b, vol, added)
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: link: %w", err)
	}
	return nil
}

// dropShards deletes the named shards of one file (those it holds): the
// index entries first, then the files (as delete).
func (s *Server) dropShards(r *ShardReq, peer [20]byte) error {
	if _, err := s.authorize(&r.Auth, cbfs.PermWrite, peer, true); err != nil {
		return err
	}
	vol, pid := r.Auth.Vol, r.Auth.Tags[len(r.Auth.Tags)-1]
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	var freed int64
	var gone []cbfs.ShardHash
	for _, h := range r.Hashes {
		mk := key(pfxMeta, vol[:], pid[:], h[:])
		v, closer, err := s.db.Get(mk)
		if errors.Is(err, pebble.ErrNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("relay: drop shards: %w", err)
		}
		freed += s.shardUsage(vol, pid, h[:], v)
		closer.Close()
		b.Delete(mk, nil)
		b.Delete(key(pfxShard, vol[:], pid[:], h[:]), nil)
		gone = append(gone, h)
	}
	if len(gone) == 0 {
		return nil
	}
	s.addUsage(b, vol, -freed)
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("relay: drop shards: %w", err)
	}
	for _, h := range gone {
		if err := os.Remove(s.files.path(vol, pid, h)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("relay: drop shard file: %w", err)
		}
	}
	return nil
}

func (s *Server) challenge(r *ChallengeReq, peer [20]byte) ([]byte, []byte, error) {
	if _, err := s.authorize(&r.Auth, cbfs.PermRead, peer, true); err != nil {
		return nil, nil, err
	}
	if r.Length == 0 || r.Length > MaxChallengeBytes {
		return nil, nil, fail(StatusInvalid, "challenge length %d outside 1..%d", r.Length, MaxChallengeBytes)
	}
	pid := r.Auth.Tags[len(r.Auth.Tags)-1]
	meta, slice, err := s.slice(r.Auth.Vol, pid, r.Hash, r.Offset, r.Length)
	if err != nil {
		return nil, nil, err
	}
	rc := &cbfs.CustodyReceipt{Relay: s.id, Volume: r.Auth.Vol, PathID: pid, Root: meta.Root, N: meta.N, Hash: r.Hash, Proof: meta.Proof}
	if err := cbfs.SignCustody(s.cfg.Key, rc); err != nil {
		return nil, nil, err
	}
	h, err := cbfs.Marshal(&ChallengeResp{Root: meta.Root, N: meta.N, Proof: meta.Proof, Receipt: rc})
	return h, slice, err
}

// AnswerChainChallenge is the Bao slice of a shard range that an on-chain
// challenge (Relay Registry "challenge", cbfs.ChallengeRange) asks this
// relay for; the operator sends it back in a "respond" transaction.
func (s *Server) AnswerChainChallenge(vol cbfs.VolumeID, pid cbfs.Tag, hash cbfs.ShardHash, offset, length uint64) ([]byte, error) {
	_, slice, err := s.slice(vol, pid, hash, offset, length)
	return slice, err
}

// slice proves [offset, offset+length) of a held shard with its Bao
// outboard tree.
func (s *Server) slice(vol cbfs.VolumeID, pid cbfs.Tag, hash cbfs.ShardHash, offset, length uint64) (*shardMeta, []byte, error) {
	mv, mc, err := s.db.Get(key(pfxMeta, vol[:], pid[:], hash[:]))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil, fail(StatusNotFound, "no such shard")
	}
	if err != nil {
		return nil, nil, fmt.Errorf("relay: read shard meta: %w", err)
	}
	var meta shardMeta
	uerr := cbfs.Unmarshal(mv, &meta)
	mc.Close()
	if uerr != nil {
		return nil, nil, fmt.Errorf("relay: shard meta: %w", uerr)
	}
	if meta.Root == ([32]byte{}) {
		return nil, nil, fail(StatusNotFound, "shard has no proof yet")
	}
	shard, err := s.openShard(vol, pid, hash)
	if err != nil {
		return nil, nil, fail(StatusNotFound, "shard missing")
	}
	defer shard.Close()
	size := uint64(shard.Size())
	// length first, so size-length cannot wrap: the range is inside the
	// shard exactly when offset+length <= size, without computing a sum
	// that could overflow.
	if length == 0 || length > size || offset > size-length {
		return nil, nil, fail(StatusInvalid, "range %d+%d outside the %d-byte shard", offset, length, size)
	}
	var out bytes.Buffer
	group := uint64(1024 << baoGroup)
	start := offset / group * group
	data := io.NewSectionReader(shard, int64(start), int64(size-start))
	if err := bao.ExtractSlice(&out, data, bytes.NewReader(meta.Outboard), baoGroup, offset, length); err != nil {
		return nil, nil, fmt.Errorf("relay: challenge slice: %w", err)
	}
	return &meta, out.Bytes(), nil
}

// VerifyChallenge checks a challenge answer: the Bao slice proves the
// range against hash, and the Merkle proof ties hash to the expected root.
// It returns the proven bytes.
func VerifyChallenge(root [32]byte, hash cbfs.ShardHash, offset, length uint64, resp *ChallengeResp, slice []byte) ([]byte, error) {
	if resp.Root != root {
		return nil, errors.New("relay: challenge answered for another root")
	}
	if err := resp.Proof.Verify(root, int(resp.N), hash); err != nil {
		return nil, fmt.Errorf("relay: challenge: %w", err)
	}
	data, ok := bao.VerifySlice(slice, baoGroup, offset, length, hash)
	if !ok {
		return nil, errors.New("relay: challenge slice does not verify against the shard hash")
	}
	return data, nil
}

func (s *Server) revoke(r *cbfs.Revocation) error {
	vol, err := r.Verify()
	if err != nil {
		return fail(StatusDenied, "%v", err)
	}
	return s.addRevocation(vol, r.Link, r.Expiry)
}

// addRevocation keeps a revocation, keyed by volume: an owner can only
// revoke links of its own volumes.
func (s *Server) addRevocation(vol cbfs.VolumeID, link [32]byte, expiry uint64) error {
	var k [64]byte
	copy(k[:], vol[:])
	copy(k[32:], link[:])
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], expiry)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.db.Set(key(pfxRevoked, k[:]), v[:], pebble.Sync); err != nil {
		return fmt.Errorf("relay: store revocation: %w", err)
	}
	s.revoked[k] = expiry
	return nil
}

func (s *Server) stat() *StatResp {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := &StatResp{ID: s.id, Used: s.used, Capacity: s.lim.Capacity}
	for v, n := range s.volUsed {
		resp.Volumes = append(resp.Volumes, VolumeUsage{Vol: v, Bytes: n})
	}
	sortUsage(resp.Volumes)
	return resp
}
