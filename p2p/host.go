package p2p

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Config is everything a Host needs. Key, ListenAddr and ChainID are
// required; zero values elsewhere take the documented defaults.
type Config struct {
	Key         *crypto.PrivateKey // node key: the peer identity (not a validator's BLS key)
	ListenAddr  string             // UDP "host:port" to listen and dial from, e.g. "0.0.0.0:26656" or "127.0.0.1:0"
	Bootstrap   []string           // "ip:port" (any node) or "0x<id>@ip:port" (that node only); redialled with backoff forever
	ChainID     uint64             // must match the peer's Hello
	GenesisHash [32]byte           // must match the peer's Hello
	MaxPeers    int                // connections kept, inbound and outbound together; default 50
	Limits      Limits             // zero fields take DefaultLimits

	// Height, if set, is called for each Hello so peers learn how far this
	// node is (a hint for block sync; never trusted for consensus). It is
	// called from network goroutines: it must be fast and concurrency-safe.
	Height func() uint64

	// Validate, if set, is called for each new gossip message before it is
	// delivered or relayed; an error drops it (counted in Stats.Rejected),
	// so invalid transactions and blocks stop at the first honest node
	// [Network Layer: blocks are relayed by validators]. It runs on the
	// reader of that peer's topic stream, so a slow check slows only that
	// peer (QUIC flow control pushes back on it). Nil accepts everything.
	Validate func(topic Topic, from PeerID, payload []byte) error

	// HoldRelay lists topics whose gossip is delivered but not relayed
	// until the application has checked it and calls Relay: a check that
	// needs the node's own state (a block's certificates against the
	// validator set) runs on the node's event loop, not in Validate, and
	// an honest node never forwards what it has not checked, so only the
	// sender of an invalid message is scored down (Penalize).
	HoldRelay []Topic

	DialInterval time.Duration // how often to dial more peers when below MaxPeers; default 1 s
	PexInterval  time.Duration // how often to ask peers for addresses when below MaxPeers; default 30 s
	DHTInterval  time.Duration // how often to run DHT lookups (own ID, a random ID) when below MaxPeers; default 10 s
	// NoPex turns off asking for peer exchange (answers are still given),
	// leaving discovery to the DHT; for tests of the DHT alone.
	NoPex        bool
	ReconnectMin time.Duration // first redial backoff; doubles per failure; default 500 ms
	ReconnectMax time.Duration // backoff cap; default 1 min

	Logger *slog.Logger // default: discard
}

// Message is a payload received from a peer. Payload is shared with other
// subscribers and with relaying: read it, never modify it.
type Message struct {
	Topic   Topic
	From    PeerID // the neighbour that sent it; for gossip the relayer, not necessarily the origin
	Payload []byte
	ID      MsgID // gossip only: BLAKE3(topic || payload); zero for Direct
	Direct  bool  // sent with Send to this node only, not gossip
}

// PeerInfo describes one connected peer, for RPC and logs.
type PeerInfo struct {
	ID      PeerID
	Addr    string // address other nodes can dial: observed IP, announced port
	Remote  string // the UDP address of this connection
	Inbound bool   // the peer dialled us
	Height  uint64 // from its Hello
	Score   int    // 0 is clean; misbehaviour lowers it
}

// Stats are counters since New, for metrics and tests.
type Stats struct {
	Duplicates      uint64 // gossip frames dropped because their ID was seen already
	DroppedInbound  uint64 // messages dropped because a subscriber's channel was full
	DroppedOutbound uint64 // frames dropped because a peer's send queue was full
	Violations      uint64 // connections closed for misbehaviour (garbage, oversize, rate, wrong network)
	Rejected        uint64 // gossip messages refused by Config.Validate (not delivered, not relayed)
}

