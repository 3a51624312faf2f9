package relay

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/p2p"
)

// Client is one connection to one relay. It redials after a failure and is
// safe for concurrent use (each request is its own stream).
type Client struct {
	addr   string
	expect cbfs.RelayID // zero: accept any relay identity
	key    *crypto.PrivateKey
	tr     *quic.Transport
	udp    *net.UDPConn

	mu   sync.Mutex
	conn *quic.Conn
	id   cbfs.RelayID

	// The TCP path for shard puts and gets (tcp.go).
	tcpMu     sync.Mutex
	idle      []*tls.Conn
	tcpDown   time.Time // no TCP dial before this: the last one failed
	noTCP     bool
	tcpClosed bool
}

// Timeouts of the client.
const (
	dialTimeout    = 5 * time.Second
	requestTimeout = 60 * time.Second
	// A relay killed without closing is noticed within clientIdleTimeout;
	// a keep-alive every clientKeepAlive holds a live idle connection.
	clientIdleTimeout = 6 * time.Second
	clientKeepAlive   = 2 * time.Second
)

// NewClient prepares a client for the relay at addr ("ip:port"),
// authenticating with key (the token holder's key). If expect is not zero
// the relay must prove that identity.
func NewClient(addr string, expect cbfs.RelayID, key *crypto.PrivateKey) (*Client, error) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4zero})
	if err != nil {
		return nil, fmt.Errorf("relay client: %w", err)
	}
	return &Client{addr: addr, expect: expect, key: key, udp: udp, tr: &quic.Transport{Conn: udp}}, nil
}

// Close closes the connection.
func (c *Client) Close() error {
	c.closeTCP()
	c.mu.Lock()
	if c.conn != nil {
		c.conn.CloseWithError(codeShutdown, "bye")
		c.conn = nil
	}
	c.mu.Unlock()
	c.tr.Close()
	return c.udp.Close()
}

// Addr is the relay's address.
func (c *Client) Addr() string { return c.addr }

func (c *Client) connect(ctx context.Context) (*quic.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil && c.conn.Context().Err() == nil {
		return c.conn, nil
	}
	ua, err := net.ResolveUDPAddr("udp", c.addr)
	if err != nil {
		return nil, fmt.Errorf("relay %s: %w", c.addr, err)
	}
	tc, got, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	// A relay killed without closing (kill -9) is noticed within the idle
	// timeout; keep-alives keep a live idle connection open.
	qc := transportConfig(dialTimeout, clientIdleTimeout, clientKeepAlive)
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	conn, err := c.tr.Dial(dctx, ua, tc, qc)
	if err != nil {
		return nil, fmt.Errorf("relay %s: dial: %w", c.addr, err)
	}
	c.conn, c.id = conn, *got
	return conn, nil
}

// tlsConfig is the client's TLS configuration for one dial, QUIC or TCP:
// TLS 1.3 with the client's node certificate, and the relay's certificate
// checked to be a node key (and the expected one, if set). got receives
// the relay's proven identity during the handshake.
func (c *Client) tlsConfig() (tc *tls.Config, got *cbfs.RelayID, err error) {
	cert, err := p2p.NewNodeCertificate(c.key)
	if err != nil {
		return nil, nil, err
	}
	got = new(cbfs.RelayID)
	tc = &tls.Config{
		MinVersion: tls.VersionTLS13, MaxVersion: tls.VersionTLS13,
		Certificates: []tls.Certificate{cert}, InsecureSkipVerify: true, // #nosec: node-key check below
		NextProtos: []string{ALPN}, SessionTicketsDisabled: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			id, err := p2p.VerifyNodeCertificate(raw, time.Now())
			if err != nil {
				return err
			}
			if c.expect != (cbfs.RelayID{}) && cbfs.RelayID(id) != c.expect {
				return fmt.Errorf("relay %s is 0x%x, expected 0x%x", c.addr, id, c.expect)
			}
			*got = cbfs.RelayID(id)
			return nil
		},
	}
	return tc, got, nil
}

// ID is the relay's proven identity (after the first request).
func (c *Client) ID() cbfs.RelayID {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id
}

// StatusError is a refusal by the relay.
type StatusError struct {
	Status uint8
	Msg    string
}

