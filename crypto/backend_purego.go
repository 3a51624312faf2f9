//go:build !cgo || purego

package crypto

// RecoverBackend names the secp256k1 implementation Recover uses in this
// build, so benchmarks and `cowboyd version` can say which one ran.
const RecoverBackend = "decred (pure Go)"

// recoverPub is the recovery backend of this build: decred's pure-Go
// secp256k1, used when cgo is off (CGO_ENABLED=0, cross builds) or with
// -tags purego. It gives the same results as libsecp256k1
// (TestRecoverBackendsAgree).
func recoverPub(digest *[32]byte, recid byte, r, s *[32]byte) ([]byte, bool) {
	return recoverDecred(digest, recid, r, s)
}
