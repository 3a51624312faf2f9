package crypto

import (
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Signature rules fixed by the project (spec/README.md "signature rules"):
// r and s are 32-byte big-endian integers, s lies in the lower half of the
// curve order (EIP-2), and the recovery id y_parity is 0 or 1.

// Errors returned by Recover, so callers can tell a user exactly which rule
// their signature broke.
var (
	ErrInvalidYParity = errors.New("signature y_parity must be 0 or 1")
	ErrInvalidR       = errors.New("signature r is zero or not below the curve order")
	ErrInvalidS       = errors.New("signature s is zero or not below the curve order")
	ErrHighS          = errors.New("signature s is in the upper half of the curve order (EIP-2)")
	ErrRecover        = errors.New("signature does not recover a public key")
)

// PrivateKey is a secp256k1 private key of an external account.
type PrivateKey struct{ k *secp256k1.PrivateKey }

// GenerateKey makes a fresh key from the operating system's randomness.
func GenerateKey() (*PrivateKey, error) {
	var b [32]byte
	for {
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("generate key: %w", err)
		}
		if k, err := PrivateKeyFromBytes(b[:]); err == nil {
			return k, nil
		}
	}
}

// PrivateKeyFromBytes accepts a 32-byte big-endian scalar in [1, n-1].
func PrivateKeyFromBytes(b []byte) (*PrivateKey, error) {
	if len(b) != 32 {
		return nil, fmt.Errorf("private key must be 32 bytes, got %d", len(b))
	}
	var s secp256k1.ModNScalar
	if overflow := s.SetByteSlice(b); overflow || s.IsZero() {
		return nil, errors.New("private key is zero or not below the curve order")
	}
	return &PrivateKey{k: secp256k1.NewPrivateKey(&s)}, nil
}

// Bytes returns the 32-byte big-endian scalar.
func (p *PrivateKey) Bytes() []byte { return p.k.Serialize() }

// PublicKey returns the 64-byte uncompressed public key X||Y (no 0x04 prefix).
func (p *PrivateKey) PublicKey() []byte { return p.k.PubKey().SerializeUncompressed()[1:] }

// Address is the Ethereum-style account address of this key.
func (p *PrivateKey) Address() [20]byte { return PubkeyToAddress(p.PublicKey()) }

// Sign signs a 32-byte digest deterministically (RFC 6979) and returns the
// recovery id and the low-s signature.
func (p *PrivateKey) Sign(digest [32]byte) (yParity byte, r, s [32]byte) {
	compact := ecdsa.SignCompact(p.k, digest[:], false)
	// compact = [27 + recid] || r || s, with s already normalised to low-s.
	yParity = compact[0] - 27
	copy(r[:], compact[1:33])
	copy(s[:], compact[33:65])
	return yParity, r, s
}

// Recover returns the 64-byte uncompressed public key that produced the
// signature over digest, checking every rule above first.
func Recover(digest [32]byte, yParity byte, r, s [32]byte) ([]byte, error) {
	if err := checkSignatureRules(yParity, &r, &s); err != nil {
		return nil, err
	}
	pub, ok := recoverPub(&digest, yParity, &r, &s)
	if !ok {
		return nil, ErrRecover
	}
	return pub, nil
}

// checkSignatureRules applies the project's signature rules (y_parity 0 or
// 1, r and s in [1, n-1], low s) before any backend sees the signature, so
// both backends recover from exactly the same inputs.
func checkSignatureRules(yParity byte, r, s *[32]byte) error {
	if yParity > 1 {
		return ErrInvalidYParity
	}
	var rs, ss secp256k1.ModNScalar
	if overflow := rs.SetBytes(r); overflow != 0 || rs.IsZero() {
		return ErrInvalidR
	}
	if overflow := ss.SetBytes(s); overflow != 0 || ss.IsZero() {
		return ErrInvalidS
	}
	if ss.IsOverHalfOrder() {
		return ErrHighS
	}
	return nil
}

// recoverDecred is the pure-Go recovery (decred's secp256k1). It is always
// compiled: it is the backend without cgo or with -tags purego, and the
// reference the libsecp256k1 backend is tested against. recid may be 0–3
// and s may be high; Recover applies the project's rules before calling a
// backend. It returns X||Y, or false when no public key is recovered.
func recoverDecred(digest *[32]byte, recid byte, r, s *[32]byte) ([]byte, bool) {
	var compact [65]byte
	compact[0] = 27 + recid
	copy(compact[1:33], r[:])
	copy(compact[33:], s[:])
	pub, _, err := ecdsa.RecoverCompact(compact[:], digest[:])
	if err != nil {
		return nil, false
	}
	return pub.SerializeUncompressed()[1:], true
}

// PubkeyToAddress is the last 20 bytes of keccak256(X||Y) (spec/README.md
// "external account address").
func PubkeyToAddress(pub []byte) [20]byte {
	h := Keccak256(pub)
	var a [20]byte
	copy(a[:], h[12:])
	return a
}