// Host errors that callers may want to tell apart.
var (
	ErrClosed        = errors.New("p2p: host closed")
	ErrNotConnected  = errors.New("p2p: peer not connected")
	ErrQueueFull     = errors.New("p2p: send queue to peer is full")
	ErrTooLarge      = errors.New("p2p: payload larger than its topic's cap")
	ErrUnknownTopic  = errors.New("p2p: unknown topic")
	errSelf          = errors.New("p2p: connected to self")
	errBanned        = errors.New("p2p: peer is banned")
	errRateLimited   = errors.New("p2p: peer over its rate limit")
	errWrongNetwork  = errors.New("p2p: peer is on another network")
	errBadHello      = errors.New("p2p: bad hello")
	errHostFull      = errors.New("p2p: max peers reached")
	errDuplicateConn = errors.New("p2p: duplicate connection")
)

// Application error codes sent in QUIC CONNECTION_CLOSE, so the other side
// can log why it was dropped.
const (
	codeShutdown     quic.ApplicationErrorCode = 0
	codeBadFrame     quic.ApplicationErrorCode = 1
	codeTooLarge     quic.ApplicationErrorCode = 2
	codeRateLimit    quic.ApplicationErrorCode = 3
	codeWrongNetwork quic.ApplicationErrorCode = 4
	codeBadHello     quic.ApplicationErrorCode = 5
	codeDuplicate    quic.ApplicationErrorCode = 6
	codeFull         quic.ApplicationErrorCode = 7
	codeStream       quic.ApplicationErrorCode = 8
	// codeInvalid = 9 (relay.go): an invalid message, reported by Penalize.
)

// Host is one node's endpoint: a UDP socket, QUIC listener and dialer, the
// connected peers and the gossip state. All methods are safe for
// concurrent use.
type Host struct {
	cfg   Config
	lim   Limits
	log   *slog.Logger
	id    PeerID
	inc   [8]byte // this Host's incarnation, sent in every Hello
	cert  tls.Certificate
	qconf *quic.Config

	udp  *net.UDPConn
	tr   *quic.Transport
	addr string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the host starts

	mu      sync.Mutex
	peers   map[PeerID]*peer
	started bool
	closed  bool
	ln      *quic.Listener

	book    *book
	table   *routingTable // DHT k-buckets (dht.go)
	rec     record        // this node's signed DHT record (record.go)
	records recordCache   // records verified so far (record.go)
	scores  *scoreboard
	seen    *seenCache

	subMu      sync.RWMutex
	subs       map[Topic][]chan Message
	subsClosed bool

	nDup, nDropIn, nDropOut, nViolations, nRejected atomic.Uint64
}

