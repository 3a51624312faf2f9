package simplex

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/dkg"
)

// The threshold beacon (v2 §3.4, §12.4: R_n = VRF_sk_epoch(QC_{n-1}),
// where sk_epoch is shared among the validators by a DKG).
//
// Every vote (and every proposal, which is its proposer's vote) carries the
// voter's partial signatures on the vote message, one per share of the
// epoch key it holds. The leader that certifies a block also interpolates
// a threshold of partials into σ, the group key's signature on the block's
// vote message, and the certificate carries it (QC.Beacon). σ is unique
// for the block: whichever quorum signed, every copy of the certificate
// has the same σ, and R = BeaconOutput(σ) is the block's randomness.
//
// Nobody knows R before a quorum has voted for the block, the proposer
// included: its content is fixed before anyone can compute σ, so the
// proposer cannot pick transactions against R, and cannot grind R by
// trying contents. (The spec's QC_{n-1} input is read as "the statement a
// certificate makes": signing block n's own vote message instead of block
// n−1's keeps R_n unknown to block n's proposer, which the MEV paragraph of
// §6 wants; see docs/decisions.md "Beacon".)

// BeaconScheme is the epoch's threshold key as the protocol uses it.
type BeaconScheme interface {
	// Partials signs msg with this node's share keys, in share order; nil
	// for a node without shares.
	Partials(msg []byte) [][]byte
	// Shares is how many shares validator i holds.
	Shares(i int) int
	// Threshold is how many shares interpolate σ.
	Threshold() int
	// VerifyPartials checks validator i's partials on msg.
	VerifyPartials(i int, msg []byte, ps [][]byte) bool
	// Combine interpolates σ from validators' partials (by validator index;
	// nil for none), using the first Threshold shares in validator order.
	// The result is not verified, and must be (Verify) before use.
	Combine(partials [][][]byte) ([]byte, error)
	// Verify checks σ on msg against the group key.
	Verify(msg, sigma []byte) bool
}

// BeaconOutput is R = BLAKE3("cowboy/beacon/v1" ‖ σ), the 32-byte
// randomness of the block whose certificate carries σ.
func BeaconOutput(sigma []byte) [32]byte {
	return crypto.Blake3([]byte(tagBeacon), sigma)
}

// Randomness is the block randomness its certificate fixes, and whether
// the certificate carries a beacon.
func (q *QC) Randomness() ([32]byte, bool) {
	if q == nil || len(q.Beacon) == 0 {
		return [32]byte{}, false
	}
	return BeaconOutput(q.Beacon), true
}

// BeaconKey is the public part of an epoch's beacon key: what the validator
// registry's epoch record holds (v2 §3.4), enough for anyone, light clients
// included, to check σ and partials.
type BeaconKey struct {
	// Group is the 48-byte group public key.
	Group []byte
	// PublicShares are the share public keys, share index x at x−1.
	PublicShares [][]byte
}

// BLSBeacon is the BLS12-381 BeaconScheme: shares allocated by stake with
// dkg.Allocate, partials are plain BLS signatures by the share keys, σ is
// their Lagrange interpolation (bls.CombinePartials).
type BLSBeacon struct {
	group  *bls.PublicKey
	pub    []*bls.PublicKey
	alloc  *dkg.Allocation
	mine   []*bls.SecretKey
	member int
}

// NewBLSBeacon builds the beacon of a validator set from its public key;
// me is this node's index (−1 for none) and mine its secret share keys in
// share order (32-byte scalars; empty for a node that only verifies). Each
// share key must match its public share.
func NewBLSBeacon(set *ValidatorSet, key *BeaconKey, me int, mine [][]byte) (*BLSBeacon, error) {
	stakes := make([]uint64, set.Len())
	for i, v := range set.Validators {
		stakes[i] = v.Stake
	}
	alloc, err := dkg.Allocate(stakes)
	if err != nil {
		return nil, fmt.Errorf("beacon: %w", err)
	}
	return NewBLSBeaconWithAllocation(set, key, alloc, me, mine)
}

