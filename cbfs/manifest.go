package cbfs

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/fxamacker/cbor/v2"
	"lukechampine.com/blake3"
)

// RelayID is a relay's node address (the last 20 bytes of keccak256 of its
// secp256k1 public key, as every cowboy address).
type RelayID [20]byte

// Segment is one segment's entry in the manifest: its shards' hashes and
// where each shard is placed (index i on Relays[i]).
type Segment struct {
	Hashes []ShardHash `cbor:"1,keyasint"`
	Relays []RelayID   `cbor:"2,keyasint"`
	// Gen is 0 for a segment written with its file, and a fresh random
	// number each time the segment is rewritten in place (cluster
	// Update): it is part of the segment's key.
	Gen uint64 `cbor:"3,keyasint,omitempty"`
}

// Manifest describes one stored file. It is sealed under the volume key
// before it leaves the client (relays see its size only) and its shard
// hashes are committed by Root.
type Manifest struct {
	Version  uint8     `cbor:"1,keyasint"`
	Volume   VolumeID  `cbor:"2,keyasint"`
	File     FileID    `cbor:"3,keyasint"`
	Path     string    `cbor:"4,keyasint"`
	Size     uint64    `cbor:"5,keyasint"`
	K        uint8     `cbor:"6,keyasint"`
	M        uint8     `cbor:"7,keyasint"`
	SegSize  uint32    `cbor:"8,keyasint"`
	Seq      uint64    `cbor:"9,keyasint"` // bumped by every repair and every update
	Segments []Segment `cbor:"10,keyasint"`
	// File attributes, kept for the FUSE mount (the volume has no other
	// place for them; they are sealed with the manifest, so relays do
	// not see them). Zero: not recorded.
	Mode    uint32 `cbor:"11,keyasint,omitempty"` // permission bits (0o7777)
	ModTime int64  `cbor:"12,keyasint,omitempty"` // unix nanoseconds
	Owner   *Owner `cbor:"13,keyasint,omitempty"` // nil: not recorded (uid 0 is root)
	ATime   int64  `cbor:"14,keyasint,omitempty"` // access time, unix nanoseconds
	// Dir marks a directory's manifest: attributes only (no segments,
	// size 0), so the mount keeps a directory's mode, times and owner,
	// and an empty directory, across mounts.
	Dir bool `cbor:"15,keyasint,omitempty"`
}

// Owner is a file's or directory's POSIX owner as the mount shows it.
type Owner struct {
	UID uint32 `cbor:"1,keyasint"`
	GID uint32 `cbor:"2,keyasint"`
}

// ManifestVersion is the only version this code writes and reads.
const ManifestVersion = 1

// Params is the manifest's erasure-coding shape.
func (m *Manifest) Params() Params {
	return Params{K: int(m.K), M: int(m.M), SegmentSize: int(m.SegSize)}
}

// SegmentLen is the plaintext length of segment i.
func (m *Manifest) SegmentLen(i int) int {
	start := uint64(i) * uint64(m.SegSize)
	return int(min(uint64(m.SegSize), m.Size-start))
}

// ShardLen is the byte length of every shard of segment i.
func (m *Manifest) ShardLen(i int) int { return m.Params().shardLen(m.SegmentLen(i)) }

// segmentCount is ceil(size/segsize), with one (empty) segment for an
// empty file so that even it has an authenticated ciphertext.
func segmentCount(size uint64, seg int) int {
	if size == 0 {
		return 1
	}
	return int((size + uint64(seg) - 1) / uint64(seg))
}

// Validate checks internal consistency: shape, segment count, per-segment
// shard counts.
func (m *Manifest) Validate() error {
	if m.Version != ManifestVersion {
		return fmt.Errorf("cbfs: manifest version %d", m.Version)
	}
	if err := m.Params().Validate(); err != nil {
		return err
	}
	if m.Dir {
		if m.Size != 0 || len(m.Segments) != 0 {
			return fmt.Errorf("cbfs: directory manifest with %d bytes in %d segments", m.Size, len(m.Segments))
		}
		return nil
	}
	if n := segmentCount(m.Size, int(m.SegSize)); len(m.Segments) != n {
		return fmt.Errorf("cbfs: manifest has %d segments, size needs %d", len(m.Segments), n)
	}
	for i, s := range m.Segments {
		if len(s.Hashes) != int(m.K+m.M) || len(s.Relays) != int(m.K+m.M) {
			return fmt.Errorf("cbfs: manifest segment %d: %d hashes, %d relays, want %d", i, len(s.Hashes), len(s.Relays), m.K+m.M)
		}
	}
	return nil
}

