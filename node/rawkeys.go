package node

import (
	"encoding/binary"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/consensus/simplex"
)

// The node's raw keys, outside the authenticated state (the package doc
// lists their values). They live in one file so that no two prefixes can
// collide unnoticed: blk/ blocks, sx/ consensus, meta/ identity checks,
// dev/ devnet controls.
var (
	keyChainID     = []byte("meta/chain_id")
	keyGenesisHash = []byte("meta/genesis_hash")
	keyHardState   = []byte("sx/hs")
)

// heightKey maps a height to its block hash.
func heightKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("blk/h/"), h)
}

// blockKey holds a block by its hash.
func blockKey(h types.Hash) []byte { return append([]byte("blk/b/"), h[:]...) }

// certKey holds the finalized simplex block of a height and its QC.
func certKey(height uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("sx/c/"), height)
}

// certByHashKey maps a simplex block hash to its height.
func certByHashKey(h simplex.Hash) []byte { return append([]byte("sx/b/"), h[:]...) }

// epochProofKey holds the proof that the last block of epoch k is final.
func epochProofKey(k uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("sx/e/"), k)
}

// epochAnchorKey holds the proofs of epoch k's registry records against
// its root's state (certificate.go).
func epochAnchorKey(k uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("sx/a/"), k)
}

// devSetKey holds the devnet change (dev.go devOp) made before block h's
// transactions.
func devSetKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("dev/set/"), h)
}

// devImpKey marks transaction h as sent by dev_impersonate; the value is
// the impersonated sender.
func devImpKey(h types.Hash) []byte { return append([]byte("dev/imp/"), h[:]...) }

// devClockKey holds the devnet clock offset (dev.go devState) in effect
// for block h, when it is not zero.
func devClockKey(h uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte("dev/clk/"), h)
}