// New checks cfg, makes the TLS certificate and binds the UDP socket (so
// Addr is known before Start). Nothing runs until Start.
func New(cfg Config) (*Host, error) {
	if cfg.Key == nil {
		return nil, errors.New("p2p: config: node key is required")
	}
	if cfg.ChainID == 0 {
		return nil, errors.New("p2p: config: chain id is required")
	}
	if cfg.MaxPeers <= 0 {
		cfg.MaxPeers = 50
	}
	setDur := func(p *time.Duration, v time.Duration) {
		if *p <= 0 {
			*p = v
		}
	}
	setDur(&cfg.DialInterval, time.Second)
	setDur(&cfg.PexInterval, 30*time.Second)
	setDur(&cfg.DHTInterval, 10*time.Second)
	setDur(&cfg.ReconnectMin, 500*time.Millisecond)
	setDur(&cfg.ReconnectMax, time.Minute)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Host{
		cfg:   cfg,
		lim:   cfg.Limits.withDefaults(),
		log:   cfg.Logger,
		id:    IDFromKey(cfg.Key),
		peers: make(map[PeerID]*peer),
		subs:  make(map[Topic][]chan Message),
	}
	if _, err := rand.Read(h.inc[:]); err != nil {
		return nil, fmt.Errorf("p2p: incarnation: %w", err)
	}
	h.book = newBook(cfg.ReconnectMin, cfg.ReconnectMax)
	h.table = newRoutingTable(h.id)
	h.scores = newScoreboard(&h.lim)
	h.seen = newSeenCache(h.lim.SeenCacheSize)
	type boot struct {
		addr string
		id   PeerID
	}
	var boots []boot
	for _, b := range cfg.Bootstrap {
		id, addr, err := parsePeerAddr(b)
		if err != nil {
			return nil, fmt.Errorf("p2p: config: bootstrap %q: %w", b, err)
		}
		boots = append(boots, boot{addr, id})
	}
	cert, err := newCertificate(cfg.Key)
	if err != nil {
		return nil, err
	}
	h.cert = cert
	h.qconf = &quic.Config{
		HandshakeIdleTimeout: h.lim.HandshakeTimeout,
		// A peer killed without closing its connection (kill -9, power
		// loss) keeps its old connection registered until QUIC gives up on
		// it. When it comes back, its new incarnation in Hello replaces
		// the stale connection at once (register); a short idle timeout
		// (keep-alives every 2 s keep live idle links open) still drops a
		// dead peer that does not return within 6 s.
		MaxIdleTimeout:        6 * time.Second,
		KeepAlivePeriod:       2 * time.Second,
		MaxIncomingStreams:    -1,            // we use unidirectional streams only
		MaxIncomingUniStreams: numTopics + 1, // one control stream and one per topic
	}
	ua, err := net.ResolveUDPAddr("udp", cfg.ListenAddr)
	if err != nil {
		return nil, fmt.Errorf("p2p: listen address %q: %w", cfg.ListenAddr, err)
	}
	udp, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, fmt.Errorf("p2p: listen %q: %w", cfg.ListenAddr, err)
	}
	h.udp = udp
	h.addr = udp.LocalAddr().String()
	if len(h.addr) > maxAddrLen {
		udp.Close()
		return nil, fmt.Errorf("p2p: listen address %q too long", h.addr)
	}
	h.rec = signRecord(cfg.Key, h.addr, uint64(time.Now().UnixNano()))
	h.tr = &quic.Transport{Conn: udp}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	for _, b := range boots {
		h.book.add(b.addr, b.id, true)
	}
	return h, nil
}

// parsePeerAddr splits "0x<id>@ip:port" or "ip:port".
func parsePeerAddr(s string) (PeerID, string, error) {
	var id PeerID
	addr := s
	if i := strings.IndexByte(s, '@'); i >= 0 {
		var err error
		if id, err = ParsePeerID(s[:i]); err != nil {
			return id, "", err
		}
		addr = s[i+1:]
	}
	if !validDialAddr(addr) {
		return id, "", fmt.Errorf("address %q is not ip:port", addr)
	}
	return id, addr, nil
}

// Start accepts connections and begins dialling bootstrap peers. It returns
// at once; ctx only bounds Start itself, Close stops the host.
func (h *Host) Start(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("p2p: start: %w", err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if h.started {
		return errors.New("p2p: host already started")
	}
	ln, err := h.tr.Listen(h.tlsConfig(PeerID{}, nil), h.qconf)
	if err != nil {
		return fmt.Errorf("p2p: listen: %w", err)
	}
	h.ln = ln
	h.started = true
	h.wg.Add(2)
	go h.acceptLoop()
	go h.maintainLoop()
	h.log.Info("p2p started", "id", h.id, "addr", h.addr)
	return nil
}

// Close disconnects every peer, stops every goroutine the host started,
// closes the socket and then the Subscribe channels. It is idempotent.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	peers := h.peerList()
	ln := h.ln
	h.mu.Unlock()

	h.cancel()
	if ln != nil {
		ln.Close()
	}
	for _, p := range peers {
		p.conn.CloseWithError(codeShutdown, "shutdown")
	}
	h.wg.Wait()
	err := h.tr.Close()
	if uerr := h.udp.Close(); err == nil {
		err = uerr
	}

	h.subMu.Lock()
	h.subsClosed = true
	for _, chans := range h.subs {
		for _, ch := range chans {
			close(ch)
		}
	}
	h.subs = nil
	h.subMu.Unlock()
	if err != nil {
		return fmt.Errorf("p2p: close: %w", err)
	}
	return nil
}

