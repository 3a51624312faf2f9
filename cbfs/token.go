package cbfs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Perm is a set of capabilities on a volume path prefix.
type Perm uint8

// Permissions. Delete is part of write (a writer can replace a file, which
// frees its old shards).
const (
	PermRead  Perm = 1
	PermWrite Perm = 2
	permAll        = PermRead | PermWrite
)

// MaxChain bounds a delegation chain (and the signatures a relay checks
// per token).
const MaxChain = 8

// MaxTokenBytes bounds an encoded token.
const MaxTokenBytes = 8 << 10

// Link is one signed step of a capability token. The first link is signed
// by the volume owner; each later link by the Holder of the link before it,
// and may only narrow what that link allowed.
type Link struct {
	Volume VolumeID `cbor:"1,keyasint"`
	Prefix []Tag    `cbor:"2,keyasint"` // path tags of the allowed prefix; empty = whole volume
	Perms  Perm     `cbor:"3,keyasint"`
	Expiry uint64   `cbor:"4,keyasint"` // unix seconds; the link is refused at or after it
	Holder [20]byte `cbor:"5,keyasint"` // who may use (and delegate) it; zero = any bearer, no delegation
	Parent [32]byte `cbor:"6,keyasint"` // ID of the link before; zero for the first
	Nonce  [8]byte  `cbor:"7,keyasint"` // makes two otherwise equal grants distinct (and separately revocable)
	Sig    []byte   `cbor:"8,keyasint,omitempty"`
}

// Token is a capability: the owner's address and volume name (from which
// the VolumeID is derived, so no chain lookup is needed to know the owner)
// and the chain of links.
type Token struct {
	Owner [20]byte `cbor:"1,keyasint"`
	Name  string   `cbor:"2,keyasint"`
	Links []Link   `cbor:"3,keyasint"`
}

// tokenDomain separates token signatures from every other signature of the
// same key (transactions sign keccak256 of a CBOR array, never this prefix).
const tokenDomain = "cowboy-cbfs-token-v1:"

// ID is keccak256(domain ‖ canonical CBOR of the link without Sig): what
// is signed, what the next link names as Parent, and what a revocation
// names.
func (l *Link) ID() ([32]byte, error) {
	c := *l
	c.Sig = nil
	b, err := Marshal(&c)
	if err != nil {
		return [32]byte{}, fmt.Errorf("cbfs: encode link: %w", err)
	}
	return crypto.Keccak256([]byte(tokenDomain), b), nil
}

// sign fills Sig with key's signature over the link's ID.
func (l *Link) sign(key *crypto.PrivateKey) error {
	id, err := l.ID()
	if err != nil {
		return err
	}
	v, r, s := key.Sign(id)
	l.Sig = append(append(append(make([]byte, 0, 65), r[:]...), s[:]...), v)
	return nil
}

// signer recovers the address that signed the link.
func (l *Link) signer() ([20]byte, [32]byte, error) {
	id, err := l.ID()
	if err != nil {
		return [20]byte{}, id, err
	}
	if len(l.Sig) != 65 {
		return [20]byte{}, id, fmt.Errorf("%w: signature is %d bytes", ErrForged, len(l.Sig))
	}
	var r, s [32]byte
	copy(r[:], l.Sig[:32])
	copy(s[:], l.Sig[32:64])
	pub, err := crypto.Recover(id, l.Sig[64], r, s)
	if err != nil {
		return [20]byte{}, id, fmt.Errorf("%w: %v", ErrForged, err)
	}
	return crypto.PubkeyToAddress(pub), id, nil
}

// Token errors: each refusal says which rule it broke.
var (
	ErrForged       = errors.New("cbfs: token signature invalid")
	ErrWrongVolume  = errors.New("cbfs: token is for another volume")
	ErrExpired      = errors.New("cbfs: token expired")
	ErrRevoked      = errors.New("cbfs: token revoked")
	ErrWidened      = errors.New("cbfs: delegation widens its parent's scope")
	ErrNotPermitted = errors.New("cbfs: token does not allow this operation")
	ErrWrongHolder  = errors.New("cbfs: token is bound to another holder")
	ErrMalformedTok = errors.New("cbfs: malformed token")
)

