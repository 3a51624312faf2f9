package bls

import (
	"fmt"
	"math/bits"

	blst "github.com/supranational/blst/bindings/go"
)

// PublicKeyFromCheckedBytes decodes a G1 point whose bytes PublicKeyFromBytes
// accepted before, such as a DKG commitment the validator registry checked
// when it stored the dealing and now reads back from the state. It skips
// the subgroup check, the costly part of PublicKeyFromBytes (about as much
// as a scalar multiplication); decompression still refuses bytes that are
// not a point of the curve, and the identity is refused. Never use it on
// bytes from the network.
func PublicKeyFromCheckedBytes(b []byte) (*PublicKey, error) {
	if len(b) != PublicKeySize {
		return nil, fmt.Errorf("decode public key of %d bytes: %w", len(b), ErrBadPublicKey)
	}
	var p blst.P1Affine
	if p.Uncompress(b) == nil || p.Equals(new(blst.P1Affine)) {
		return nil, fmt.Errorf("decode public key: %w", ErrBadPublicKey)
	}
	return &PublicKey{p: p}, nil
}

// EvalCommitmentsUpTo is EvalCommitments at every x = 1 … n, as a DKG
// needs for the public shares: by Horner's rule, f(x)·G1 = C_0 + x·(C_1 +
// x·(…)), each step a multiplication by the small x (log2 n bits) and an
// addition, instead of one multi-scalar multiplication with full-size
// scalars x^k per index. The commitments are points of G1 (every
// PublicKey is), so the results are too and are not checked again.
func EvalCommitmentsUpTo(cs []*PublicKey, n int) ([]*PublicKey, error) {
	if len(cs) == 0 {
		return nil, fmt.Errorf("evaluate commitments: %w", ErrEmptyAggregate)
	}
	for k, c := range cs {
		if c == nil {
			return nil, fmt.Errorf("evaluate commitments: commitment %d is nil: %w", k, ErrBadPublicKey)
		}
	}
	if n < 1 || n > 1<<16 {
		return nil, fmt.Errorf("evaluate commitments at 1..%d: want 1 to 65536 indices", n)
	}
	t := len(cs)
	acc := make(blst.P1s, n)
	for x := 1; x <= n; x++ {
		xb := []byte{byte(x), byte(x >> 8), byte(x >> 16)} // little-endian, as blst reads scalars
		nb := bits.Len(uint(x))
		p := &acc[x-1]
		p.FromAffine(&cs[t-1].p)
		for k := t - 2; k >= 0; k-- {
			p.MultAssign(xb, nb)
			p.AddAssign(&cs[k].p)
		}
	}
	aff := acc.ToAffine() // one batched inversion
	out := make([]*PublicKey, n)
	for i := range aff {
		if aff[i].Equals(new(blst.P1Affine)) {
			return nil, fmt.Errorf("evaluate commitments at %d: %w", i+1, ErrIdentity)
		}
		out[i] = &PublicKey{p: aff[i]}
	}
	return out, nil
}

// SumColumns adds up equal-length rows of points column by column: the
// summed commitment polynomial of a DKG's qualified dealers, Σ_d C_{d,k}.
// The inputs are points of G1, so the sums are and are not checked again
// (PublicKey.Add checks each result, which at 64 dealers of 43 commitments
// cost as much as the rest of the boundary). A column summing to the
// identity is refused.
func SumColumns(rows [][]*PublicKey) ([]*PublicKey, error) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, fmt.Errorf("sum points: %w", ErrEmptyAggregate)
	}
	t := len(rows[0])
	acc := make(blst.P1s, t)
	for r, row := range rows {
		if len(row) != t {
			return nil, fmt.Errorf("sum points: row %d has %d points, row 0 has %d", r, len(row), t)
		}
		for k, p := range row {
			if p == nil {
				return nil, fmt.Errorf("sum points: row %d point %d is nil: %w", r, k, ErrBadPublicKey)
			}
			if r == 0 {
				acc[k].FromAffine(&p.p)
			} else {
				acc[k].AddAssign(&p.p)
			}
		}
	}
	aff := acc.ToAffine()
	out := make([]*PublicKey, t)
	for k := range aff {
		if aff[k].Equals(new(blst.P1Affine)) {
			return nil, fmt.Errorf("sum points: column %d: %w", k, ErrIdentity)
		}
		out[k] = &PublicKey{p: aff[k]}
	}
	return out, nil
}