// NewBLSBeaconWithAllocation is NewBLSBeacon with the share allocation
// given: a key dealt to the same members in another order (a later
// epoch's set is ordered by address, genesis by file order) keeps each
// member's shares.
func NewBLSBeaconWithAllocation(set *ValidatorSet, key *BeaconKey, alloc *dkg.Allocation, me int, mine [][]byte) (*BLSBeacon, error) {
	if key == nil || alloc == nil {
		return nil, errors.New("beacon: no key or allocation")
	}
	if len(alloc.Shares) != set.Len() {
		return nil, fmt.Errorf("beacon: allocation for %d members, set of %d", len(alloc.Shares), set.Len())
	}
	if len(key.PublicShares) != alloc.Total {
		return nil, fmt.Errorf("beacon: %d public shares, the set's allocation has %d", len(key.PublicShares), alloc.Total)
	}
	g, err := bls.PublicKeyFromBytes(key.Group)
	if err != nil {
		return nil, fmt.Errorf("beacon: group key: %w", err)
	}
	b := &BLSBeacon{group: g, pub: make([]*bls.PublicKey, alloc.Total), alloc: alloc, member: me}
	for x, raw := range key.PublicShares {
		if b.pub[x], err = bls.PublicKeyFromBytes(raw); err != nil {
			return nil, fmt.Errorf("beacon: public share %d: %w", x+1, err)
		}
	}
	if len(mine) == 0 {
		return b, nil
	}
	if me < 0 || me >= set.Len() || len(mine) != len(alloc.Shares[me]) {
		return nil, fmt.Errorf("beacon: validator %d given %d share keys", me, len(mine))
	}
	for k, raw := range mine {
		sk, err := bls.SecretKeyFromBytes(raw)
		if err != nil {
			return nil, fmt.Errorf("beacon: share key %d: %w", k, err)
		}
		x := alloc.Shares[me][k]
		if !sk.PublicKey().Equal(b.pub[x-1]) {
			return nil, fmt.Errorf("beacon: share key for index %d does not match its public share", x)
		}
		b.mine = append(b.mine, sk)
	}
	return b, nil
}

// Allocation is the stake-to-shares map the beacon uses.
func (b *BLSBeacon) Allocation() *dkg.Allocation { return b.alloc }

// GroupKey is the epoch's group public key.
func (b *BLSBeacon) GroupKey() *bls.PublicKey { return b.group }

// Partials implements BeaconScheme.
func (b *BLSBeacon) Partials(msg []byte) [][]byte {
	if len(b.mine) == 0 {
		return nil
	}
	out := make([][]byte, len(b.mine))
	for k, sk := range b.mine {
		out[k] = sk.Sign(msg).Bytes()
	}
	return out
}

// Shares implements BeaconScheme.
func (b *BLSBeacon) Shares(i int) int {
	if i < 0 || i >= len(b.alloc.Shares) {
		return 0
	}
	return len(b.alloc.Shares[i])
}

// Threshold implements BeaconScheme.
func (b *BLSBeacon) Threshold() int { return b.alloc.Threshold }

// VerifyPartials implements BeaconScheme: one batch check of the
// validator's partials.
func (b *BLSBeacon) VerifyPartials(i int, msg []byte, ps [][]byte) bool {
	if i < 0 || i >= len(b.alloc.Shares) || len(ps) != len(b.alloc.Shares[i]) || len(ps) == 0 {
		return false
	}
	items := make([]bls.BatchItem, len(ps))
	for k, raw := range ps {
		s, err := bls.SignatureFromBytes(raw)
		if err != nil {
			return false
		}
		items[k] = bls.BatchItem{PublicKey: b.pub[b.alloc.Shares[i][k]-1], Message: msg, Signature: s}
	}
	return bls.VerifyBatch(items)
}

// Combine implements BeaconScheme.
func (b *BLSBeacon) Combine(partials [][][]byte) ([]byte, error) {
	t := b.alloc.Threshold
	xs := make([]uint64, 0, t)
	raws := make([][]byte, 0, t)
	for i, ps := range partials {
		if i >= len(b.alloc.Shares) || len(ps) != len(b.alloc.Shares[i]) {
			continue
		}
		for k, raw := range ps {
			if len(xs) == t {
				break
			}
			xs, raws = append(xs, b.alloc.Shares[i][k]), append(raws, raw)
		}
	}
	if len(xs) < t {
		return nil, fmt.Errorf("beacon: %d shares of %d needed", len(xs), t)
	}
	// Decoded without the subgroup check: the caller verifies σ, and
	// a bad partial then shows up in the per-validator checks.
	sig, err := bls.CombinePartialBytes(xs, raws)
	if err != nil {
		return nil, fmt.Errorf("beacon: %w", err)
	}
	return sig.Bytes(), nil
}

