//go:build cgo && !purego

package crypto

// RecoverBackend names the secp256k1 implementation Recover uses in this
// build, so benchmarks and `cowboyd version` can say which one ran.
const RecoverBackend = "libsecp256k1"

// recoverPub is the recovery backend of this build: libsecp256k1 through
// cgo, about 4× decred's speed (docs/benchmarks.md).
func recoverPub(digest *[32]byte, recid byte, r, s *[32]byte) ([]byte, bool) {
	return recoverLibsecp(digest, recid, r, s)
}
