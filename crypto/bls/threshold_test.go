package bls

import (
	"math/big"
	"testing"
)

// split shares secret x by a polynomial of degree t−1 with fixed
// coefficients, returning share keys for indices 1..n.
func split(t *testing.T, x int64, deg int, n int) []*SecretKey {
	t.Helper()
	coeffs := []*big.Int{big.NewInt(x)}
	for k := 1; k < deg; k++ {
		coeffs = append(coeffs, new(big.Int).Exp(big.NewInt(7919), big.NewInt(int64(k*31)), Order))
	}
	out := make([]*SecretKey, n)
	for i := 1; i <= n; i++ {
		acc := new(big.Int)
		for k := len(coeffs) - 1; k >= 0; k-- {
			acc.Mul(acc, big.NewInt(int64(i))).Add(acc, coeffs[k]).Mod(acc, Order)
		}
		sk, err := SecretKeyFromScalar(acc)
		if err != nil {
			t.Fatal(err)
		}
		out[i-1] = sk
	}
	return out
}

func TestCombinePartials(t *testing.T) {
	const thr, n = 3, 5
	group, err := SecretKeyFromScalar(big.NewInt(123456789))
	if err != nil {
		t.Fatal(err)
	}
	shares := split(t, 123456789, thr, n)
	msg := []byte("QC_{n-1}")
	want := group.Sign(msg)
	cases := []struct {
		name string
		xs   []uint64
		ok   bool
	}{
		{"first three", []uint64{1, 2, 3}, true},
		{"last three", []uint64{3, 4, 5}, true},
		{"scattered", []uint64{5, 1, 3}, true},
		{"all five", []uint64{1, 2, 3, 4, 5}, true},
		{"too few", []uint64{2, 4}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := make([]*Signature, len(tc.xs))
			for k, x := range tc.xs {
				ps[k] = shares[x-1].Sign(msg)
			}
			got, err := CombinePartials(tc.xs, ps)
			if err != nil {
				t.Fatal(err)
			}
			if got.Equal(want) != tc.ok || Verify(group.PublicKey(), msg, got) != tc.ok {
				t.Fatalf("combined signature equal to the group's = %v, want %v", got.Equal(want), tc.ok)
			}
			raw := make([][]byte, len(ps))
			for k, p := range ps {
				raw[k] = p.Bytes()
			}
			if fromBytes, err := CombinePartialBytes(tc.xs, raw); err != nil || !fromBytes.Equal(got) {
				t.Fatalf("combining encoded partials: %v", err)
			}
		})
	}
	if _, err := CombinePartials([]uint64{1, 1}, []*Signature{want, want}); err == nil {
		t.Fatal("repeated index accepted")
	}
	if _, err := CombinePartials([]uint64{0}, []*Signature{want}); err == nil {
		t.Fatal("index 0 accepted")
	}
	if _, err := CombinePartials(nil, nil); err == nil {
		t.Fatal("empty combine accepted")
	}
	if _, err := CombinePartialBytes([]uint64{1}, [][]byte{make([]byte, 95)}); err == nil {
		t.Fatal("a short partial accepted")
	}
	if _, err := CombinePartialBytes([]uint64{1}, [][]byte{make([]byte, 96)}); err == nil {
		t.Fatal("a partial that is no point accepted")
	}
}

func TestEvalCommitmentsMatchesShares(t *testing.T) {
	const thr = 4
	coeffKeys := make([]*SecretKey, thr)
	cs := make([]*PublicKey, thr)
	coeffs := make([]*big.Int, thr)
	for k := range coeffKeys {
		sk, err := SecretKeyFromScalar(big.NewInt(int64(1000 + 17*k)))
		if err != nil {
			t.Fatal(err)
		}
		coeffKeys[k], cs[k], coeffs[k] = sk, sk.PublicKey(), sk.Scalar()
	}
	for _, x := range []uint64{1, 2, 9, 1024} {
		acc := new(big.Int)
		for k := thr - 1; k >= 0; k-- {
			acc.Mul(acc, new(big.Int).SetUint64(x)).Add(acc, coeffs[k]).Mod(acc, Order)
		}
		sk, err := SecretKeyFromScalar(acc)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EvalCommitments(cs, x)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(sk.PublicKey()) {
			t.Fatalf("commitments at %d do not match the share", x)
		}
		wrong, _ := EvalCommitments(cs, x+1)
		if wrong.Equal(sk.PublicKey()) {
			t.Fatalf("commitments at %d match the share of %d", x+1, x)
		}
	}
}

func TestSharedKeyAgrees(t *testing.T) {
	a, _ := SecretKeyFromScalar(big.NewInt(11))
	b, _ := SecretKeyFromScalar(big.NewInt(13))
	ab, err := a.SharedKey(b.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	ba, _ := b.SharedKey(a.PublicKey())
	c, _ := SecretKeyFromScalar(big.NewInt(143))
	if string(ab) != string(ba) || string(ab) != string(c.PublicKey().Bytes()) {
		t.Fatal("Diffie-Hellman keys differ")
	}
}

func BenchmarkVerifyThresholdSignature(b *testing.B) {
	group, _ := SecretKeyFromScalar(big.NewInt(987654321))
	msg := make([]byte, 48)
	sig := group.Sign(msg)
	pk := group.PublicKey()
	for i := 0; i < b.N; i++ {
		if !Verify(pk, msg, sig) {
			b.Fatal("does not verify")
		}
	}
}
