package bls

import (
	"errors"
	"fmt"
	"math/big"

	blst "github.com/supranational/blst/bindings/go"
)

// Threshold BLS (v2 §3.4, §12.4): a group secret x is split by a
// polynomial f of degree t−1 with f(0) = x; share i is f(i) for i = 1..S.
// A partial signature is an ordinary signature by a share key, and any t
// partials on one message interpolate (Lagrange at 0, in the exponent) to
// the unique signature by x, which verifies against the group key x·G1
// like any other signature. The package does the curve arithmetic; the
// DKG that deals the shares is crypto/dkg.

// Order is r, the order of the BLS12-381 groups; scalars live modulo r.
var Order, _ = new(big.Int).SetString("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16)

// ErrIdentity is returned when a computation lands on the group identity,
// which is never a usable key (a valid input makes that negligibly rare).
var ErrIdentity = errors.New("bls: result is the identity point")

// scalarBytes is x mod r as 32 big-endian bytes.
func scalarBytes(x *big.Int) []byte {
	var b [SecretKeySize]byte
	new(big.Int).Mod(x, Order).FillBytes(b[:])
	return b[:]
}

func toScalar(x *big.Int) *blst.Scalar {
	var s blst.Scalar
	s.Deserialize(scalarBytes(x)) // always < r
	return &s
}

// SecretKeyFromScalar is the key x mod r; zero is refused.
func SecretKeyFromScalar(x *big.Int) (*SecretKey, error) {
	return SecretKeyFromBytes(scalarBytes(x))
}

// Scalar is the key as an integer in [1, r).
func (k *SecretKey) Scalar() *big.Int { return new(big.Int).SetBytes(k.sk.Serialize()) }

// Mul is x·pk, for Feldman commitments and Diffie-Hellman; x mod r = 0 or
// an identity result is refused.
func (pk *PublicKey) Mul(x *big.Int) (*PublicKey, error) {
	var p blst.P1
	p.FromAffine(&pk.p)
	p.MultAssign(toScalar(x))
	return fromP1(&p)
}

// Add is pk + o.
func (pk *PublicKey) Add(o *PublicKey) (*PublicKey, error) {
	var p blst.P1
	p.FromAffine(&pk.p)
	p.AddAssign(&o.p)
	return fromP1(&p)
}

func fromP1(p *blst.P1) (*PublicKey, error) {
	a := p.ToAffine()
	if a.Equals(new(blst.P1Affine)) || !a.InG1() {
		return nil, ErrIdentity
	}
	return &PublicKey{p: *a}, nil
}

// EvalCommitments is Σ_k C_k · x^k: the public image f(x)·G1 of a
// polynomial whose coefficients' images are cs (Feldman). A share s for
// index x is correct iff s·G1 equals it; summed over dealers it is the
// public key of share x.
func EvalCommitments(cs []*PublicKey, x uint64) (*PublicKey, error) {
	if len(cs) == 0 {
		return nil, fmt.Errorf("evaluate commitments: %w", ErrEmptyAggregate)
	}
	// One multi-scalar multiplication (Pippenger) with scalars x^k mod r.
	pts := make([]blst.P1Affine, len(cs))
	scs := make([]blst.Scalar, len(cs))
	xb, pw := new(big.Int).SetUint64(x), big.NewInt(1)
	for k, c := range cs {
		if c == nil {
			return nil, fmt.Errorf("evaluate commitments: commitment %d is nil: %w", k, ErrBadPublicKey)
		}
		pts[k] = c.p
		scs[k] = *toScalar(pw)
		pw.Mul(pw, xb).Mod(pw, Order)
	}
	var acc blst.P1
	if len(cs) == 1 {
		acc.FromAffine(&pts[0])
	} else {
		acc = *blst.P1AffinesMult(pts, scs, 255)
	}
	pk, err := fromP1(&acc)
	if err != nil {
		return nil, fmt.Errorf("evaluate commitments at %d: %w", x, err)
	}
	return pk, nil
}

// LagrangeAtZero is the coefficient λ_i = Π_{j≠i} x_j / (x_j − x_i) mod r
// of each index, so that f(0) = Σ λ_i f(x_i) for any polynomial of degree
// below len(xs). Indices must be distinct and non-zero.
func LagrangeAtZero(xs []uint64) ([]*big.Int, error) {
	seen := make(map[uint64]bool, len(xs))
	for _, x := range xs {
		if x == 0 || seen[x] {
			return nil, fmt.Errorf("lagrange: index %d is zero or repeated", x)
		}
		seen[x] = true
	}
	out := make([]*big.Int, len(xs))
	for i, xi := range xs {
		num, den := big.NewInt(1), big.NewInt(1)
		bi := new(big.Int).SetUint64(xi)
		for j, xj := range xs {
			if i == j {
				continue
			}
			bj := new(big.Int).SetUint64(xj)
			num.Mul(num, bj).Mod(num, Order)
			d := new(big.Int).Sub(bj, bi)
			den.Mul(den, d).Mod(den, Order)
		}
		den.ModInverse(den, Order)
		out[i] = num.Mul(num, den).Mod(num, Order)
	}
	return out, nil
}

// CombinePartials interpolates partial signatures by the share indices xs
// (at least the threshold many, distinct) into the group signature
// Σ λ_i·σ_i. Which t partials are used does not matter: the result is the
// unique signature of the group key. The partials are not verified here.
func CombinePartials(xs []uint64, partials []*Signature) (*Signature, error) {
	if len(xs) != len(partials) || len(xs) == 0 {
		return nil, fmt.Errorf("combine %d partials for %d indices: %w", len(partials), len(xs), ErrEmptyAggregate)
	}
	lambdas, err := LagrangeAtZero(xs)
	if err != nil {
		return nil, fmt.Errorf("combine partials: %w", err)
	}
	pts := make([]blst.P2Affine, len(xs))
	scs := make([]blst.Scalar, len(xs))
	for i, s := range partials {
		if s == nil {
			return nil, fmt.Errorf("combine partials: partial %d is nil: %w", i, ErrBadSignature)
		}
		pts[i] = s.s
		scs[i] = *toScalar(lambdas[i])
	}
	var sum *blst.P2
	if len(pts) == 1 {
		p := new(blst.P2)
		p.FromAffine(&pts[0])
		sum = p.MultAssign(&scs[0])
	} else {
		sum = blst.P2AffinesMult(pts, scs, 255)
	}
	if sum == nil {
		return nil, fmt.Errorf("combine partials: %w", ErrBadSignature)
	}
	return &Signature{s: *sum.ToAffine()}, nil
}

// SharedKey is the Diffie-Hellman point k·pk, compressed: the key a DKG
// dealer and a recipient both derive (one from its ephemeral secret and the
// recipient's public key, the other the reverse).
func (k *SecretKey) SharedKey(pk *PublicKey) ([]byte, error) {
	p, err := pk.Mul(k.Scalar())
	if err != nil {
		return nil, fmt.Errorf("shared key: %w", err)
	}
	return p.Bytes(), nil
}

// G1Generator is the generator of G1 as a public key (the public key of the
// secret 1), the base of proofs about discrete logarithms.
func G1Generator() *PublicKey {
	return &PublicKey{p: *blst.P1Generator().ToAffine()}
}

// CombinePartialBytes is CombinePartials on encoded partials, decoded
// without the G2 subgroup check (the costly part of decoding). That is
// safe only because the caller verifies the result: a partial outside the
// subgroup makes the combination fail verification (signature decoding
// checks the subgroup), after which the caller checks partials one by one.
func CombinePartialBytes(xs []uint64, raw [][]byte) (*Signature, error) {
	ps := make([]*Signature, len(raw))
	for i, b := range raw {
		if len(b) != SignatureSize {
			return nil, fmt.Errorf("combine partials: partial %d of %d bytes: %w", i, len(b), ErrBadSignature)
		}
		var s blst.P2Affine
		if s.Uncompress(b) == nil {
			return nil, fmt.Errorf("combine partials: partial %d: %w", i, ErrBadSignature)
		}
		ps[i] = &Signature{s: s}
	}
	return CombinePartials(xs, ps)
}
