package p2p

import (
	"crypto/x509"
	"errors"
	"testing"
	"time"
)

func TestCertificateIdentity(t *testing.T) {
	key := mustKey(t)
	cert, err := newCertificate(key)
	if err != nil {
		t.Fatal(err)
	}
	id, err := verifyCertificate(cert.Certificate, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if id != IDFromKey(key) {
		t.Fatalf("id %s, want %s", id, IDFromKey(key))
	}
	if _, err := verifyCertificate(cert.Certificate, time.Now().Add(2*certValidity)); !errors.Is(err, ErrBadCertificate) {
		t.Fatalf("expired certificate accepted: %v", err)
	}
	if _, err := verifyCertificate(append(cert.Certificate, cert.Certificate[0]), time.Now()); !errors.Is(err, ErrBadCertificate) {
		t.Fatal("two certificates accepted")
	}
	// Flipping any byte of the certificate must not yield a valid identity
	// other than the same one (a flip in an unsigned field cannot exist:
	// the self-signature covers everything but itself).
	der := cert.Certificate[0]
	for i := 0; i < len(der); i += 7 {
		bad := append([]byte(nil), der...)
		bad[i] ^= 0x40
		if got, err := verifyCertificate([][]byte{bad}, time.Now()); err == nil && got != id {
			t.Fatalf("flip at %d gives identity %s", i, got)
		}
	}
}

// A certificate whose TLS key is signed by one node key but whose
// extension names another key is refused.
func TestCertificateWrongKey(t *testing.T) {
	a, b := mustKey(t), mustKey(t)
	certA, _ := newCertificate(a)
	certB, _ := newCertificate(b)
	pa, _ := x509.ParseCertificate(certA.Certificate[0])
	pb, _ := x509.ParseCertificate(certB.Certificate[0])
	// Graft B's extension (B's signature over B's TLS key) into a copy of
	// A's certificate bytes: the signature no longer matches the TLS key.
	var extA, extB []byte
	for _, e := range pa.Extensions {
		if e.Id.Equal(certExtensionOID) {
			extA = e.Value
		}
	}
	for _, e := range pb.Extensions {
		if e.Id.Equal(certExtensionOID) {
			extB = e.Value
		}
	}
	der := append([]byte(nil), certA.Certificate[0]...)
	i := indexOf(der, extA)
	if i < 0 || len(extA) != len(extB) {
		t.Skip("extension not found verbatim")
	}
	copy(der[i:], extB)
	if _, err := verifyCertificate([][]byte{der}, time.Now()); !errors.Is(err, ErrBadCertificate) {
		t.Fatalf("grafted certificate accepted: %v", err)
	}
}

func indexOf(b, sub []byte) int {
	for i := 0; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

func TestParsePeerAddr(t *testing.T) {
	key := mustKey(t)
	id := IDFromKey(key)
	got, addr, err := parsePeerAddr(id.String() + "@127.0.0.1:9000")
	if err != nil || got != id || addr != "127.0.0.1:9000" {
		t.Fatalf("%v %v %v", got, addr, err)
	}
	for _, bad := range []string{"localhost:9000", "127.0.0.1", "127.0.0.1:0", "0.0.0.0:1", "0x12@127.0.0.1:1"} {
		if _, _, err := parsePeerAddr(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if p, err := ParsePeerID(id.String()[2:]); err != nil || p != id {
		t.Fatal("ParsePeerID without 0x")
	}
}
