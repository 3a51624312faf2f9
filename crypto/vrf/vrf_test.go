package vrf

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/crypto/bls"
)

func key(t *testing.T, b byte) *bls.SecretKey {
	t.Helper()
	sk, err := bls.GenerateKey(bytes.Repeat([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

func TestProveVerify(t *testing.T) {
	sk := key(t, 1)
	in := Input([32]byte{9}, 42)
	out, proof := Prove(sk, in)
	got, err := Verify(sk.PublicKey(), in, proof)
	if err != nil {
		t.Fatal(err)
	}
	if got != out {
		t.Fatal("verified output differs from proved output")
	}
	if ProofToHash(proof) != out {
		t.Fatal("ProofToHash differs from the proved output")
	}
	// Unique: proving again gives the same output.
	out2, proof2 := Prove(sk, in)
	if out2 != out || !bytes.Equal(proof, proof2) {
		t.Fatal("VRF is not deterministic")
	}
}

func TestInputEncoding(t *testing.T) {
	in := Input([32]byte{0xaa}, 0x0102030405060708)
	want := "636f77626f792f7672662f7631" + "aa" + "00000000000000000000000000000000000000000000000000000000000000" + "0102030405060708"
	if got := hex.EncodeToString(in); got != want {
		t.Fatalf("input %s, want %s", got, want)
	}
}

func TestRefuses(t *testing.T) {
	sk := key(t, 1)
	in := Input([32]byte{1}, 7)
	_, proof := Prove(sk, in)
	if _, err := Verify(key(t, 2).PublicKey(), in, proof); !errors.Is(err, ErrBadProof) {
		t.Errorf("proof verified under another key: %v", err)
	}
	if _, err := Verify(sk.PublicKey(), Input([32]byte{1}, 8), proof); !errors.Is(err, ErrBadProof) {
		t.Errorf("proof verified for another height: %v", err)
	}
	if _, err := Verify(sk.PublicKey(), Input([32]byte{2}, 7), proof); !errors.Is(err, ErrBadProof) {
		t.Errorf("proof verified for another seed: %v", err)
	}
	bad := append([]byte(nil), proof...)
	bad[10] ^= 0x40
	if _, err := Verify(sk.PublicKey(), in, bad); err == nil {
		t.Error("tampered proof verified")
	}
	if _, err := Verify(sk.PublicKey(), in, proof[:95]); err == nil {
		t.Error("short proof verified")
	}
}

func TestOutputsDiffer(t *testing.T) {
	seen := map[Output]bool{}
	for k := byte(1); k <= 4; k++ {
		for h := uint64(0); h < 4; h++ {
			out, _ := Prove(key(t, k), Input([32]byte{}, h))
			if seen[out] {
				t.Fatalf("output repeated for key %d height %d", k, h)
			}
			seen[out] = true
		}
	}
}

func BenchmarkProve(b *testing.B) {
	sk, _ := bls.GenerateKey(bytes.Repeat([]byte{1}, 32))
	in := Input([32]byte{}, 1)
	for i := 0; i < b.N; i++ {
		Prove(sk, in)
	}
}

func BenchmarkVerify(b *testing.B) {
	sk, _ := bls.GenerateKey(bytes.Repeat([]byte{1}, 32))
	in := Input([32]byte{}, 1)
	_, proof := Prove(sk, in)
	pk := sk.PublicKey()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Verify(pk, in, proof); err != nil {
			b.Fatal(err)
		}
	}
}

// The next epoch's seed is keccak256("cowboy/epoch-seed/v1" || seed ||
// beacon): written out here, and it changes with either input.
func TestNextEpochSeed(t *testing.T) {
	seed, beacon := [32]byte{5}, [32]byte{7}
	want := crypto.Keccak256([]byte("cowboy/epoch-seed/v1"), seed[:], beacon[:])
	if got := NextEpochSeed(seed, beacon); got != want {
		t.Fatalf("NextEpochSeed = %x, want %x", got, want)
	}
	if NextEpochSeed(seed, [32]byte{8}) == want || NextEpochSeed([32]byte{6}, beacon) == want {
		t.Fatal("the seed ignores an input")
	}
}