// leaf hashes a shard's position, length and hash: moving a shard to
// another slot changes the root.
func leaf(seg uint64, shard uint8, shardLen uint32, h ShardHash) [32]byte {
	var b [1 + 8 + 1 + 4 + 32]byte
	b[0] = 0
	binary.BigEndian.PutUint64(b[1:], seg)
	b[9] = shard
	binary.BigEndian.PutUint32(b[10:], shardLen)
	copy(b[14:], h[:])
	return blake3.Sum256(b[:])
}

func node(l, r [32]byte) [32]byte {
	var b [65]byte
	b[0] = 1
	copy(b[1:], l[:])
	copy(b[33:], r[:])
	return blake3.Sum256(b[:])
}

// leaves lists the Merkle leaves in (segment, shard) order.
func (m *Manifest) leaves() [][32]byte {
	out := make([][32]byte, 0, len(m.Segments)*int(m.K+m.M))
	for i, s := range m.Segments {
		sl := uint32(m.ShardLen(i))
		for j, h := range s.Hashes {
			out = append(out, leaf(uint64(i), uint8(j), sl, h))
		}
	}
	return out
}

// merkleRoot folds leaves pairwise; an odd last node is carried up as is.
func merkleRoot(level [][32]byte) [32]byte {
	if len(level) == 0 {
		return [32]byte{}
	}
	for len(level) > 1 {
		next := make([][32]byte, 0, (len(level)+1)/2)
		for i := 0; i+1 < len(level); i += 2 {
			next = append(next, node(level[i], level[i+1]))
		}
		if len(level)%2 == 1 {
			next = append(next, level[len(level)-1])
		}
		level = next
	}
	return level[0]
}

// Root is the Merkle root of the manifest's shard hashes.
func (m *Manifest) Root() [32]byte { return merkleRoot(m.leaves()) }

// ShardProof is what proves one shard's hash against a root: its position,
// length, and the sibling hashes from leaf to root.
type ShardProof struct {
	Segment  uint64     `cbor:"1,keyasint"`
	Shard    uint8      `cbor:"2,keyasint"`
	ShardLen uint32     `cbor:"3,keyasint"`
	Leaves   uint64     `cbor:"4,keyasint"` // total leaf count
	Siblings [][32]byte `cbor:"5,keyasint"`
}

// Proof returns the Merkle proof for shard j of segment i.
func (m *Manifest) Proof(i, j int) ShardProof {
	level := m.leaves()
	idx := i*int(m.K+m.M) + j
	p := ShardProof{Segment: uint64(i), Shard: uint8(j), ShardLen: uint32(m.ShardLen(i)), Leaves: uint64(len(level))}
	for len(level) > 1 {
		if sib := idx ^ 1; sib < len(level) {
			p.Siblings = append(p.Siblings, level[sib])
		}
		next := make([][32]byte, 0, (len(level)+1)/2)
		for k := 0; k+1 < len(level); k += 2 {
			next = append(next, node(level[k], level[k+1]))
		}
		if len(level)%2 == 1 {
			next = append(next, level[len(level)-1])
		}
		level, idx = next, idx/2
	}
	return p
}

// ErrBadProof means a shard's hash does not lead to the claimed root.
var ErrBadProof = errors.New("cbfs: merkle proof does not match the root")

// Verify checks that hash h sits at the proof's position under root, for a
// file with k+m shards per segment.
func (p *ShardProof) Verify(root [32]byte, shardsPerSeg int, h ShardHash) error {
	if shardsPerSeg < 1 || int(p.Shard) >= shardsPerSeg || p.Leaves == 0 || p.Leaves > 1<<40 {
		return fmt.Errorf("%w: bad shape", ErrBadProof)
	}
	idx := p.Segment*uint64(shardsPerSeg) + uint64(p.Shard)
	if idx >= p.Leaves {
		return fmt.Errorf("%w: position outside the tree", ErrBadProof)
	}
	cur := leaf(p.Segment, p.Shard, p.ShardLen, h)
	n, sibs := p.Leaves, p.Siblings
	for n > 1 {
		if sib := idx ^ 1; sib < n {
			if len(sibs) == 0 {
				return fmt.Errorf("%w: too few siblings", ErrBadProof)
			}
			if idx%2 == 0 {
				cur = node(cur, sibs[0])
			} else {
				cur = node(sibs[0], cur)
			}
			sibs = sibs[1:]
		}
		n, idx = (n+1)/2, idx/2
	}
	if len(sibs) != 0 || cur != root {
		return ErrBadProof
	}
	return nil
}

