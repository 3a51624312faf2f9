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

// TestEvalCommitmentsUpToBounds: 1 to 65,536 indices are evaluated, 0 and
// 65,537 refused; the last index is evaluated like any other.
func TestEvalCommitmentsUpToBounds(t *testing.T) {
	sk, _ := SecretKeyFromScalar(big.NewInt(77))
	cs := []*PublicKey{sk.PublicKey()}
	for _, c := range []struct {
		n  int
		ok bool
	}{{0, false}, {1, true}, {1 << 16, true}, {1<<16 + 1, false}} {
		got, err := EvalCommitmentsUpTo(cs, c.n)
		if (err == nil) != c.ok {
			t.Fatalf("n = %d: %v", c.n, err)
		}
		if !c.ok {
			continue
		}
		want, err := EvalCommitments(cs, uint64(c.n))
		if err != nil || len(got) != c.n || !got[c.n-1].Equal(want) {
			t.Fatalf("n = %d: %d results, last wrong or %v", c.n, len(got), err)
		}
	}
	if _, err := EvalCommitmentsUpTo([]*PublicKey{cs[0], nil}, 3); !errors.Is(err, ErrBadPublicKey) {
		t.Fatalf("a nil commitment: %v", err)
	}
}

// TestSumColumns: each column is the sum of its points (as PublicKey.Add
// gives it); no rows, ragged rows, a nil point and a column summing to the
// identity are refused.
func TestSumColumns(t *testing.T) {
	pt := func(x int64) *PublicKey {
		sk, err := SecretKeyFromScalar(big.NewInt(x))
		if err != nil {
			t.Fatal(err)
		}
		return sk.PublicKey()
	}
	rows := [][]*PublicKey{{pt(1), pt(2)}, {pt(3), pt(4)}, {pt(5), pt(6)}}
	got, err := SumColumns(rows)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d sums, %v", len(got), err)
	}
	for k, want := range []int64{1 + 3 + 5, 2 + 4 + 6} {
		if !got[k].Equal(pt(want)) {
			t.Fatalf("column %d is not %d·G1", k, want)
		}
	}
	if one, err := SumColumns(rows[:1]); err != nil || !one[1].Equal(pt(2)) {
		t.Fatalf("one row: %v", err)
	}
	neg, err := pt(2).Mul(new(big.Int).Sub(Order, big.NewInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		rows [][]*PublicKey
		want error
	}{
		"no rows":       {nil, ErrEmptyAggregate},
		"empty row":     {[][]*PublicKey{{}}, ErrEmptyAggregate},
		"ragged":        {[][]*PublicKey{{pt(1), pt(2)}, {pt(3)}}, nil},
		"nil point":     {[][]*PublicKey{{pt(1), pt(2)}, {pt(3), nil}}, ErrBadPublicKey},
		"nil in row 0":  {[][]*PublicKey{{nil, pt(2)}, {pt(3), pt(4)}}, ErrBadPublicKey},
		"identity sum":  {[][]*PublicKey{{pt(1), pt(2)}, {pt(3), neg}}, ErrIdentity},
		"identity in 0": {[][]*PublicKey{{pt(2), pt(2)}, {neg, pt(3)}}, ErrIdentity},
	} {
		_, err := SumColumns(c.rows)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
