// Package relay is the CBFS storage relay: a QUIC server that keeps
// encrypted shards and sealed manifests in Pebble, checks a capability
// token on every request, and answers availability challenges with BLAKE3
// (Bao) range proofs tied to the file's Merkle root. It also holds the
// client side of the protocol.
//
// Wire protocol (ALPN "cowboy-cbfs/1", TLS 1.3 with node-key certificates
// as in p2p): one bidirectional QUIC stream per request. Shard puts and
// gets may also go over TLS 1.3 on TCP at the same port number, one
// request after another on a connection, with the same frames (tcp.go).
//
//	request:  op u8 ‖ header length u32 ‖ header (CBOR) ‖ data length u32 ‖ data
//	response: status u8 ‖ header length u32 ‖ header (CBOR, or an error text) ‖ data length u32 ‖ data
//
// Lengths are big-endian and checked against the relay's caps before any
// body byte is read; anything else closes the stream (and a malformed frame
// the connection).
package relay

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/quic-go/quic-go"
)

// ALPN is the TLS application protocol of the relay.
const ALPN = "cowboy-cbfs/1"

// Op is a request type; the numbers are on the wire.
type Op uint8

// Operations.
const (
	OpPutShard    Op = 1
	OpGetShard    Op = 2
	OpPutManifest Op = 3
	OpGetManifest Op = 4
	OpList        Op = 5
	OpDelete      Op = 6
	OpChallenge   Op = 7
	OpHas         Op = 8
	OpRevoke      Op = 9
	OpStat        Op = 10
	OpPutProofs   Op = 11
	// OpDropShards deletes some shards of a file (ShardReq): the old
	// shards of segments an update rewrote.
	OpDropShards Op = 12
	// OpLink gives the shards a relay holds for one path (LinkReq.From,
	// read) to another path (LinkReq.To, write) as well: a rename that
	// moves no shard bytes over the network.
	OpLink Op = 13
	// OpSyncShards is the durability barrier (ShardReq, at most
	// MaxSyncShards hashes): the relay makes
	// the shards of one path that it received with PutShardReq.Defer
	// durable, with one fsync each, one of their directory and one of its
	// index, and answers OK only once they are, or when it held them
	// durably already. A shard it did not receive (or received before it
	// restarted) is StatusNotFound.
	OpSyncShards Op = 14
)

// Status codes of a response.
const (
	StatusOK       = 0
	StatusInvalid  = 1 // bad request: the header says why
	StatusDenied   = 2 // token refused
	StatusNotFound = 3
	StatusFull     = 4 // capacity or rate limit
)

// Caps on a frame.
const (
	MaxHeaderBytes = 64 << 10
	// MaxHasShards is the most hashes a client names in one OpHas
	// request. With the token and path beside them, 1,024 hashes (about
	// 33 bytes each in CBOR) fit in MaxHeaderBytes. The handler's own
	// bound, below the wire, is 4,096; a repair that asked for that many
	// at once broke the header cap and failed.
	MaxHasShards = 1024
	// MaxShardBytes is one shard of the largest segment with K=1.
	MaxShardBytes = cbfs.MaxSegmentSize + 64
	// MaxManifestBytes bounds a sealed manifest (about 300 bytes per
	// segment at K+M=6: files up to ~400 GiB at 8 MiB segments).
	MaxManifestBytes = 16 << 20
	// MaxChallengeBytes bounds a challenged range.
	MaxChallengeBytes = 64 << 10
	maxData           = max(MaxShardBytes, MaxManifestBytes, 8<<20)
)

// QUIC flow-control windows at the start of a connection: a whole default
// shard (8 MiB segment / K=4) on a stream, and cbfs.Uploads of them on a
// connection, go out without waiting for a window update.
const (
	initialStreamWindow = 4 << 20
	initialConnWindow   = 16 << 20
)

