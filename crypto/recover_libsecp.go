//go:build cgo

package crypto

import "github.com/ethereum/go-ethereum/crypto/secp256k1"

// recoverLibsecp recovers through libsecp256k1 (go-ethereum's cgo binding,
// which compiles the C library from source: no system package is needed).
// It is built whenever cgo is, so the property test can hold it against
// recoverDecred in one binary even under -tags purego. Same contract as
// recoverDecred: recid 0–3, any s, X||Y or false.
func recoverLibsecp(digest *[32]byte, recid byte, r, s *[32]byte) ([]byte, bool) {
	var sig [65]byte
	copy(sig[:32], r[:])
	copy(sig[32:64], s[:])
	sig[64] = recid
	pub, err := secp256k1.RecoverPubkey(digest[:], sig[:])
	if err != nil || len(pub) != 65 || pub[0] != 4 {
		return nil, false
	}
	return pub[1:], true
}