// Verify implements BeaconScheme.
func (b *BLSBeacon) Verify(msg, sigma []byte) bool {
	s, err := bls.SignatureFromBytes(sigma)
	if err != nil {
		return false
	}
	return bls.Verify(b.group, msg, s)
}

// DealBeacon shares a fresh random group key among the set by one
// dealer's random polynomial, every member's key at hand: a trusted setup,
// for genesis files one operator writes (localnet, init) and tests; the
// dealer knows the group secret, which is why epochs are meant to run the
// DKG (crypto/dkg) instead. sks are the members' consensus keys in index
// order (they only identify the members here). It returns the public key
// and each member's share keys in share order.
func DealBeacon(set *ValidatorSet, sks []*bls.SecretKey) (*BeaconKey, [][][]byte, error) {
	if len(sks) != set.Len() {
		return nil, nil, fmt.Errorf("deal beacon: %d keys for %d validators", len(sks), set.Len())
	}
	stakes := make([]uint64, set.Len())
	for i, v := range set.Validators {
		stakes[i] = v.Stake
	}
	alloc, err := dkg.Allocate(stakes)
	if err != nil {
		return nil, nil, fmt.Errorf("deal beacon: %w", err)
	}
	coeffs := make([]*big.Int, alloc.Threshold)
	for k := range coeffs {
		var b [48]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, nil, fmt.Errorf("deal beacon: %w", err)
		}
		coeffs[k] = new(big.Int).Mod(new(big.Int).SetBytes(b[:]), bls.Order)
	}
	eval := func(x uint64) *big.Int {
		acc := new(big.Int)
		for k := len(coeffs) - 1; k >= 0; k-- {
			acc.Mul(acc, new(big.Int).SetUint64(x)).Add(acc, coeffs[k]).Mod(acc, bls.Order)
		}
		return acc
	}
	group, err := bls.SecretKeyFromScalar(eval(0))
	if err != nil {
		return nil, nil, fmt.Errorf("deal beacon: %w", err)
	}
	key := &BeaconKey{Group: group.PublicKey().Bytes()}
	mine := make([][][]byte, set.Len())
	for i, xs := range alloc.Shares {
		for _, x := range xs {
			sk, err := bls.SecretKeyFromScalar(eval(x))
			if err != nil {
				return nil, nil, fmt.Errorf("deal beacon: share %d: %w", x, err)
			}
			mine[i] = append(mine[i], sk.Bytes())
		}
	}
	key.PublicShares = make([][]byte, alloc.Total)
	for i, xs := range alloc.Shares {
		for k, x := range xs {
			sk, _ := bls.SecretKeyFromBytes(mine[i][k])
			key.PublicShares[x-1] = sk.PublicKey().Bytes()
		}
	}
	return key, mine, nil
}

// VerifyBeacon checks the σ a certificate carries against the epoch's
// beacon key: required and valid when the epoch has one (b non-nil),
// absent otherwise. The certificate's own signature is checked elsewhere.
func VerifyBeacon(b BeaconScheme, qc *QC) error {
	if b == nil {
		if len(qc.Beacon) != 0 {
			return fmt.Errorf("%v: beacon in an epoch without a beacon key", qc)
		}
		return nil
	}
	if !b.Verify(VoteMessage(qc.BlockHash, qc.Height, qc.Round), qc.Beacon) {
		return fmt.Errorf("%v: missing or bad beacon signature", qc)
	}
	return nil
}

// CheckRandomness verifies a block's randomness from outside the
// consensus (RPC clients, light clients): σ is the group key's signature
// on the block's vote message (hash, height, round) and r = BeaconOutput(σ).
func CheckRandomness(groupKey []byte, h Hash, height, round uint64, sigma []byte, r [32]byte) error {
	g, err := bls.PublicKeyFromBytes(groupKey)
	if err != nil {
		return fmt.Errorf("group key: %w", err)
	}
	s, err := bls.SignatureFromBytes(sigma)
	if err != nil {
		return fmt.Errorf("σ: %w", err)
	}
	if !bls.Verify(g, VoteMessage(h, height, round), s) {
		return errors.New("σ is not the group key's signature on the block's vote message")
	}
	if BeaconOutput(sigma) != r {
		return errors.New("the randomness is not BLAKE3(\"cowboy/beacon/v1\" ‖ σ)")
	}
	return nil
}