func (e *StatusError) Error() string { return fmt.Sprintf("relay: status %d: %s", e.Status, e.Msg) }

// ErrNotFound is what a StatusNotFound answer matches with errors.Is.
var ErrNotFound = errors.New("relay: not found")

// ErrDenied is what a StatusDenied answer matches with errors.Is.
var ErrDenied = errors.New("relay: denied")

// Is lets errors.Is match ErrNotFound and ErrDenied.
func (e *StatusError) Is(target error) bool {
	return target == ErrNotFound && e.Status == StatusNotFound || target == ErrDenied && e.Status == StatusDenied
}

// Call sends one raw request and returns the answer's header and data.
func (c *Client) Call(ctx context.Context, op Op, hdr any, data []byte) ([]byte, []byte, error) {
	return c.call(ctx, op, hdr, data, nil)
}

// call is Call reading the answer's data into dst when its capacity
// allows (else into a new buffer).
func (c *Client) call(ctx context.Context, op Op, hdr any, data, dst []byte) ([]byte, []byte, error) {
	h, err := cbfs.Marshal(hdr)
	if err != nil {
		return nil, nil, fmt.Errorf("relay: encode request: %w", err)
	}
	// Shard bytes go over TCP when it connects (tcp.go); anything else,
	// and a shard request TCP could not carry, over QUIC.
	if bulkOp(op) {
		rh, rd, done, err := c.callTCP(ctx, op, h, data, dst)
		if done {
			return rh, rd, err
		}
	}
	conn, err := c.connect(ctx)
	if err != nil {
		return nil, nil, err
	}
	st, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("relay %s: open stream: %w", c.addr, err)
	}
	deadline := time.Now().Add(requestTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	st.SetDeadline(deadline)
	// A cancelled ctx ends the request at once (a read from a relay that
	// died would otherwise wait for the connection's idle timeout).
	stop := context.AfterFunc(ctx, func() {
		st.CancelRead(0)
		st.CancelWrite(0)
	})
	defer stop()
	if err := writeFrame(st, uint8(op), h, data); err != nil {
		st.CancelRead(0)
		return nil, nil, fmt.Errorf("relay %s: send: %w", c.addr, cancelled(ctx, err))
	}
	st.Close() // done sending
	status, rh, rd, err := readAnswer(st, dst)
	if err != nil {
		st.CancelRead(0)
		return nil, nil, fmt.Errorf("relay %s: answer: %w", c.addr, cancelled(ctx, err))
	}
	if status != StatusOK {
		return nil, nil, &StatusError{Status: status, Msg: string(rh)}
	}
	return rh, rd, nil
}

// cancelled is ctx's error if ctx ended (the stream failed because of it,
// not because of the relay), else err.
func cancelled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// PutShard stores a shard.
func (c *Client) PutShard(ctx context.Context, r *PutShardReq, shard []byte) error {
	_, _, err := c.Call(ctx, OpPutShard, r, shard)
	return err
}

// PutProofs attaches proofs to shards the relay holds.
func (c *Client) PutProofs(ctx context.Context, r *ProofsReq, ents []ShardProofEntry) error {
	d, err := cbfs.Marshal(ents)
	if err != nil {
		return fmt.Errorf("relay: encode proofs: %w", err)
	}
	_, _, err = c.Call(ctx, OpPutProofs, r, d)
	return err
}

// GetShard fetches a shard (unverified: the caller checks it against the
// manifest).
func (c *Client) GetShard(ctx context.Context, a Auth, h cbfs.ShardHash) ([]byte, error) {
	return c.GetShardTo(ctx, a, h, nil)
}

// GetShardTo is GetShard reading the shard into dst (from its start) when
// dst's capacity allows: a get reads every shard straight into the
// buffer it decodes the segment in (cbfs.FetchFunc), with no buffer
// allocated and zeroed per shard.
func (c *Client) GetShardTo(ctx context.Context, a Auth, h cbfs.ShardHash, dst []byte) ([]byte, error) {
	_, d, err := c.call(ctx, OpGetShard, &ShardReq{Auth: a, Hashes: []cbfs.ShardHash{h}}, nil, dst)
	return d, err
}