// transportConfig is the QUIC configuration of both ends: handshake and
// idle timeouts, the keep-alive period (0: none), and flow-control windows
// that start at a default shard in flight and grow to a whole frame of the
// largest shard on a stream and four of them on a connection. One function,
// so the client and the server cannot drift apart and a test can check the
// windows against MaxShardBytes.
func transportConfig(handshake, idle, keepAlive time.Duration) *quic.Config {
	frame := uint64(MaxShardBytes + MaxHeaderBytes)
	return &quic.Config{
		HandshakeIdleTimeout: handshake, MaxIdleTimeout: idle, KeepAlivePeriod: keepAlive,
		InitialStreamReceiveWindow: initialStreamWindow, InitialConnectionReceiveWindow: initialConnWindow,
		MaxStreamReceiveWindow: frame, MaxConnectionReceiveWindow: 4 * frame,
	}
}

// Auth is the token part of a request.
type Auth struct {
	Token []byte        `cbor:"1,keyasint"` // CBOR cbfs.Token
	Vol   cbfs.VolumeID `cbor:"2,keyasint"`
	Tags  []cbfs.Tag    `cbor:"3,keyasint"` // the object's path tags (PathID is the last)
}

// PutShardReq stores a shard. Proof and Root tie it to a file's commitment
// so the relay can answer challenges on its own; a writer that does not
// know the root yet (streaming upload) leaves Root zero and sends the
// proofs later with OpPutProofs.
type PutShardReq struct {
	Auth  Auth            `cbor:"1,keyasint"`
	Hash  cbfs.ShardHash  `cbor:"2,keyasint"`
	Root  [32]byte        `cbor:"3,keyasint"`
	N     uint8           `cbor:"4,keyasint"` // shards per segment (K+M)
	Proof cbfs.ShardProof `cbor:"5,keyasint"`
	// Defer asks the relay to answer once the shard is received and
	// written, before it is durable; it is not held (not counted by Has,
	// not indexed) until an OpSyncShards naming it succeeds. Without it
	// the relay answers only once the shard is durable.
	Defer bool `cbor:"6,keyasint,omitempty"`
}

// ProofsReq attaches Merkle proofs to shards the relay already holds,
// once the writer knows the file's root (after its last segment). The
// data is the CBOR list of ShardProofEntry.
type ProofsReq struct {
	Auth Auth     `cbor:"1,keyasint"`
	Root [32]byte `cbor:"2,keyasint"`
	N    uint8    `cbor:"3,keyasint"`
}

// ShardProofEntry is one shard's proof.
type ShardProofEntry struct {
	Hash  cbfs.ShardHash  `cbor:"1,keyasint"`
	Proof cbfs.ShardProof `cbor:"2,keyasint"`
}

// MaxProofsBytes bounds a ProofsReq's data.
const MaxProofsBytes = 8 << 20

// ShardReq names a shard (get) or the set of shards to check (has).
type ShardReq struct {
	Auth   Auth             `cbor:"1,keyasint"`
	Hashes []cbfs.ShardHash `cbor:"2,keyasint"`
}

// HasResp says, per requested hash, whether the shard is held.
type HasResp struct {
	Have []bool `cbor:"1,keyasint"`
}

// ManifestReq stores (with data) or fetches a sealed manifest.
// LinkReq names the file whose shards are linked (From) and the path
// they are linked to (To), both in the same volume.
type LinkReq struct {
	From Auth `cbor:"1,keyasint"`
	To   Auth `cbor:"2,keyasint"`
}

// ManifestReq is a manifest put, get or delete.
type ManifestReq struct {
	Auth Auth   `cbor:"1,keyasint"`
	Seq  uint64 `cbor:"2,keyasint"` // a put with a lower Seq than the stored one is refused
}

// ManifestResp carries a stored manifest's sequence (data: the sealed bytes).
type ManifestResp struct {
	Seq uint64 `cbor:"1,keyasint"`
}

// ListReq lists the manifests under the token's prefix, after a cursor.
type ListReq struct {
	Auth  Auth     `cbor:"1,keyasint"`
	After cbfs.Tag `cbor:"2,keyasint"` // PathID cursor; zero to start
}

// ListEntry is one listed file.
type ListEntry struct {
	Tags   []cbfs.Tag `cbor:"1,keyasint"`
	Seq    uint64     `cbor:"2,keyasint"`
	Sealed []byte     `cbor:"3,keyasint"`
}