// Grant creates a first-link token: the owner grants holder perms on
// prefix (path tags from Volume.PrefixTags) until expiry.
func Grant(owner *crypto.PrivateKey, name string, prefix []Tag, perms Perm, expiry uint64, holder [20]byte, nonce [8]byte) (*Token, error) {
	if err := ValidVolumeName(name); err != nil {
		return nil, err
	}
	t := &Token{Owner: owner.Address(), Name: name}
	l := Link{Volume: DeriveVolumeID(t.Owner, name), Prefix: prefix, Perms: perms, Expiry: expiry, Holder: holder, Nonce: nonce}
	if err := l.sign(owner); err != nil {
		return nil, err
	}
	t.Links = []Link{l}
	return t, nil
}

// Delegate appends a link signed by key (which must be the current
// holder) that narrows the token to prefix, perms and expiry for holder.
// The result is checked with the same rules a relay applies.
func (t *Token) Delegate(key *crypto.PrivateKey, prefix []Tag, perms Perm, expiry uint64, holder [20]byte, nonce [8]byte) (*Token, error) {
	if len(t.Links) == 0 {
		return nil, ErrMalformedTok
	}
	last := t.Links[len(t.Links)-1]
	pid, err := last.ID()
	if err != nil {
		return nil, err
	}
	l := Link{Volume: last.Volume, Prefix: prefix, Perms: perms, Expiry: expiry, Holder: holder, Parent: pid, Nonce: nonce}
	if err := l.sign(key); err != nil {
		return nil, err
	}
	nt := &Token{Owner: t.Owner, Name: t.Name, Links: append(append([]Link(nil), t.Links...), l)}
	return nt, nil
}

// hasPrefix reports whether p starts with prefix.
func hasPrefix(p, prefix []Tag) bool {
	if len(prefix) > len(p) {
		return false
	}
	for i := range prefix {
		if p[i] != prefix[i] {
			return false
		}
	}
	return true
}

// Verified is what a token allows once every link has checked out.
type Verified struct {
	Volume VolumeID
	Owner  [20]byte
	Prefix []Tag
	Perms  Perm
	Expiry uint64
	Holder [20]byte
	IDs    [][32]byte // link IDs, first to last
}

// Verify checks the whole chain with no chain round trip: the first link
// is signed by Owner and names DeriveVolumeID(Owner, Name); each later link
// is signed by the previous Holder, names the previous link as Parent and
// narrows prefix, permissions and expiry; no link is expired at now (unix
// seconds) or revoked.
func (t *Token) Verify(now uint64, revoked func(VolumeID, [32]byte) bool) (*Verified, error) {
	if len(t.Links) == 0 || len(t.Links) > MaxChain {
		return nil, fmt.Errorf("%w: %d links", ErrMalformedTok, len(t.Links))
	}
	if ValidVolumeName(t.Name) != nil {
		return nil, fmt.Errorf("%w: volume name", ErrMalformedTok)
	}
	vol := DeriveVolumeID(t.Owner, t.Name)
	v := &Verified{Volume: vol, Owner: t.Owner}
	for i := range t.Links {
		l := &t.Links[i]
		if l.Volume != vol {
			return nil, fmt.Errorf("%w: link %d", ErrWrongVolume, i)
		}
		if len(l.Prefix) > MaxDepth || l.Perms == 0 || l.Perms&^permAll != 0 {
			return nil, fmt.Errorf("%w: link %d scope", ErrMalformedTok, i)
		}
		signer, id, err := l.signer()
		if err != nil {
			return nil, fmt.Errorf("link %d: %w", i, err)
		}
		if i == 0 {
			if signer != t.Owner || l.Parent != ([32]byte{}) {
				return nil, fmt.Errorf("%w: first link not signed by the volume owner", ErrForged)
			}
		} else {
			prev := &t.Links[i-1]
			if prev.Holder == ([20]byte{}) {
				return nil, fmt.Errorf("%w: link %d delegates a bearer link", ErrWidened, i)
			}
			if signer != prev.Holder || l.Parent != v.IDs[i-1] {
				return nil, fmt.Errorf("%w: link %d not signed by its parent's holder", ErrForged, i)
			}
			if !hasPrefix(l.Prefix, prev.Prefix) || l.Perms&^prev.Perms != 0 || l.Expiry > prev.Expiry {
				return nil, fmt.Errorf("%w: link %d", ErrWidened, i)
			}
		}
		if now >= l.Expiry {
			return nil, fmt.Errorf("%w: link %d", ErrExpired, i)
		}
		if revoked != nil && revoked(vol, id) {
			return nil, fmt.Errorf("%w: link %d (%x)", ErrRevoked, i, id[:8])
		}
		v.IDs = append(v.IDs, id)
	}
	last := t.Links[len(t.Links)-1]
	v.Prefix, v.Perms, v.Expiry, v.Holder = last.Prefix, last.Perms, last.Expiry, last.Holder
	return v, nil
}

