package cbfs

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"lukechampine.com/blake3"
)

// VolumeID names a volume everywhere (relays, tokens, the 0x0A actor). It is
// derived from the owner's address and the volume name, so anyone can check
// that a token signed by an address is for a volume that address owns,
// without asking the chain.
type VolumeID [32]byte

// String is the hex form used by the CLI and in logs.
func (v VolumeID) String() string { return "0x" + hex.EncodeToString(v[:]) }

// ParseVolumeID reads the 0x-prefixed hex form.
func ParseVolumeID(s string) (VolumeID, error) {
	var v VolumeID
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != len(v) {
		return v, fmt.Errorf("cbfs: volume id %q is not 32 hex bytes", s)
	}
	copy(v[:], b)
	return v, nil
}

// MaxVolumeNameLen bounds a volume name (it is hashed, never stored on relays).
const MaxVolumeNameLen = 64

// DeriveVolumeID is blake3("cbfs/volume/v1" ‖ owner ‖ len(name) ‖ name).
func DeriveVolumeID(owner [20]byte, name string) VolumeID {
	h := blake3.New(32, nil)
	h.Write([]byte("cbfs/volume/v1"))
	h.Write(owner[:])
	h.Write([]byte{byte(len(name))})
	h.Write([]byte(name))
	var v VolumeID
	h.Sum(v[:0])
	return v
}

// ValidVolumeName accepts 1..64 bytes of [a-z0-9._-].
func ValidVolumeName(name string) error {
	if len(name) == 0 || len(name) > MaxVolumeNameLen {
		return fmt.Errorf("cbfs: volume name must be 1..%d bytes", MaxVolumeNameLen)
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("cbfs: volume name %q: only a-z 0-9 . _ - allowed", name)
		}
	}
	return nil
}

// Volume is what a client needs to read and write a volume: its ID and the
// 32-byte secret volume key. Relays never see the key.
type Volume struct {
	ID  VolumeID
	Key [32]byte
}

// NewVolumeKey draws a fresh random volume key.
func NewVolumeKey() ([32]byte, error) {
	var k [32]byte
	if _, err := rand.Read(k[:]); err != nil {
		return k, fmt.Errorf("cbfs: volume key: %w", err)
	}
	return k, nil
}

// derive is HKDF-SHA256 with the volume ID as salt and a labelled info.
func (v *Volume) derive(label string, parts ...[]byte) [32]byte {
	info := []byte("cbfs/v1/" + label)
	for _, p := range parts {
		info = append(info, p...)
	}
	k, err := hkdf.Key(sha256.New, v.Key[:], v.ID[:], string(info), 32)
	if err != nil { // only for out-of-range lengths, impossible here
		panic(fmt.Sprintf("cbfs: hkdf: %v", err))
	}
	var out [32]byte
	copy(out[:], k)
	return out
}

// FileID is random per upload: a rewrite of the same path gets new segment
// keys, so no (key, nonce) pair is ever used twice.
type FileID [16]byte

// NewFileID draws a random FileID.
func NewFileID() (FileID, error) {
	var f FileID
	if _, err := rand.Read(f[:]); err != nil {
		return f, fmt.Errorf("cbfs: file id: %w", err)
	}
	return f, nil
}

// segmentKey is the per-segment AES-256 key: HKDF(volume key, salt=volume
// ID, info="cbfs/v1/segment" ‖ FileID ‖ index).
//
// A segment rewritten in place (Segment.Gen, a random nonzero number drawn
// for each rewrite) adds the generation to the info: the same FileID and
// index never get the same key twice, so the fixed nonce stays safe.
func (v *Volume) segmentKey(f FileID, index, gen uint64) [32]byte {
	var idx [8]byte
	binary.BigEndian.PutUint64(idx[:], index)
	if gen == 0 {
		return v.derive("segment", f[:], idx[:])
	}
	var g [8]byte
	binary.BigEndian.PutUint64(g[:], gen)
	return v.derive("segment", f[:], idx[:], g[:])
}

// NewSegmentGen draws the generation of a rewritten segment: random, so
// a rewrite that failed half way and is tried again never reuses a key.
func NewSegmentGen() (uint64, error) {
	var b [8]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return 0, fmt.Errorf("cbfs: segment generation: %w", err)
		}
		if g := binary.BigEndian.Uint64(b[:]); g != 0 {
			return g, nil
		}
	}
}