// ListResp is one page; More says whether another page follows.
type ListResp struct {
	Entries []ListEntry `cbor:"1,keyasint"`
	More    bool        `cbor:"2,keyasint"`
}

// ChallengeReq asks for a byte range of a shard with its proofs.
type ChallengeReq struct {
	Auth   Auth           `cbor:"1,keyasint"`
	Hash   cbfs.ShardHash `cbor:"2,keyasint"`
	Offset uint64         `cbor:"3,keyasint"`
	Length uint64         `cbor:"4,keyasint"`
}

// ChallengeResp proves a range: data is the Bao slice of the range
// against Hash, and Proof ties Hash to Root.
type ChallengeResp struct {
	Root  [32]byte        `cbor:"1,keyasint"`
	N     uint8           `cbor:"2,keyasint"`
	Proof cbfs.ShardProof `cbor:"3,keyasint"`
	// Receipt is the relay's signed custody receipt for the shard: what
	// an owner takes to the chain if the relay later stops answering.
	Receipt *cbfs.CustodyReceipt `cbor:"4,keyasint,omitempty"`
}

// RevokeReq hands the relay an owner-signed revocation.
type RevokeReq struct {
	Revocation cbfs.Revocation `cbor:"1,keyasint"`
}

// StatResp reports the relay's usage, the input to billing (§17.6).
type StatResp struct {
	ID       cbfs.RelayID  `cbor:"1,keyasint"`
	Used     uint64        `cbor:"2,keyasint"` // bytes of shards and manifests
	Capacity uint64        `cbor:"3,keyasint"`
	Volumes  []VolumeUsage `cbor:"4,keyasint"`
}

// VolumeUsage is bytes stored for one volume.
type VolumeUsage struct {
	Vol   cbfs.VolumeID `cbor:"1,keyasint"`
	Bytes uint64        `cbor:"2,keyasint"`
}

// ErrBadFrame means the peer sent bytes that are not a valid frame.
var ErrBadFrame = errors.New("relay: malformed frame")