// ID is this node's peer ID.
func (h *Host) ID() PeerID { return h.id }

// Addr is the bound UDP address ("ip:port"), with the real port when the
// configured one was 0.
func (h *Host) Addr() string { return h.addr }

// Connected reports whether there is a live connection to id.
func (h *Host) Connected(id PeerID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peers[id] != nil
}

// Peers lists connected peers, ordered by ID.
func (h *Host) Peers() []PeerInfo {
	h.mu.Lock()
	ps := h.peerList()
	h.mu.Unlock()
	now := time.Now()
	out := make([]PeerInfo, len(ps))
	for i, p := range ps {
		out[i] = PeerInfo{
			ID: p.id, Addr: p.addr, Remote: p.conn.RemoteAddr().String(),
			Inbound: p.inbound, Height: p.height, Score: h.scores.score(p.id, now),
		}
	}
	return out
}

// Stats returns the counters.
func (h *Host) Stats() Stats {
	return Stats{
		Duplicates:      h.nDup.Load(),
		DroppedInbound:  h.nDropIn.Load(),
		DroppedOutbound: h.nDropOut.Load(),
		Violations:      h.nViolations.Load(),
		Rejected:        h.nRejected.Load(),
	}
}

// Subscribe returns a channel of the messages (gossip and direct) received
// on topic. Channels rather than handlers: the node's single event loop
// selects over them alongside its timers, and a slow consumer can never
// stall a network goroutine, because delivery never blocks: when the
// channel (Limits.SubscribeBuffer) is full the message is dropped and
// counted in Stats.DroppedInbound. Each call makes an independent channel;
// all are closed by Close.
func (h *Host) Subscribe(topic Topic) <-chan Message {
	ch := make(chan Message, h.lim.SubscribeBuffer)
	h.subMu.Lock()
	defer h.subMu.Unlock()
	if h.subsClosed {
		close(ch)
		return ch
	}
	h.subs[topic] = append(h.subs[topic], ch)
	return ch
}

// deliver hands m to every subscriber of its topic without blocking.
func (h *Host) deliver(m Message) {
	h.subMu.RLock()
	defer h.subMu.RUnlock()
	for _, ch := range h.subs[m.Topic] {
		select {
		case ch <- m:
		default:
			h.nDropIn.Add(1)
		}
	}
}

// checkPayload validates a payload the node wants to send.
func (h *Host) checkPayload(topic Topic, payload []byte) error {
	if !topic.valid() {
		return fmt.Errorf("%w: %d", ErrUnknownTopic, topic)
	}
	if c := h.lim.payloadCap(topic); len(payload) > c {
		return fmt.Errorf("%w: %s payload of %d bytes, cap %d", ErrTooLarge, topic, len(payload), c)
	}
	return nil
}

// Publish floods payload to every connected peer, which relay it on once
// (each node drops IDs it has seen). Publishing a payload this node has
// already seen is a no-op. A peer whose queue is full misses it (counted in
// Stats.DroppedOutbound): gossip is best effort, consensus recovers by
// timeouts and sync. The local node does not receive its own message.
func (h *Host) Publish(topic Topic, payload []byte) error {
	if err := h.checkPayload(topic, payload); err != nil {
		return err
	}
	if h.ctx.Err() != nil {
		return ErrClosed
	}
	if !h.seen.add(msgID(topic, payload)) {
		return nil
	}
	h.broadcast(&frame{kind: kindGossip, topic: topic, payload: payload}, PeerID{}, false)
	return nil
}

