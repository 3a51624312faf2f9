package p2p

import (
	"crypto/tls"
	"time"

	"github.com/cowboy-chain/cowboy/crypto"
)

// NewNodeCertificate makes the TLS certificate that proves a secp256k1 node
// key (see newCertificate). Exported for other QUIC services of a node, such
// as the CBFS relay, that authenticate peers the same way under their own
// ALPN.
func NewNodeCertificate(key *crypto.PrivateKey) (tls.Certificate, error) {
	return newCertificate(key)
}

// VerifyNodeCertificate checks a peer's certificate chain as the p2p
// handshake does and returns the node address it proves.
func VerifyNodeCertificate(raw [][]byte, now time.Time) (PeerID, error) {
	return verifyCertificate(raw, now)
}