// CommitmentSize is the encoded size of a StorageCommitment.
const CommitmentSize = 64

// StorageCommitment is what the chain (0x0A) records per file: the Merkle
// root of its shards and the shape needed to check a proof against it,
// 64 bytes: root 32 ‖ file 16 ‖ size u64 ‖ segsize u32 ‖ k u8 ‖ m u8 ‖
// version u16, integers big-endian.
type StorageCommitment struct {
	Root    [32]byte
	File    FileID
	Size    uint64
	SegSize uint32
	K, M    uint8
	Version uint16
}

// Commitment returns the manifest's commitment. Repair moves shards but
// rebuilds them bit for bit, so the commitment of a file never changes
// after it is written.
func (m *Manifest) Commitment() StorageCommitment {
	return StorageCommitment{Root: m.Root(), File: m.File, Size: m.Size, SegSize: m.SegSize, K: m.K, M: m.M, Version: ManifestVersion}
}

// Bytes is the 64-byte encoding.
func (c StorageCommitment) Bytes() []byte {
	b := make([]byte, 0, CommitmentSize)
	b = append(b, c.Root[:]...)
	b = append(b, c.File[:]...)
	b = binary.BigEndian.AppendUint64(b, c.Size)
	b = binary.BigEndian.AppendUint32(b, c.SegSize)
	b = append(b, c.K, c.M)
	return binary.BigEndian.AppendUint16(b, c.Version)
}

// ParseCommitment decodes the 64-byte encoding.
func ParseCommitment(b []byte) (StorageCommitment, error) {
	var c StorageCommitment
	if len(b) != CommitmentSize {
		return c, fmt.Errorf("cbfs: commitment is %d bytes, want %d", len(b), CommitmentSize)
	}
	copy(c.Root[:], b[:32])
	copy(c.File[:], b[32:48])
	c.Size = binary.BigEndian.Uint64(b[48:])
	c.SegSize = binary.BigEndian.Uint32(b[56:])
	c.K, c.M = b[60], b[61]
	c.Version = binary.BigEndian.Uint16(b[62:])
	return c, nil
}

var (
	encMode cbor.EncMode
	decMode cbor.DecMode
)

func init() {
	var err error
	if encMode, err = cbor.CoreDetEncOptions().EncMode(); err != nil {
		panic(err)
	}
	if decMode, err = (cbor.DecOptions{MaxArrayElements: 1 << 20, MaxMapPairs: 1 << 10, MaxNestedLevels: 16}).DecMode(); err != nil {
		panic(err)
	}
}

// Marshal is the canonical CBOR encoding (deterministic: core
// deterministic encoding of RFC 8949 §4.2.1).
func Marshal(v any) ([]byte, error) { return encMode.Marshal(v) }

// Unmarshal decodes CBOR with bounded array and map sizes.
func Unmarshal(b []byte, v any) error { return decMode.Unmarshal(b, v) }

// SealManifest encodes and seals a manifest under the volume key; the
// additional data binds it to the file's PathID so a relay cannot serve
// one file's manifest for another path.
func (v *Volume) SealManifest(m *Manifest, pathID Tag) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	b, err := Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("cbfs: encode manifest: %w", err)
	}
	return v.sealBlob("manifest", b, append(v.ID[:], pathID[:]...))
}

// OpenManifest opens a sealed manifest for pathID and validates it.
func (v *Volume) OpenManifest(sealed []byte, pathID Tag) (*Manifest, error) {
	b, err := v.openBlob("manifest", sealed, append(v.ID[:], pathID[:]...))
	if err != nil {
		return nil, fmt.Errorf("cbfs: manifest: %w", err)
	}
	var m Manifest
	if err := Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("cbfs: decode manifest: %w", err)
	}
	if m.Volume != v.ID {
		return nil, errors.New("cbfs: manifest belongs to another volume")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	tags, err := v.PathTags(m.Path)
	if err != nil || tags[len(tags)-1] != pathID {
		return nil, errors.New("cbfs: manifest path does not match its path id")
	}
	return &m, nil
}
