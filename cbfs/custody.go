package cbfs

import (
	"encoding/binary"
	"errors"
	"fmt"

	"lukechampine.com/blake3/bao"

	"github.com/cowboy-chain/cowboy/crypto"
)

// BaoGroup is the Bao chunk-group exponent of the outboard trees relays
// keep (groups of 1024 << 4 = 16 KiB): a challenge slice is proved at
// this granularity.
const BaoGroup = 4

// MaxChainChallengeBytes is the range an on-chain challenge asks for; the
// answer (range rounded out to groups plus the Bao path) stays small.
const MaxChainChallengeBytes = 1024

// CustodyReceipt is a relay's signed statement that it holds shard Hash,
// at Proof's position under the file root Root, in volume Volume at path
// tag PathID. A relay returns one with every challenge answer, so an
// owner who audited a file holds a receipt per shard; if the relay later
// stops answering, the receipt is what the owner takes to the chain
// (Relay Registry "challenge"), where the relay must prove the shard or
// be slashed.
type CustodyReceipt struct {
	Relay  RelayID    `cbor:"1,keyasint"`
	Volume VolumeID   `cbor:"2,keyasint"`
	PathID Tag        `cbor:"3,keyasint"`
	Root   [32]byte   `cbor:"4,keyasint"`
	N      uint8      `cbor:"5,keyasint"` // K+M of the file
	Hash   ShardHash  `cbor:"6,keyasint"`
	Proof  ShardProof `cbor:"7,keyasint"`
	Sig    []byte     `cbor:"8,keyasint,omitempty"`
}

const custodyDomain = "cowboy-cbfs-custody-v1:"

// Digest is what the relay signs: keccak256(domain ‖ CBOR without Sig).
func (r *CustodyReceipt) Digest() ([32]byte, error) {
	c := *r
	c.Sig = nil
	b, err := Marshal(&c)
	if err != nil {
		return [32]byte{}, fmt.Errorf("cbfs: encode custody receipt: %w", err)
	}
	return crypto.Keccak256([]byte(custodyDomain), b), nil
}

// SignCustody signs r with the relay's node key (whose address must be
// r.Relay).
func SignCustody(key *crypto.PrivateKey, r *CustodyReceipt) error {
	if RelayID(key.Address()) != r.Relay {
		return errors.New("cbfs: custody receipt for another relay")
	}
	d, err := r.Digest()
	if err != nil {
		return err
	}
	v, rr, s := key.Sign(d)
	r.Sig = append(append(append(make([]byte, 0, 65), rr[:]...), s[:]...), v)
	return nil
}

// Verify checks the relay's signature and that Hash sits under Root.
func (r *CustodyReceipt) Verify() error {
	if len(r.Sig) != 65 {
		return fmt.Errorf("%w: custody receipt signature must be 65 bytes", ErrMalformedTok)
	}
	d, err := r.Digest()
	if err != nil {
		return err
	}
	var rr, s [32]byte
	copy(rr[:], r.Sig[:32])
	copy(s[:], r.Sig[32:64])
	pub, err := crypto.Recover(d, r.Sig[64], rr, s)
	if err != nil || RelayID(crypto.PubkeyToAddress(pub)) != r.Relay {
		return fmt.Errorf("%w: custody receipt not signed by relay 0x%x", ErrForged, r.Relay)
	}
	if r.N < 1 || int(r.N) > MaxShards {
		return fmt.Errorf("cbfs: custody receipt n=%d outside 1..%d", r.N, MaxShards)
	}
	if err := r.Proof.Verify(r.Root, int(r.N), r.Hash); err != nil {
		return fmt.Errorf("cbfs: custody receipt: %w", err)
	}
	return nil
}

// ChallengeRange is the range of a shardLen-byte shard an on-chain
// challenge with this seed asks for: deterministic, so every node and the
// relay compute the same one.
func ChallengeRange(seed [32]byte, shardLen uint32) (offset, length uint64) {
	if shardLen == 0 {
		return 0, 0
	}
	offset = binary.BigEndian.Uint64(seed[:8]) % uint64(shardLen)
	return offset, min(MaxChainChallengeBytes, uint64(shardLen)-offset)
}

// VerifySlice checks a Bao slice of [offset, offset+length) of the shard
// whose BLAKE3 is hash and returns the proven bytes.
func VerifySlice(slice []byte, hash ShardHash, offset, length uint64) ([]byte, bool) {
	return bao.VerifySlice(slice, BaoGroup, offset, length, hash)
}
