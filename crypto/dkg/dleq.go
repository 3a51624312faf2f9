package dkg

import (
	"fmt"
	"math/big"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

// Chaum-Pedersen proof of discrete-log equality in G1, made
// non-interactive by Fiat-Shamir: the complainer proves that the shared
// key K it reveals is sk·E for the same sk as its public key PK = sk·G,
// without revealing sk. Proof = c (32) ‖ s (32) with
// A1 = w·G, A2 = w·E, c = H(PK, E, K, A1, A2) mod r, s = w − c·sk mod r;
// the verifier recomputes A1 = s·G + c·PK and A2 = s·E + c·K.

const dleqSize = 64

func challenge(pk, e, k, a1, a2 *bls.PublicKey) *big.Int {
	h := crypto.Blake3([]byte("cowboy/dkg/dleq/v1"), pk.Bytes(), e.Bytes(), k.Bytes(), a1.Bytes(), a2.Bytes())
	h2 := crypto.Blake3([]byte("cowboy/dkg/dleq/v1/2"), h[:])
	c := new(big.Int).SetBytes(append(h[:], h2[:]...))
	return c.Mod(c, bls.Order)
}

func proveDLEQ(sk *bls.SecretKey, e *bls.PublicKey, shared []byte) ([]byte, error) {
	k, err := bls.PublicKeyFromBytes(shared)
	if err != nil {
		return nil, fmt.Errorf("dleq: %w", err)
	}
	// A deterministic nonce from the secret and the statement (as RFC 6979
	// does for ECDSA): no randomness source, and never reused across
	// statements.
	h1 := crypto.Blake3([]byte("cowboy/dkg/dleq/nonce/v1"), sk.Bytes(), e.Bytes(), shared)
	h2 := crypto.Blake3([]byte("cowboy/dkg/dleq/nonce/v1/2"), h1[:])
	w := new(big.Int).SetBytes(append(h1[:], h2[:]...))
	w.Mod(w, bls.Order)
	g := bls.G1Generator()
	a1, err := g.Mul(w)
	if err != nil {
		return nil, fmt.Errorf("dleq: %w", err)
	}
	a2, err := e.Mul(w)
	if err != nil {
		return nil, fmt.Errorf("dleq: %w", err)
	}
	c := challenge(sk.PublicKey(), e, k, a1, a2)
	s := new(big.Int).Mul(c, sk.Scalar())
	s.Sub(w, s).Mod(s, bls.Order)
	out := make([]byte, dleqSize)
	c.FillBytes(out[:32])
	s.FillBytes(out[32:])
	return out, nil
}

func verifyDLEQ(pk, e, k *bls.PublicKey, proof []byte) bool {
	if len(proof) != dleqSize {
		return false
	}
	c := new(big.Int).SetBytes(proof[:32])
	s := new(big.Int).SetBytes(proof[32:])
	if c.Cmp(bls.Order) >= 0 || s.Cmp(bls.Order) >= 0 || s.Sign() == 0 || c.Sign() == 0 {
		return false
	}
	comb := func(base, other *bls.PublicKey) *bls.PublicKey {
		x, err := base.Mul(s)
		if err != nil {
			return nil
		}
		y, err := other.Mul(c)
		if err != nil {
			return nil
		}
		z, err := x.Add(y)
		if err != nil {
			return nil
		}
		return z
	}
	a1 := comb(bls.G1Generator(), pk)
	a2 := comb(e, k)
	if a1 == nil || a2 == nil {
		return false
	}
	return challenge(pk, e, k, a1, a2).Cmp(c) == 0
}