// Allows checks one operation: perm on the object whose path tags are
// tags (a nil tags means the volume as a whole, e.g. a listing, which is
// then filtered by prefix), by the connection authenticated as requester.
func (v *Verified) Allows(vol VolumeID, tags []Tag, perm Perm, requester [20]byte) error {
	if vol != v.Volume {
		return ErrWrongVolume
	}
	if v.Holder != ([20]byte{}) && v.Holder != requester {
		return ErrWrongHolder
	}
	if perm&^v.Perms != 0 {
		return ErrNotPermitted
	}
	if tags != nil && (len(tags) <= len(v.Prefix) || !hasPrefix(tags, v.Prefix)) {
		return fmt.Errorf("%w: path outside the token's prefix", ErrNotPermitted)
	}
	return nil
}

// Encode is the printable form: "cbfs1." + base64url(CBOR).
func (t *Token) Encode() (string, error) {
	b, err := Marshal(t)
	if err != nil {
		return "", fmt.Errorf("cbfs: encode token: %w", err)
	}
	return "cbfs1." + base64.RawURLEncoding.EncodeToString(b), nil
}

// ParseToken reads the printable form.
func ParseToken(s string) (*Token, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(s), "cbfs1.")
	if !ok || len(rest) > MaxTokenBytes*4/3+4 {
		return nil, fmt.Errorf("%w: not a cbfs1 token", ErrMalformedTok)
	}
	b, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedTok, err)
	}
	return DecodeToken(b)
}

// DecodeToken reads the CBOR form (as carried in relay requests).
func DecodeToken(b []byte) (*Token, error) {
	if len(b) > MaxTokenBytes {
		return nil, fmt.Errorf("%w: %d bytes", ErrMalformedTok, len(b))
	}
	var t Token
	if err := Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedTok, err)
	}
	return &t, nil
}

// Revocation withdraws one link (and with it every delegation below it).
// Only the volume owner signs revocations; relays keep them until the
// revoked link expires.
type Revocation struct {
	Owner  [20]byte `cbor:"1,keyasint"`
	Name   string   `cbor:"2,keyasint"`
	Link   [32]byte `cbor:"3,keyasint"`
	Expiry uint64   `cbor:"4,keyasint"` // when the relay may forget it (the revoked link's expiry)
	Sig    []byte   `cbor:"5,keyasint,omitempty"`
}

const revocationDomain = "cowboy-cbfs-revoke-v1:"

func (r *Revocation) digest() ([32]byte, error) {
	c := *r
	c.Sig = nil
	b, err := Marshal(&c)
	if err != nil {
		return [32]byte{}, fmt.Errorf("cbfs: encode revocation: %w", err)
	}
	return crypto.Keccak256([]byte(revocationDomain), b), nil
}

// Revoke makes the owner's revocation of link id (valid until expiry).
func Revoke(owner *crypto.PrivateKey, name string, id [32]byte, expiry uint64) (*Revocation, error) {
	r := &Revocation{Owner: owner.Address(), Name: name, Link: id, Expiry: expiry}
	d, err := r.digest()
	if err != nil {
		return nil, err
	}
	v, rr, s := owner.Sign(d)
	r.Sig = append(append(append(make([]byte, 0, 65), rr[:]...), s[:]...), v)
	return r, nil
}

// Verify checks the owner's signature and returns the volume it concerns.
func (r *Revocation) Verify() (VolumeID, error) {
	if ValidVolumeName(r.Name) != nil || len(r.Sig) != 65 {
		return VolumeID{}, fmt.Errorf("%w: malformed revocation", ErrMalformedTok)
	}
	d, err := r.digest()
	if err != nil {
		return VolumeID{}, err
	}
	var rr, s [32]byte
	copy(rr[:], r.Sig[:32])
	copy(s[:], r.Sig[32:64])
	pub, err := crypto.Recover(d, r.Sig[64], rr, s)
	if err != nil || crypto.PubkeyToAddress(pub) != r.Owner {
		return VolumeID{}, fmt.Errorf("%w: revocation not signed by the owner", ErrForged)
	}
	return DeriveVolumeID(r.Owner, r.Name), nil
}
