package types

import (
	"encoding/binary"

	"github.com/cowboy-chain/cowboy/crypto"
)

// ProposalTag prefixes the consensus block encoding hashed into its id.
const ProposalTag = "cowboy/simplex/block/v1"

// ProposalHash is a consensus block's id: keccak256(tag ‖ parent ‖
// height_be8 ‖ round_be8 ‖ proposer_be4 ‖ keccak256(payload) ‖ vrf_proof).
// It lives here, below both, because the consensus names blocks by it and
// the validator registry judges invalid-proposal evidence by it: one
// definition, so the two can never disagree.
func ProposalHash(parent Hash, height, round uint64, proposer uint32, payload, vrfProof []byte) Hash {
	ph := crypto.Keccak256(payload)
	var hr [20]byte
	binary.BigEndian.PutUint64(hr[0:], height)
	binary.BigEndian.PutUint64(hr[8:], round)
	binary.BigEndian.PutUint32(hr[16:], proposer)
	return Hash(crypto.Keccak256([]byte(ProposalTag), parent[:], hr[:], ph[:], vrfProof))
}
