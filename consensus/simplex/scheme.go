package simplex

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/crypto/bls"
	"github.com/cowboy-chain/cowboy/crypto/vrf"
)

// Scheme is the cryptography a Node signs and verifies with. The protocol
// only needs these six operations; BLSScheme is the production one, and the
// simulation tests may plug in a cheaper one to run thousands of rounds.
type Scheme interface {
	// Sign signs msg with this node's key.
	Sign(msg []byte) []byte
	// Verify checks validator i's signature on msg.
	Verify(i int, msg, sig []byte) bool
	// Aggregate combines signatures on one message into one.
	Aggregate(sigs [][]byte) ([]byte, error)
	// VerifyAggregate checks an aggregate by signers (ascending indices)
	// on msg.
	VerifyAggregate(signers []int, msg, agg []byte) bool
	// VRFProve evaluates this node's VRF on input.
	VRFProve(input []byte) (out [32]byte, proof []byte)
	// VRFVerify checks validator i's VRF proof and returns its output.
	VRFVerify(i int, input, proof []byte) (out [32]byte, ok bool)
}

// BLSScheme signs with BLS12-381 (crypto/bls) and proves with the BLS
// signature VRF (crypto/vrf).
type BLSScheme struct {
	sk  *bls.SecretKey // nil on a node that does not validate
	pks []*bls.PublicKey
}

// NewBLSScheme decodes the set's public keys and checks each one's proof
// of possession: a key without one is refused, since it could be a rogue
// key built to forge aggregates. sk may be nil for a node that only
// follows.
func NewBLSScheme(sk *bls.SecretKey, set *ValidatorSet) (*BLSScheme, error) {
	return newBLSScheme(sk, set, true)
}

// NewBLSSchemeRegistered is NewBLSScheme for a set read from chain state,
// whose every key's proof of possession the staking registry checked when
// the key was registered (v2 "Validator Set"); checking them again at each
// epoch would only cost a pairing per validator.
func NewBLSSchemeRegistered(sk *bls.SecretKey, set *ValidatorSet) (*BLSScheme, error) {
	return newBLSScheme(sk, set, false)
}

func newBLSScheme(sk *bls.SecretKey, set *ValidatorSet, checkPossession bool) (*BLSScheme, error) {
	pks := make([]*bls.PublicKey, set.Len())
	for i, v := range set.Validators {
		pk, err := bls.PublicKeyFromBytes(v.PublicKey)
		if err != nil {
			return nil, fmt.Errorf("validator %d: %w", i, err)
		}
		if !checkPossession {
			pks[i] = pk
			continue
		}
		pop, err := bls.SignatureFromBytes(v.Possession)
		if err != nil {
			return nil, fmt.Errorf("validator %d: proof of possession: %w", i, err)
		}
		if !bls.VerifyPossession(pk, pop) {
			return nil, fmt.Errorf("validator %d: proof of possession does not verify", i)
		}
		pks[i] = pk
	}
	return &BLSScheme{sk: sk, pks: pks}, nil
}

// Sign implements Scheme.
func (s *BLSScheme) Sign(msg []byte) []byte {
	if s.sk == nil {
		return nil
	}
	return s.sk.Sign(msg).Bytes()
}

// Verify implements Scheme.
func (s *BLSScheme) Verify(i int, msg, sig []byte) bool {
	if i < 0 || i >= len(s.pks) {
		return false
	}
	g, err := bls.SignatureFromBytes(sig)
	if err != nil {
		return false
	}
	return bls.Verify(s.pks[i], msg, g)
}

// Aggregate implements Scheme.
func (s *BLSScheme) Aggregate(sigs [][]byte) ([]byte, error) {
	gs := make([]*bls.Signature, len(sigs))
	for i, b := range sigs {
		g, err := bls.SignatureFromBytes(b)
		if err != nil {
			return nil, fmt.Errorf("aggregate: signature %d: %w", i, err)
		}
		gs[i] = g
	}
	agg, err := bls.Aggregate(gs)
	if err != nil {
		return nil, err
	}
	return agg.Bytes(), nil
}

// VerifyAggregate implements Scheme.
func (s *BLSScheme) VerifyAggregate(signers []int, msg, agg []byte) bool {
	g, err := bls.SignatureFromBytes(agg)
	if err != nil {
		return false
	}
	pks := make([]*bls.PublicKey, len(signers))
	for k, i := range signers {
		if i < 0 || i >= len(s.pks) {
			return false
		}
		pks[k] = s.pks[i]
	}
	return bls.FastAggregateVerify(pks, msg, g)
}

// VRFProve implements Scheme.
func (s *BLSScheme) VRFProve(input []byte) ([32]byte, []byte) {
	if s.sk == nil {
		return [32]byte{}, nil
	}
	out, proof := vrf.Prove(s.sk, input)
	return out, proof
}

// VRFVerify implements Scheme.
func (s *BLSScheme) VRFVerify(i int, input, proof []byte) ([32]byte, bool) {
	if i < 0 || i >= len(s.pks) {
		return [32]byte{}, false
	}
	out, err := vrf.Verify(s.pks[i], input, proof)
	return out, err == nil
}
