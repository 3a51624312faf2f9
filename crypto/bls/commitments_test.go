package bls

import (
	"bytes"
	"errors"
	"math/big"
	"testing"
)

// TestEvalCommitmentsUpTo: Horner's rule with small indices gives what the
// multi-scalar multiplication gives, at every index, for one and several
// coefficients.
func TestEvalCommitmentsUpTo(t *testing.T) {
	for _, deg := range []int{1, 2, 7} {
		cs := make([]*PublicKey, deg)
		for k := range cs {
			sk, err := SecretKeyFromScalar(big.NewInt(int64(1000*deg + 17*k + 3)))
			if err != nil {
				t.Fatal(err)
			}
			cs[k] = sk.PublicKey()
		}
		const n = 300 // indices past one byte
		got, err := EvalCommitmentsUpTo(cs, n)
		if err != nil {
			t.Fatal(err)
		}
		for x := 1; x <= n; x++ {
			want, err := EvalCommitments(cs, uint64(x))
			if err != nil {
				t.Fatal(err)
			}
			if !got[x-1].Equal(want) {
				t.Fatalf("degree %d, x = %d: Horner and MSM differ", deg-1, x)
			}
		}
	}
	if _, err := EvalCommitmentsUpTo(nil, 3); !errors.Is(err, ErrEmptyAggregate) {
		t.Fatalf("no commitments: %v", err)
	}
}

// TestPublicKeyFromCheckedBytes: a key decodes to the same point as with
// PublicKeyFromBytes; bytes of the wrong size, the identity, and an
// x-coordinate with no point on the curve are refused.
func TestPublicKeyFromCheckedBytes(t *testing.T) {
	sk, _ := SecretKeyFromScalar(big.NewInt(42))
	b := sk.PublicKey().Bytes()
	pk, err := PublicKeyFromCheckedBytes(b)
	if err != nil || !bytes.Equal(pk.Bytes(), b) {
		t.Fatalf("decode: %v", err)
	}
	identity := make([]byte, PublicKeySize)
	identity[0] = 0xc0
	// About half the small x-coordinates have no point (x³ + 4 is not a
	// square mod p); the first such one.
	var offCurve []byte
	for x := byte(1); offCurve == nil && x < 100; x++ {
		in := make([]byte, PublicKeySize)
		in[0], in[PublicKeySize-1] = 0x80, x
		if _, err := PublicKeyFromCheckedBytes(in); err != nil {
			offCurve = in
		}
	}
	if offCurve == nil {
		t.Fatal("every x below 100 has a point")
	}
	for name, in := range map[string][]byte{"short": b[:47], "identity": identity, "off the curve": offCurve} {
		if _, err := PublicKeyFromCheckedBytes(in); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