// segmentAAD binds the ciphertext to the volume, the file and the index.
func (v *Volume) segmentAAD(f FileID, index uint64) []byte {
	aad := make([]byte, 0, 14+32+16+8)
	aad = append(aad, "cbfs/v1/seg-ad"...)
	aad = append(aad, v.ID[:]...)
	aad = append(aad, f[:]...)
	return binary.BigEndian.AppendUint64(aad, index)
}

// Tag is a keyed hash of a path prefix: what relays see instead of names.
type Tag [32]byte

// CleanPath normalises a volume path: no leading or trailing slash, no
// empty, "." or ".." component, at most 1024 bytes and 32 levels.
func CleanPath(p string) (string, error) {
	p = strings.Trim(p, "/")
	if p == "" || len(p) > 1024 {
		return "", fmt.Errorf("cbfs: path %q: must be 1..1024 bytes", p)
	}
	parts := strings.Split(p, "/")
	if len(parts) > MaxDepth {
		return "", fmt.Errorf("cbfs: path %q: deeper than %d levels", p, MaxDepth)
	}
	for _, c := range parts {
		if c == "" || c == "." || c == ".." {
			return "", fmt.Errorf("cbfs: path %q: empty, . or .. component", p)
		}
	}
	return p, nil
}

// MaxDepth bounds the number of path components (and so of tags a relay
// checks per request).
const MaxDepth = 32

// PathTags returns one tag per level of a clean path: tag i is the keyed
// hash of the first i+1 components. The last tag is the file's PathID. A
// prefix "a/b/" of the same volume has tags equal to the first two, which is
// how a relay checks a prefix-scoped token without seeing any name.
func (v *Volume) PathTags(path string) ([]Tag, error) {
	p, err := CleanPath(path)
	if err != nil {
		return nil, err
	}
	key := v.derive("path-tag")
	parts := strings.Split(p, "/")
	tags := make([]Tag, len(parts))
	for i := range parts {
		prefix := strings.Join(parts[:i+1], "/")
		h := blake3.New(32, key[:])
		h.Write([]byte(prefix))
		h.Sum(tags[i][:0])
	}
	return tags, nil
}

// PrefixTags is PathTags for a directory prefix such as "reports/"; the
// empty prefix (the whole volume) has no tags.
func (v *Volume) PrefixTags(prefix string) ([]Tag, error) {
	if strings.Trim(prefix, "/") == "" {
		return nil, nil
	}
	return v.PathTags(prefix)
}

// sealBlob seals small metadata (the manifest) under a labelled key with a
// random nonce: nonce ‖ ciphertext.
func (v *Volume) sealBlob(label string, plain, aad []byte) ([]byte, error) {
	k := v.derive(label)
	g, err := newGCM(k[:])
	if err != nil {
		return nil, err
	}
	out := make([]byte, g.NonceSize(), g.NonceSize()+len(plain)+g.Overhead())
	if _, err := rand.Read(out); err != nil {
		return nil, fmt.Errorf("cbfs: nonce: %w", err)
	}
	return g.Seal(out, out, plain, aad), nil
}

// ErrAuth means a sealed object did not open: wrong key or tampered bytes.
var ErrAuth = errors.New("cbfs: authentication failed")

func (v *Volume) openBlob(label string, sealed, aad []byte) ([]byte, error) {
	k := v.derive(label)
	g, err := newGCM(k[:])
	if err != nil {
		return nil, err
	}
	if len(sealed) < g.NonceSize()+g.Overhead() {
		return nil, fmt.Errorf("%w: sealed blob too short", ErrAuth)
	}
	plain, err := g.Open(nil, sealed[:g.NonceSize()], sealed[g.NonceSize():], aad)
	if err != nil {
		return nil, ErrAuth
	}
	return plain, nil
}

func newGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("cbfs: aes: %w", err)
	}
	g, err := cipher.NewGCM(b)
	if err != nil {
		return nil, fmt.Errorf("cbfs: gcm: %w", err)
	}
	return g, nil
}