// broadcast queues f to every peer but except (when hasExcept).
func (h *Host) broadcast(f *frame, except PeerID, hasExcept bool) {
	b := encodeFrame(f)
	h.mu.Lock()
	ps := h.peerList()
	h.mu.Unlock()
	for _, p := range ps {
		if hasExcept && p.id == except {
			continue
		}
		if !p.enqueue(int(f.topic), b) {
			h.nDropOut.Add(1)
		}
	}
}

// Send queues payload for one connected peer only (e.g. a vote to the next
// proposer). It fails if the peer is not connected or its queue is full;
// it never waits for the network.
func (h *Host) Send(to PeerID, topic Topic, payload []byte) error {
	if err := h.checkPayload(topic, payload); err != nil {
		return err
	}
	h.mu.Lock()
	p := h.peers[to]
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if p == nil {
		return fmt.Errorf("%w: %s", ErrNotConnected, to)
	}
	if !p.enqueue(int(topic), encodeFrame(&frame{kind: kindDirect, topic: topic, payload: payload})) {
		h.nDropOut.Add(1)
		return fmt.Errorf("%w: %s", ErrQueueFull, to)
	}
	return nil
}

// Connect dials addr ("ip:port" or "0x<id>@ip:port") now and returns when
// the peer is connected or the attempt failed; with an ID, a node with any
// other key is refused during the TLS handshake. Bootstrap peers need not
// be connected this way: Start dials them.
func (h *Host) Connect(ctx context.Context, addr string) error {
	id, a, err := parsePeerAddr(addr)
	if err != nil {
		return fmt.Errorf("p2p: connect %q: %w", addr, err)
	}
	// Count this call in h.wg under h.mu, so Close (which sets closed
	// under h.mu before waiting) either refuses it or waits for it.
	h.mu.Lock()
	ok := h.started && !h.closed
	if ok {
		h.wg.Add(1)
	}
	h.mu.Unlock()
	if !ok {
		return fmt.Errorf("p2p: connect %q: host not running", addr)
	}
	defer h.wg.Done()
	if _, _, err := h.dial(ctx, a, id); err != nil {
		return fmt.Errorf("p2p: connect %q: %w", addr, err)
	}
	return nil
}

// peerList snapshots the peers, ordered by ID; the caller holds h.mu.
func (h *Host) peerList() []*peer {
	ps := make([]*peer, 0, len(h.peers))
	for _, p := range h.peers {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return bytes.Compare(ps[i].id[:], ps[j].id[:]) < 0 })
	return ps
}

// tlsConfig refuses, during the handshake, ourselves, banned nodes and, if
// expect is set, any node but that one. sawSelf, if not nil, is set when
// the other end turned out to be this node.
func (h *Host) tlsConfig(expect PeerID, sawSelf *atomic.Bool) *tls.Config {
	return tlsConfig(h.cert, func(id PeerID) error {
		if id == h.id {
			if sawSelf != nil {
				sawSelf.Store(true)
			}
			return errSelf
		}
		if !expect.IsZero() && id != expect {
			return fmt.Errorf("%w: got %s, want %s", ErrWrongPeer, id, expect)
		}
		if h.scores.banned(id, time.Now()) {
			return fmt.Errorf("%w: %s", errBanned, id)
		}
		return nil
	})
}

// acceptLoop hands each incoming connection (TLS already verified) to its
// own setup goroutine.
func (h *Host) acceptLoop() {
	defer h.wg.Done()
	for {
		conn, err := h.ln.Accept(h.ctx)
		if err != nil {
			return
		}
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			if _, err := h.setup(conn, true); err != nil {
				h.log.Debug("p2p inbound refused", "remote", conn.RemoteAddr(), "err", err)
			}
		}()
	}
}

