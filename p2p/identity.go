package p2p

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/crypto"
)

// PeerID names a node by its node key: the Ethereum-style address
// (last 20 bytes of keccak256 of the uncompressed secp256k1 public key), the
// same derivation as an account address, so an operator can recognise a
// validator's node by the address tools already print.
type PeerID [20]byte

// String is 0x followed by 40 lowercase hex digits.
func (id PeerID) String() string { return "0x" + hex.EncodeToString(id[:]) }

// IsZero reports whether id is unset (a bootstrap address without a pinned ID).
func (id PeerID) IsZero() bool { return id == PeerID{} }

// ParsePeerID reads 40 hex digits, with or without 0x, in any case.
func ParsePeerID(s string) (PeerID, error) {
	var id PeerID
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	if len(s) != 40 {
		return id, fmt.Errorf("peer id %q: want 40 hex digits", s)
	}
	if _, err := hex.Decode(id[:], []byte(strings.ToLower(s))); err != nil {
		return id, fmt.Errorf("peer id %q: %w", s, err)
	}
	return id, nil
}

// IDFromKey is the PeerID a node with this key presents.
func IDFromKey(key *crypto.PrivateKey) PeerID { return PeerID(key.Address()) }

// certExtensionOID marks the certificate extension that binds the TLS key to
// the node key. It is a project-private, unregistered OID: only cowboy nodes
// read it, and they look for nothing else.
var certExtensionOID = asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 59999, 8, 1}

// certSigDomain separates the node key's signature over the TLS key from
// every other signature the same key makes (transactions sign keccak256 of a
// CBOR array, never of this prefix).
const certSigDomain = "cowboy-p2p-tls-v1:"

// alpn is the TLS application protocol; a peer offering anything else fails
// the TLS handshake before any cowboy frame is read.
const alpn = "cowboy-p2p/1"

// certValidity bounds how long a leaked ephemeral TLS key with its signed
// certificate could be replayed. Certificates are made anew by every New.
const certValidity = 365 * 24 * time.Hour

// signedKey is the extension value: DER SEQUENCE { publicKey OCTET STRING
// (64-byte X||Y secp256k1), signature OCTET STRING (65 bytes r||s||v) }.
type signedKey struct {
	PublicKey []byte
	Signature []byte
}

// newCertificate makes a fresh ed25519 TLS key and a self-signed
// certificate carrying the node key's signature over that key. secp256k1 is
// not a TLS 1.3 signature scheme, so the node key cannot be the certificate
// key itself; this is the libp2p TLS construction with our own key type.
func newCertificate(key *crypto.PrivateKey) (tls.Certificate, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("p2p: generate tls key: %w", err)
	}
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("p2p: marshal tls key: %w", err)
	}
	v, r, s := key.Sign(crypto.Keccak256([]byte(certSigDomain), spki))
	sig := make([]byte, 0, 65)
	sig = append(append(append(sig, r[:]...), s[:]...), v)
	ext, err := asn1.Marshal(signedKey{PublicKey: key.PublicKey(), Signature: sig})
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("p2p: marshal key extension: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("p2p: certificate serial: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:    serial,
		Subject:         pkix.Name{CommonName: IDFromKey(key).String()},
		NotBefore:       now.Add(-time.Hour), // tolerate peers whose clocks lag
		NotAfter:        now.Add(certValidity),
		ExtraExtensions: []pkix.Extension{{Id: certExtensionOID, Value: ext}},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, priv)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("p2p: create certificate: %w", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: priv}, nil
}

// Identity errors, distinguishable so tests and logs can tell why a
// handshake was refused.
var (
	ErrBadCertificate = errors.New("p2p: peer certificate does not carry a valid node key signature")
	ErrWrongPeer      = errors.New("p2p: peer identity is not the expected one")
)