// Has asks which of hashes the relay holds.
func (c *Client) Has(ctx context.Context, a Auth, hashes []cbfs.ShardHash) ([]bool, error) {
	h, _, err := c.Call(ctx, OpHas, &ShardReq{Auth: a, Hashes: hashes}, nil)
	if err != nil {
		return nil, err
	}
	var r HasResp
	if err := cbfs.Unmarshal(h, &r); err != nil || len(r.Have) != len(hashes) {
		return nil, fmt.Errorf("relay %s: bad has answer", c.addr)
	}
	return r.Have, nil
}

// PutManifest stores a sealed manifest.
func (c *Client) PutManifest(ctx context.Context, a Auth, seq uint64, sealed []byte) error {
	_, _, err := c.Call(ctx, OpPutManifest, &ManifestReq{Auth: a, Seq: seq}, sealed)
	return err
}

// GetManifest fetches a sealed manifest and its sequence number.
func (c *Client) GetManifest(ctx context.Context, a Auth) (uint64, []byte, error) {
	h, d, err := c.Call(ctx, OpGetManifest, &ManifestReq{Auth: a}, nil)
	if err != nil {
		return 0, nil, err
	}
	var r ManifestResp
	if err := cbfs.Unmarshal(h, &r); err != nil {
		return 0, nil, fmt.Errorf("relay %s: bad manifest answer: %w", c.addr, err)
	}
	return r.Seq, d, nil
}

// List returns every manifest the token may read, page by page.
func (c *Client) List(ctx context.Context, a Auth) ([]ListEntry, error) {
	var all []ListEntry
	var after cbfs.Tag
	for {
		_, d, err := c.Call(ctx, OpList, &ListReq{Auth: a, After: after}, nil)
		if err != nil {
			return nil, err
		}
		var r ListResp
		if err := cbfs.Unmarshal(d, &r); err != nil {
			return nil, fmt.Errorf("relay %s: bad list answer: %w", c.addr, err)
		}
		all = append(all, r.Entries...)
		if !r.More || len(r.Entries) == 0 {
			return all, nil
		}
		last := r.Entries[len(r.Entries)-1].Tags
		after = last[len(last)-1]
	}
}

// DropShards deletes some shards of a file (the relay ignores those it
// does not hold).
func (c *Client) DropShards(ctx context.Context, a Auth, hashes []cbfs.ShardHash) error {
	_, _, err := c.Call(ctx, OpDropShards, &ShardReq{Auth: a, Hashes: hashes}, nil)
	return err
}

// Link gives the shards the relay holds for path from to path to as
// well (a rename without moving shard bytes).
func (c *Client) Link(ctx context.Context, from, to Auth) error {
	_, _, err := c.Call(ctx, OpLink, &LinkReq{From: from, To: to}, nil)
	return err
}

// Delete removes a file's manifest and shards.
func (c *Client) Delete(ctx context.Context, a Auth) error {
	_, _, err := c.Call(ctx, OpDelete, &ManifestReq{Auth: a}, nil)
	return err
}

// Challenge asks for a proven range of a shard.
func (c *Client) Challenge(ctx context.Context, r *ChallengeReq) (*ChallengeResp, []byte, error) {
	h, d, err := c.Call(ctx, OpChallenge, r, nil)
	if err != nil {
		return nil, nil, err
	}
	var resp ChallengeResp
	if err := cbfs.Unmarshal(h, &resp); err != nil {
		return nil, nil, fmt.Errorf("relay %s: bad challenge answer: %w", c.addr, err)
	}
	return &resp, d, nil
}

// Revoke hands the relay an owner-signed revocation.
func (c *Client) Revoke(ctx context.Context, r *cbfs.Revocation) error {
	_, _, err := c.Call(ctx, OpRevoke, &RevokeReq{Revocation: *r}, nil)
	return err
}

// Stat reports the relay's usage.
func (c *Client) Stat(ctx context.Context) (*StatResp, error) {
	h, _, err := c.Call(ctx, OpStat, struct{}{}, nil)
	if err != nil {
		return nil, err
	}
	var r StatResp
	if err := cbfs.Unmarshal(h, &r); err != nil {
		return nil, fmt.Errorf("relay %s: bad stat answer: %w", c.addr, err)
	}
	return &r, nil
}