// writeFrame writes one request or response.
func writeFrame(w io.Writer, kind uint8, hdr, data []byte) error {
	var h [5]byte
	h[0] = kind
	binary.BigEndian.PutUint32(h[1:], uint32(len(hdr)))
	var d [4]byte
	binary.BigEndian.PutUint32(d[:], uint32(len(data)))
	for _, b := range [][]byte{h[:], hdr, d[:], data} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// clientFirstAlloc is how much of an answer's announced data the client
// allocates at once: a whole default shard (2 MiB), so it is read without
// growing and copying the buffer. The relay, which any client can reach,
// starts at 1 MiB (or a pooled buffer) instead.
const (
	clientFirstAlloc = 8 << 20
	serverFirstAlloc = 1 << 20
)

// readAnswer reads a response frame on the client side, its data into
// buf when buf's capacity allows.
func readAnswer(r io.Reader, buf []byte) (status uint8, hdr, data []byte, err error) {
	return readFrameInto(r, buf, clientFirstAlloc, responseDataCap)
}

// readFrameInto reads one frame, checking each length against its cap
// before reading the bytes (dataCap may depend on the kind byte). The data
// goes into buf when its capacity allows (see bufPool), else into a new
// buffer of at most first bytes to start with.
func readFrameInto(r io.Reader, buf []byte, first int, dataCap func(kind uint8) int) (kind uint8, hdr, data []byte, err error) {
	var h [5]byte
	if _, err = io.ReadFull(r, h[:]); err != nil {
		return 0, nil, nil, err
	}
	kind = h[0]
	n := binary.BigEndian.Uint32(h[1:])
	if n > MaxHeaderBytes {
		return 0, nil, nil, fmt.Errorf("%w: header %d bytes, cap %d", ErrBadFrame, n, MaxHeaderBytes)
	}
	dc := dataCap(kind)
	if dc < 0 {
		return 0, nil, nil, fmt.Errorf("%w: unknown kind %d", ErrBadFrame, kind)
	}
	hdr = make([]byte, n)
	if _, err = io.ReadFull(r, hdr); err != nil {
		return 0, nil, nil, err
	}
	var d [4]byte
	if _, err = io.ReadFull(r, d[:]); err != nil {
		return 0, nil, nil, err
	}
	m := binary.BigEndian.Uint32(d[:])
	if uint64(m) > uint64(dc) {
		return 0, nil, nil, fmt.Errorf("%w: data %d bytes, cap %d", ErrBadFrame, m, dc)
	}
	data, err = readInto(r, buf, int(m), first)
	return kind, hdr, data, err
}

// readInto reads exactly n bytes into buf (reused if its capacity
// allows), growing it as bytes arrive (first, then doubling) so a peer
// announcing a large frame and stalling does not make us allocate it all.
func readInto(r io.Reader, buf []byte, n, first int) ([]byte, error) {
	buf = buf[:0]
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, growth(len(buf), cap(buf), n, first))
		}
		k, err := r.Read(buf[len(buf):min(n, cap(buf))])
		buf = buf[:len(buf)+k]
		if err != nil {
			if err == io.EOF && len(buf) == n {
				break
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return buf, nil
}

// growth is how many more bytes readInto makes room for when its buffer,
// of capacity c and full with have bytes, must reach n: first, then as
// much as it holds (doubling), or the whole rest when that is at most a
// quarter more than the step (rather than a bit short of it). Memory grows
// with what a peer sends, never with the length it announces.
func growth(have, c, n, first int) int {
	grow := max(c, first)
	if rest := n - have; rest <= grow+grow/4 {
		return rest
	}
	return grow
}

// poolable says whether a buffer of capacity c goes back to bufPool: big
// enough to be worth keeping (64 KiB) and no bigger than maxPooled.
func poolable(c int) bool { return c >= 64<<10 && c <= maxPooled }

// maxPooled is the largest buffer bufPool keeps: a whole default segment
// as one shard (K=1), with room for O_DIRECT's last block. Larger shards
// (segments above the default) get a buffer of their own per request, so
// idle buffers never hold more than bufKeep × maxPooled (129 MiB; 34 MiB
// with default shards of 2 MiB).
const maxPooled = cbfs.DefaultSegmentSize + 64<<10

// bufPool recycles the relay's shard-sized buffers (request data and
// shard reads): a put or get of 2 MiB shards otherwise allocates and
// zeroes a fresh buffer per request, and the GC's work grows with them.
// A channel, not a sync.Pool: a relay's live heap is small, so it
// collects every few shards, and a sync.Pool is emptied by every
// collection (profiles of BenchmarkProcesses showed most shard buffers
// newly allocated and zeroed). It keeps at most bufKeep buffers; beyond
// them a buffer is left to the collector.
var bufPool = make(chan []byte, bufKeep)

// bufKeep is how many idle buffers bufPool keeps: more than the shard
// requests a relay serves at once for one client (3 segments put at a
// time, a get's 4-6 segments in flight, a buffer each). With 8, a
// benchmark's relays still allocated a third of their buffers anew.
const bufKeep = 16

// getBuf returns an empty buffer, with capacity from the pool if any.
func getBuf() []byte {
	select {
	case b := <-bufPool:
		return b[:0]
	default:
		return nil
	}
}

// putBuf gives a buffer back; the caller must not use it afterwards.
func putBuf(b []byte) {
	if !poolable(cap(b)) {
		return
	}
	select {
	case bufPool <- b[:0]:
	default:
	}
}

// requestDataCap is the data cap of each op.
func requestDataCap(op uint8) int {
	switch Op(op) {
	case OpPutShard:
		return MaxShardBytes
	case OpPutManifest:
		return MaxManifestBytes
	case OpPutProofs:
		return MaxProofsBytes
	case OpGetShard, OpGetManifest, OpList, OpDelete, OpChallenge, OpHas, OpRevoke, OpStat, OpDropShards, OpLink, OpSyncShards:
		return 0
	}
	return -1
}

// responseDataCap is the data cap of a response (the client side).
func responseDataCap(status uint8) int {
	if status > StatusFull {
		return -1
	}
	return maxData
}

func sortUsage(v []VolumeUsage) {
	slices.SortFunc(v, func(a, b VolumeUsage) int { return bytes.Compare(a.Vol[:], b.Vol[:]) })
}
