package p2p

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Topic says what a payload is; it selects the size cap, the QUIC stream
// (so a 4 MiB block never delays a vote) and the subscribers.
type Topic uint8

// Topics. Their numbers are on the wire.
const (
	TopicTx        Topic = 1 // signed transactions, flooded to all peers [Network Layer]
	TopicBlock     Topic = 2 // blocks, relayed [Network Layer]
	TopicConsensus Topic = 3 // PROPOSE and block-carrying consensus messages [§6.1]
	TopicVote      Topic = 4 // VOTE and NEW_VIEW: small, sent straight to the next proposer
)

const numTopics = 4

// String names the topic for logs.
func (t Topic) String() string {
	switch t {
	case TopicTx:
		return "tx"
	case TopicBlock:
		return "block"
	case TopicConsensus:
		return "consensus"
	case TopicVote:
		return "vote"
	}
	return fmt.Sprintf("topic(%d)", uint8(t))
}

func (t Topic) valid() bool { return t >= 1 && t <= numTopics }

// kind is the frame type byte.
type kind uint8

const (
	kindHello       kind = 1
	kindPexRequest  kind = 2
	kindPexResponse kind = 3
	kindGossip      kind = 4
	kindDirect      kind = 5
	kindFindNode    kind = 6 // DHT: target id (dht.go)
	kindNodes       kind = 7 // DHT: up to kBucket signed records nearest the target (record.go)
	kindRecord      kind = 8 // DHT: the sender's own signed record (record.go)
)

// Wire constants (see doc.go).
const (
	headerLen       = 6   // kind u8, topic u8, body length u32 big-endian
	protocolVersion = 4   // Hello.version; a peer with another version is refused (2: incarnation added; 3: DHT frames; 4: signed DHT records)
	maxAddrLen      = 255 // a listen address is "ip:port"; 255 is far above the longest
	maxPexEntries   = 32  // addresses in one PexResponse
	helloFixedLen   = 2 + 8 + 32 + 20 + 8 + 8 + 1
	maxHelloLen     = helloFixedLen + maxAddrLen
	pexEntryFixed   = 20 + 1
	maxPexRespLen   = 1 + maxPexEntries*(pexEntryFixed+maxAddrLen)
)

// Frame errors. Both mean the sender is broken or hostile: the reader
// disconnects it and lowers its score.
var (
	ErrFrameTooLarge = errors.New("p2p: frame larger than its cap")
	ErrBadFrame      = errors.New("p2p: malformed frame")
)

// hello is the first frame each side sends on a connection.
type hello struct {
	Version     uint16
	ChainID     uint64
	GenesisHash [32]byte
	NodeID      PeerID
	Height      uint64
	// Incarnation is random per Host: a peer whose ID is known but whose
	// incarnation is new has restarted, so its old connection is dead
	// even if QUIC has not noticed yet (see register).
	Incarnation [8]byte
	ListenAddr  string
}

// peerAddr is one PexResponse entry.
type peerAddr struct {
	ID   PeerID
	Addr string
}

// frame is one decoded frame; which fields are set depends on kind.
type frame struct {
	kind    kind
	topic   Topic
	hello   hello       // kindHello
	peers   []peerAddr  // kindPexResponse
	nodes   []nodeEntry // kindNodes
	record  record      // kindRecord (ID unset: the connection's)
	payload []byte      // kindGossip, kindDirect
	target  PeerID      // kindFindNode
}

// maxBody is the cap on the body length of a frame with this header, or -1
// if the header itself is invalid. It is checked before any body byte is
// read or allocated.
func (l *Limits) maxBody(k kind, t Topic) int {
	switch k {
	case kindHello:
		if t == 0 {
			return maxHelloLen
		}
	case kindPexRequest:
		if t == 0 {
			return 0
		}
	case kindPexResponse:
		if t == 0 {
			return maxPexRespLen
		}
	case kindFindNode:
		if t == 0 {
			return findNodeB
		}
	case kindNodes:
		if t == 0 {
			return maxNodesLen
		}
	case kindRecord:
		if t == 0 {
			return maxRecordLen
		}
	case kindGossip, kindDirect:
		if t.valid() {
			return l.payloadCap(t)
		}
	}
	return -1
}

// payloadCap is the largest payload accepted on a topic.
func (l *Limits) payloadCap(t Topic) int {
	switch t {
	case TopicTx:
		return l.MaxTxBytes
	case TopicBlock:
		return l.MaxBlockBytes
	case TopicConsensus:
		return l.MaxConsensusBytes
	case TopicVote:
		return l.MaxVoteBytes
	}
	return -1
}

