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

// Leader is the proposer of round under the epoch seed: a draw weighted by
// stake, u = keccak256("cowboy/simplex/leader/v1" || seed || round) read
// as a 256-bit integer modulo the total stake, then the validator whose
// cumulative stake range (in index order) contains u. Everyone computes the
// same leader, so votes can go straight to it (v2 "Network Layer").
func (s *ValidatorSet) Leader(seed [32]byte, round uint64) int {
	h := crypto.Keccak256([]byte(tagLeader), seed[:], binary.BigEndian.AppendUint64(nil, round))
	u := new(big.Int).SetBytes(h[:])
	u.Mod(u, s.total)
	acc := new(big.Int)
	for i, v := range s.Validators {
		acc.Add(acc, new(big.Int).SetUint64(v.Stake))
		if u.Cmp(acc) < 0 {
			return i
		}
	}
	return len(s.Validators) - 1 // unreachable: u < total
}
