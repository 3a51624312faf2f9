package simplex

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Validator is one member of the epoch's validator set.
type Validator struct {
	// PublicKey is the 48-byte compressed BLS12-381 key that signs votes
	// and VRF proofs.
	PublicKey []byte
	// Possession is the key's proof of possession; a key without a valid
	// one could be a rogue key that forges aggregates.
	Possession []byte
	// Stake in base units; it weighs quorums and the proposer draw.
	Stake uint64
}

// ValidatorSet is the fixed membership of an epoch (v2 "Validator Set":
// changes take effect at epoch boundaries), indexed 0..n-1 in a canonical
// order that every node shares.
type ValidatorSet struct {
	Validators []Validator
	total      *big.Int
}

// NewValidatorSet checks that every validator has stake and computes the
// total.
func NewValidatorSet(vs []Validator) (*ValidatorSet, error) {
	if len(vs) == 0 {
		return nil, errors.New("validator set: empty")
	}
	total := new(big.Int)
	for i, v := range vs {
		if v.Stake == 0 {
			return nil, fmt.Errorf("validator set: validator %d has no stake", i)
		}
		total.Add(total, new(big.Int).SetUint64(v.Stake))
	}
	return &ValidatorSet{Validators: vs, total: total}, nil
}

// Len is the number of validators.
func (s *ValidatorSet) Len() int { return len(s.Validators) }

// stakeOf sums the stake of the marked validators.
func (s *ValidatorSet) stakeOf(b Bitmap) *big.Int {
	sum := new(big.Int)
	for i := range s.Validators {
		if b.Has(i) {
			sum.Add(sum, new(big.Int).SetUint64(s.Validators[i].Stake))
		}
	}
	return sum
}

// IsQuorum reports whether the marked validators hold strictly more than
// 2/3 of the stake: 3·signed > 2·total.
func (s *ValidatorSet) IsQuorum(b Bitmap) bool {
	lhs := new(big.Int).Mul(s.stakeOf(b), big.NewInt(quorumDen))
	rhs := new(big.Int).Mul(s.total, big.NewInt(quorumNum))
	return lhs.Cmp(rhs) > 0
}

// IsOneThird reports whether the marked validators hold strictly more than
// 1/3 of the stake, so that at least one of them is honest.
func (s *ValidatorSet) IsOneThird(b Bitmap) bool {
	lhs := new(big.Int).Mul(s.stakeOf(b), big.NewInt(quorumDen))
	return lhs.Cmp(s.total) > 0
}

// validBitmap reports whether b names only existing validators.
func (s *ValidatorSet) validBitmap(b Bitmap) bool {
	if len(b) != (s.Len()+7)/8 {
		return false
	}
	for i := s.Len(); i < len(b)*8; i++ {
		if b.Has(i) {
			return false
		}
	}
	return true
}

// Leader is the proposer of round under the epoch seed, drawn by stake
// with mandatory rotation (v2 §6.1: "proposers rotate every block",
// mandatory for MEV resistance): no validator leads two consecutive
// rounds when the set has more than one member.
//
// A draw is u = keccak256("cowboy/simplex/leader/v1" || seed || round)
// read as a 256-bit integer modulo the stake of the eligible validators,
// then the eligible validator whose cumulative stake range (in index
// order) contains u. Even rounds draw among everyone; odd rounds draw
// among everyone but the leaders of the two even rounds around them. So
// every pair of consecutive rounds has different leaders, and each
// round's leader is computed from at most three draws, never from a chain
// of earlier rounds (a rule "exclude the previous leader" applied to every
// round would make a round's leader depend on every round before it).
// Two validators simply alternate. Everyone computes the same leader, so
// votes can go straight to it (v2 "Network Layer"). The seed is the
// epoch's, derived from the threshold beacon of the previous epoch's last
// block (docs/decisions.md "Beacon").
func (s *ValidatorSet) Leader(seed [32]byte, round uint64) int {
	switch len(s.Validators) {
	case 1:
		return 0
	case 2:
		return int((round + uint64(seed[31])) & 1)
	}
	if round%2 == 0 {
		return s.draw(seed, round, -1, -1)
	}
	return s.draw(seed, round, s.draw(seed, round-1, -1, -1), s.draw(seed, round+1, -1, -1))
}

// draw is the stake-weighted draw of round among the validators other
// than x and y (−1: nobody excluded).
func (s *ValidatorSet) draw(seed [32]byte, round uint64, x, y int) int {
	h := crypto.Keccak256([]byte(tagLeader), seed[:], binary.BigEndian.AppendUint64(nil, round))
	total := new(big.Int).Set(s.total)
	for i := range s.Validators {
		if i == x || i == y {
			total.Sub(total, new(big.Int).SetUint64(s.Validators[i].Stake))
		}
	}
	u := new(big.Int).SetBytes(h[:])
	u.Mod(u, total)
	acc := new(big.Int)
	last := 0
	for i, v := range s.Validators {
		if i == x || i == y {
			continue
		}
		last = i
		acc.Add(acc, new(big.Int).SetUint64(v.Stake))
		if u.Cmp(acc) < 0 {
			return i
		}
	}
	return last // unreachable: u < total
}