// verifyCertificate checks a peer's certificate chain (exactly one
// self-signed certificate, within its validity, whose TLS key is signed by
// a secp256k1 node key in the cowboy extension) and returns the node's ID.
// TLS itself proves the peer holds the certificate's private key, so the
// chain node key → TLS key → handshake is complete.
func verifyCertificate(raw [][]byte, now time.Time) (PeerID, error) {
	if len(raw) != 1 {
		return PeerID{}, fmt.Errorf("%w: want 1 certificate, got %d", ErrBadCertificate, len(raw))
	}
	cert, err := x509.ParseCertificate(raw[0])
	if err != nil {
		return PeerID{}, fmt.Errorf("%w: %v", ErrBadCertificate, err)
	}
	if now.Before(cert.NotBefore) || now.After(cert.NotAfter) {
		return PeerID{}, fmt.Errorf("%w: outside its validity period", ErrBadCertificate)
	}
	if err := cert.CheckSignature(cert.SignatureAlgorithm, cert.RawTBSCertificate, cert.Signature); err != nil {
		return PeerID{}, fmt.Errorf("%w: self-signature: %v", ErrBadCertificate, err)
	}
	var value []byte
	for _, e := range cert.Extensions {
		if e.Id.Equal(certExtensionOID) {
			if value != nil {
				return PeerID{}, fmt.Errorf("%w: duplicate key extension", ErrBadCertificate)
			}
			value = e.Value
		}
	}
	if value == nil {
		return PeerID{}, fmt.Errorf("%w: no key extension", ErrBadCertificate)
	}
	var sk signedKey
	rest, err := asn1.Unmarshal(value, &sk)
	if err != nil || len(rest) != 0 {
		return PeerID{}, fmt.Errorf("%w: malformed key extension", ErrBadCertificate)
	}
	if len(sk.PublicKey) != 64 || len(sk.Signature) != 65 {
		return PeerID{}, fmt.Errorf("%w: key extension sizes %d/%d", ErrBadCertificate, len(sk.PublicKey), len(sk.Signature))
	}
	var r, s [32]byte
	copy(r[:], sk.Signature[:32])
	copy(s[:], sk.Signature[32:64])
	digest := crypto.Keccak256([]byte(certSigDomain), cert.RawSubjectPublicKeyInfo)
	pub, err := crypto.Recover(digest, sk.Signature[64], r, s)
	if err != nil {
		return PeerID{}, fmt.Errorf("%w: %v", ErrBadCertificate, err)
	}
	if !bytes.Equal(pub, sk.PublicKey) {
		return PeerID{}, fmt.Errorf("%w: signature is not by the stated node key", ErrBadCertificate)
	}
	return PeerID(crypto.PubkeyToAddress(pub)), nil
}

// tlsConfig is the TLS 1.3 configuration for both sides. Chain verification
// against CAs is off (InsecureSkipVerify) because trust comes from the node
// key, checked in VerifyPeerCertificate on both sides (ClientAuth requires
// the client's certificate too). check sees the verified peer ID and may
// refuse it (wrong expected ID, banned, ourselves). Session tickets are off
// so every handshake presents and verifies a certificate.
func tlsConfig(cert tls.Certificate, check func(PeerID) error) *tls.Config {
	return &tls.Config{
		MinVersion:             tls.VersionTLS13,
		MaxVersion:             tls.VersionTLS13,
		Certificates:           []tls.Certificate{cert},
		ClientAuth:             tls.RequireAnyClientCert,
		InsecureSkipVerify:     true, // #nosec: replaced by VerifyPeerCertificate below
		NextProtos:             []string{alpn},
		SessionTicketsDisabled: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			id, err := verifyCertificate(raw, time.Now())
			if err != nil {
				return err
			}
			if check != nil {
				return check(id)
			}
			return nil
		},
	}
}

// peerIDOf re-derives the verified ID of an established TLS connection.
func peerIDOf(cs tls.ConnectionState) (PeerID, error) {
	raw := make([][]byte, len(cs.PeerCertificates))
	for i, c := range cs.PeerCertificates {
		raw[i] = c.Raw
	}
	return verifyCertificate(raw, time.Now())
}