// dial connects to addr, expecting id if it is not zero.
func (h *Host) dial(ctx context.Context, addr string, id PeerID) (*peer, bool, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, false, fmt.Errorf("resolve: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.lim.HandshakeTimeout)
	defer cancel()
	stop := context.AfterFunc(h.ctx, cancel)
	defer stop()
	var self atomic.Bool
	conn, err := h.tr.Dial(ctx, ua, h.tlsConfig(id, &self), h.qconf)
	if err != nil {
		return nil, self.Load(), fmt.Errorf("dial %s: %w", addr, err)
	}
	p, err := h.setup(conn, false)
	return p, false, err
}

// maintainLoop dials more peers and asks for addresses while below
// MaxPeers, and prunes the scoreboard.
func (h *Host) maintainLoop() {
	defer h.wg.Done()
	dialT := time.NewTicker(h.cfg.DialInterval)
	defer dialT.Stop()
	pexT := time.NewTicker(h.cfg.PexInterval)
	defer pexT.Stop()
	pruneT := time.NewTicker(time.Minute)
	defer pruneT.Stop()
	dhtT := time.NewTicker(h.cfg.DHTInterval)
	defer dhtT.Stop()
	h.dialMore()
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-dialT.C:
			h.dialMore()
		case <-pexT.C:
			h.mu.Lock()
			want := len(h.peers) < h.cfg.MaxPeers
			h.mu.Unlock()
			if want && !h.cfg.NoPex {
				h.broadcast(&frame{kind: kindPexRequest}, PeerID{}, false)
			}
		case <-dhtT.C:
			h.mu.Lock()
			want := len(h.peers) < h.cfg.MaxPeers
			h.mu.Unlock()
			if want {
				h.refreshDHT()
			}
		case now := <-pruneT.C:
			h.scores.prune(now)
		}
	}
}

// dialMore starts dials to due address-book entries, up to MaxPeers.
func (h *Host) dialMore() {
	now := time.Now()
	h.mu.Lock()
	room := h.cfg.MaxPeers - len(h.peers)
	ids := make(map[PeerID]bool, len(h.peers))
	addrs := make(map[string]bool, len(h.peers))
	for _, p := range h.peers {
		ids[p.id] = true
		addrs[p.addr] = true
		addrs[p.conn.RemoteAddr().String()] = true
	}
	h.mu.Unlock()
	if room <= 0 {
		return
	}
	skip := func(addr string, id PeerID) bool {
		return addr == h.addr || addrs[addr] || (!id.IsZero() && (ids[id] || id == h.id || h.scores.banned(id, now)))
	}
	for _, e := range h.book.due(now, room, skip) {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			_, self, err := h.dial(h.ctx, e.addr, e.id)
			if self {
				h.book.forget(e.addr)
				return
			}
			h.book.done(e.addr, err == nil || errors.Is(err, errDuplicateConn), time.Now())
			if err != nil {
				h.log.Debug("p2p dial failed", "addr", e.addr, "err", err)
			}
		}()
	}
}

// misbehave disconnects p for err, lowering its score by err's penalty.
func (h *Host) misbehave(p *peer, err error) {
	penalty, code, _ := penaltyFor(err)
	h.nViolations.Add(1)
	banned := h.scores.penalize(p.id, penalty, time.Now())
	h.log.Info("p2p peer misbehaved", "peer", p.id, "err", err, "banned", banned)
	p.conn.CloseWithError(code, err.Error())
}

// penaltyFor maps a read error to its penalty and close code; ok is false
// for errors that are not the peer's fault (connection closed, shutdown).
func penaltyFor(err error) (penalty int, code quic.ApplicationErrorCode, ok bool) {
	switch {
	case errors.Is(err, ErrFrameTooLarge):
		return penaltyOversize, codeTooLarge, true
	case errors.Is(err, ErrBadFrame):
		return penaltyBadFrame, codeBadFrame, true
	case errors.Is(err, errRateLimited):
		return penaltyRateLimit, codeRateLimit, true
	case errors.Is(err, errWrongNetwork):
		return penaltyWrongNet, codeWrongNetwork, true
	case errors.Is(err, errBadHello):
		return penaltyBadHello, codeBadHello, true
	}
	return 0, 0, false
}
