package p2p

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Signed DHT records (technical-spec-v2 §6.2 peer discovery). A node
// signs its own record, the address it listens on and a sequence number,
// with its node key, and sends it to every peer it connects to (kindRecord).
// A peer keeps the record with the node's routing table entry and passes
// it on in Nodes answers; whoever receives one verifies that the
// signature recovers the record's ID before the address enters its
// address book. A record with a bad signature, or one that names another
// node than the connection it came on, is the sender's fault: the frame
// is refused and the sender disconnected and scored down (ErrBadFrame).
// So no node can put an (ID, address) pair into another's book that the
// ID's owner did not sign; an address the relaying peer observed is used
// only for a record whose own IP is unspecified (a node listening on
// 0.0.0.0 or [::] cannot know its public IP), and then only with the
// record's port.

// recordDomain separates record signatures from every other signature of
// the node key (transactions, the TLS certificate binding).
const recordDomain = "cowboy-p2p-record-v1:"

// recordSigLen is a secp256k1 signature r ‖ s ‖ y_parity.
const recordSigLen = 65

// record is a node's signed address.
type record struct {
	ID   PeerID
	Addr string // the node's listen address, as its Hello announces it
	// Seq orders a node's records: the signing time in unix nanoseconds,
	// so a restarted node's record replaces the old one.
	Seq uint64
	Sig [recordSigLen]byte
}

// recordDigest is keccak256(domain ‖ id ‖ seq_be8 ‖ addr).
func recordDigest(id PeerID, addr string, seq uint64) [32]byte {
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], seq)
	return crypto.Keccak256([]byte(recordDomain), id[:], s[:], []byte(addr))
}

// signRecord makes this node's record.
func signRecord(key *crypto.PrivateKey, addr string, seq uint64) record {
	r := record{ID: IDFromKey(key), Addr: addr, Seq: seq}
	v, rr, ss := key.Sign(recordDigest(r.ID, addr, seq))
	copy(r.Sig[:32], rr[:])
	copy(r.Sig[32:64], ss[:])
	r.Sig[64] = v
	return r
}

// verify checks that the record is signed by the key of its ID.
func (r *record) verify() error {
	var rr, ss [32]byte
	copy(rr[:], r.Sig[:32])
	copy(ss[:], r.Sig[32:64])
	pub, err := crypto.Recover(recordDigest(r.ID, r.Addr, r.Seq), r.Sig[64], rr, ss)
	if err != nil {
		return fmt.Errorf("%w: record of %s: signature: %v", ErrBadFrame, r.ID, err)
	}
	if PeerID(crypto.PubkeyToAddress(pub)) != r.ID {
		return fmt.Errorf("%w: record of %s is signed by another key", ErrBadFrame, r.ID)
	}
	return nil
}

// recordCache remembers records already verified, by ID, so that the
// same record arriving in many Nodes answers costs one signature recovery.
// It holds at most maxBookSize records; when full it is cleared.
type recordCache struct {
	mu sync.Mutex
	m  map[PeerID]record
}

// verify is record.verify, skipped for a record verified before.
func (c *recordCache) verify(r *record) error {
	c.mu.Lock()
	old, ok := c.m[r.ID]
	c.mu.Unlock()
	if ok && old == *r {
		return nil
	}
	if err := r.verify(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxBookSize {
		c.m = make(map[PeerID]record)
	}
	c.m[r.ID] = *r
	return nil
}

// dialAddr is where to reach the record's node: its own address when that
// names an IP; otherwise the IP observed by the peer that relayed it, with
// the record's port. "" when neither gives a dialable address.
func (r *record) dialAddr(observed string) string {
	ap, err := netip.ParseAddrPort(r.Addr)
	if err == nil && !ap.Addr().IsUnspecified() {
		if validDialAddr(r.Addr) {
			return r.Addr
		}
		return ""
	}
	_, port, err := net.SplitHostPort(r.Addr)
	if err != nil {
		return ""
	}
	oh, op, err := net.SplitHostPort(observed)
	if err != nil || op != port {
		return ""
	}
	if p, err := strconv.ParseUint(port, 10, 16); err != nil || p == 0 {
		return ""
	}
	a := net.JoinHostPort(oh, port)
	if !validDialAddr(a) {
		return ""
	}
	return a
}

// Record wire forms. kindRecord body (the ID is the connection's):
// seq_be8 ‖ sig(65) ‖ addr_len u8 ‖ addr. A kindNodes entry: id(20) ‖
// seq_be8 ‖ sig(65) ‖ addr_len u8 ‖ addr ‖ observed_len u8 ‖ observed.
const (
	recordFixed    = 8 + recordSigLen + 1
	maxRecordLen   = recordFixed + maxAddrLen
	nodeEntryFixed = 20 + recordFixed + 1
	maxNodesLen    = 1 + kBucket*(nodeEntryFixed+2*maxAddrLen)
)

func appendRecord(b []byte, r *record) []byte {
	b = binary.BigEndian.AppendUint64(b, r.Seq)
	b = append(b, r.Sig[:]...)
	b = append(b, byte(len(r.Addr)))
	return append(b, r.Addr...)
}

// readRecord parses seq ‖ sig ‖ addr_len ‖ addr from b and returns the rest.
func readRecord(b []byte, r *record) ([]byte, error) {
	if len(b) < recordFixed {
		return nil, fmt.Errorf("%w: record truncated", ErrBadFrame)
	}
	r.Seq = binary.BigEndian.Uint64(b)
	copy(r.Sig[:], b[8:8+recordSigLen])
	n := int(b[recordFixed-1])
	b = b[recordFixed:]
	if len(b) < n {
		return nil, fmt.Errorf("%w: record address truncated", ErrBadFrame)
	}
	r.Addr = string(b[:n])
	return b[n:], nil
}

// nodeEntry is one kindNodes entry: a signed record and the address the
// answering peer observed the node at.
type nodeEntry struct {
	Rec      record
	Observed string
}

// decodeNodes parses a kindNodes body: count u8, then the entries.
func decodeNodes(f *frame, body []byte) (*frame, error) {
	if len(body) < 1 {
		return nil, fmt.Errorf("%w: empty node list", ErrBadFrame)
	}
	count := int(body[0])
	if count > kBucket {
		return nil, fmt.Errorf("%w: %d nodes, cap %d", ErrBadFrame, count, kBucket)
	}
	rest := body[1:]
	f.nodes = make([]nodeEntry, 0, count)
	for i := 0; i < count; i++ {
		var e nodeEntry
		if len(rest) < 20 {
			return nil, fmt.Errorf("%w: node entry %d truncated", ErrBadFrame, i)
		}
		copy(e.Rec.ID[:], rest[:20])
		var err error
		if rest, err = readRecord(rest[20:], &e.Rec); err != nil {
			return nil, fmt.Errorf("node entry %d: %w", i, err)
		}
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return nil, fmt.Errorf("%w: node entry %d observed address truncated", ErrBadFrame, i)
		}
		n := int(rest[0])
		e.Observed, rest = string(rest[1:1+n]), rest[1+n:]
		f.nodes = append(f.nodes, e)
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after node list", ErrBadFrame, len(rest))
	}
	return f, nil
}