// encodeFrame is the canonical encoding of f; readFrame accepts exactly
// these bytes.
func encodeFrame(f *frame) []byte {
	var body []byte
	switch f.kind {
	case kindHello:
		h := &f.hello
		body = make([]byte, 0, helloFixedLen+len(h.ListenAddr))
		body = binary.BigEndian.AppendUint16(body, h.Version)
		body = binary.BigEndian.AppendUint64(body, h.ChainID)
		body = append(body, h.GenesisHash[:]...)
		body = append(body, h.NodeID[:]...)
		body = binary.BigEndian.AppendUint64(body, h.Height)
		body = append(body, h.Incarnation[:]...)
		body = append(body, byte(len(h.ListenAddr)))
		body = append(body, h.ListenAddr...)
	case kindPexRequest:
	case kindFindNode:
		body = append(body, f.target[:]...)
	case kindPexResponse:
		body = append(body, byte(len(f.peers)))
		for _, p := range f.peers {
			body = append(body, p.ID[:]...)
			body = append(body, byte(len(p.Addr)))
			body = append(body, p.Addr...)
		}
	case kindNodes:
		body = append(body, byte(len(f.nodes)))
		for _, e := range f.nodes {
			body = append(body, e.Rec.ID[:]...)
			body = appendRecord(body, &e.Rec)
			body = append(body, byte(len(e.Observed)))
			body = append(body, e.Observed...)
		}
	case kindRecord:
		body = appendRecord(body, &f.record)
	case kindGossip, kindDirect:
		body = f.payload
	}
	out := make([]byte, headerLen, headerLen+len(body))
	out[0] = byte(f.kind)
	out[1] = byte(f.topic)
	binary.BigEndian.PutUint32(out[2:], uint32(len(body)))
	return append(out, body...)
}

// readFrame reads one frame from r. The header is checked against lim
// before the body is read; admit (may be nil) is then told the body length
// and may refuse the frame (the rate limiter). The body buffer grows with
// the bytes that actually arrive, so a peer that announces a large frame
// and stalls does not make us allocate the whole cap.
func readFrame(r io.Reader, lim *Limits, admit func(n int) error) (*frame, error) {
	var hdr [headerLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	k, t := kind(hdr[0]), Topic(hdr[1])
	n := binary.BigEndian.Uint32(hdr[2:])
	max := lim.maxBody(k, t)
	if max < 0 {
		return nil, fmt.Errorf("%w: kind %d topic %d", ErrBadFrame, k, t)
	}
	if uint64(n) > uint64(max) {
		return nil, fmt.Errorf("%w: %s %d bytes, cap %d", ErrFrameTooLarge, frameName(k, t), n, max)
	}
	if admit != nil {
		if err := admit(int(n)); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	buf.Grow(min(int(n), 64<<10))
	if _, err := io.CopyN(&buf, r, int64(n)); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return decodeBody(k, t, buf.Bytes())
}

// decodeBody parses a body whose header readFrame has already checked.
// It refuses trailing bytes, so every accepted frame is canonical.
func decodeBody(k kind, t Topic, body []byte) (*frame, error) {
	f := &frame{kind: k, topic: t}
	switch k {
	case kindHello:
		if len(body) < helloFixedLen {
			return nil, fmt.Errorf("%w: hello of %d bytes", ErrBadFrame, len(body))
		}
		h := &f.hello
		h.Version = binary.BigEndian.Uint16(body)
		h.ChainID = binary.BigEndian.Uint64(body[2:])
		copy(h.GenesisHash[:], body[10:42])
		copy(h.NodeID[:], body[42:62])
		h.Height = binary.BigEndian.Uint64(body[62:])
		copy(h.Incarnation[:], body[70:78])
		alen := int(body[78])
		if len(body) != helloFixedLen+alen {
			return nil, fmt.Errorf("%w: hello length %d, address %d", ErrBadFrame, len(body), alen)
		}
		h.ListenAddr = string(body[helloFixedLen:])
	case kindPexRequest:
		// The header check already forced an empty body.
	case kindFindNode:
		if len(body) != findNodeB {
			return nil, fmt.Errorf("%w: find node of %d bytes", ErrBadFrame, len(body))
		}
		copy(f.target[:], body)
	case kindNodes:
		return decodeNodes(f, body)
	case kindRecord:
		rest, err := readRecord(body, &f.record)
		if err != nil {
			return nil, err
		}
		if len(rest) != 0 {
			return nil, fmt.Errorf("%w: %d bytes after the record", ErrBadFrame, len(rest))
		}
	case kindPexResponse:
		if len(body) < 1 {
			return nil, fmt.Errorf("%w: empty peer list", ErrBadFrame)
		}
		count := int(body[0])
		limit := maxPexEntries
		if count > limit {
			return nil, fmt.Errorf("%w: %d peers, cap %d", ErrBadFrame, count, limit)
		}
		rest := body[1:]
		f.peers = make([]peerAddr, 0, count)
		for i := 0; i < count; i++ {
			if len(rest) < pexEntryFixed {
				return nil, fmt.Errorf("%w: peer entry %d truncated", ErrBadFrame, i)
			}
			var p peerAddr
			copy(p.ID[:], rest[:20])
			alen := int(rest[20])
			rest = rest[pexEntryFixed:]
			if len(rest) < alen {
				return nil, fmt.Errorf("%w: peer address %d truncated", ErrBadFrame, i)
			}
			p.Addr = string(rest[:alen])
			rest = rest[alen:]
			f.peers = append(f.peers, p)
		}
		if len(rest) != 0 {
			return nil, fmt.Errorf("%w: %d bytes after peer list", ErrBadFrame, len(rest))
		}
	case kindGossip, kindDirect:
		f.payload = body
	default:
		return nil, fmt.Errorf("%w: kind %d", ErrBadFrame, k)
	}
	return f, nil
}

func frameName(k kind, t Topic) string {
	switch k {
	case kindHello:
		return "hello"
	case kindPexRequest:
		return "pex request"
	case kindPexResponse:
		return "pex response"
	case kindFindNode:
		return "find node"
	case kindNodes:
		return "nodes"
	case kindRecord:
		return "record"
	case kindGossip:
		return "gossip/" + t.String()
	case kindDirect:
		return "direct/" + t.String()
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}
