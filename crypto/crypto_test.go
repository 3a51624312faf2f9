package crypto

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"lukechampine.com/blake3"
)

func TestKeccakAndBlake3Vectors(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		// keccak256("") from the Keccak team / Ethereum.
		{"keccak empty", hexOf(Keccak256()), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
		{"keccak abc", hexOf(Keccak256([]byte("abc"))), "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"},
		// BLAKE3 of the empty input, from the BLAKE3 reference test vectors.
		{"blake3 empty", hexOf(Blake3(nil)), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{"blake3 parts equal whole", hexOf(Blake3([]byte("ab"), []byte("c"))), hexOf(Blake3([]byte("abc")))},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %s want %s", tt.name, tt.got, tt.want)
		}
	}
}

func hexOf(b [32]byte) string { return hex.EncodeToString(b[:]) }

// The devnet accounts use the public test mnemonic; its first addresses are
// published by every Ethereum development tool, an independent check of the
// BIP-39/BIP-32 derivation and of the address rule.
func TestDevMnemonicAddresses(t *testing.T) {
	seed := MnemonicSeed(DevMnemonic, "")
	want := []string{
		"f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
		"70997970c51812dc3a010c7d01b50e0d17dc79c8",
		"3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
	}
	for i, w := range want {
		k, err := DeriveBIP44(seed, uint32(i))
		if err != nil {
			t.Fatal(err)
		}
		a := k.Address()
		if got := hex.EncodeToString(a[:]); got != w {
			t.Errorf("account %d: got %s want %s", i, got, w)
		}
	}
}

func TestSignRecover(t *testing.T) {
	k, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := Keccak256([]byte("cowboy"))
	v, r, s := k.Sign(digest)
	pub, err := Recover(digest, v, r, s)
	if err != nil {
		t.Fatal(err)
	}
	if PubkeyToAddress(pub) != k.Address() {
		t.Fatal("recovered a different address")
	}
	// Other digest recovers another key.
	pub2, err := Recover(Keccak256([]byte("other")), v, r, s)
	if err == nil && PubkeyToAddress(pub2) == k.Address() {
		t.Fatal("signature verified for a different message")
	}
}

func TestRecoverRejects(t *testing.T) {
	k, _ := PrivateKeyFromBytes(bytes32(7))
	digest := Keccak256([]byte("x"))
	v, r, s := k.Sign(digest)
	// n - s: the high-s twin of a valid signature.
	n, _ := hex.DecodeString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
	var hi [32]byte
	borrow := 0
	for i := 31; i >= 0; i-- {
		d := int(n[i]) - int(s[i]) - borrow
		borrow = 0
		if d < 0 {
			d += 256
			borrow = 1
		}
		hi[i] = byte(d)
	}
	var zero, over [32]byte
	copy(over[:], n)
	tests := []struct {
		name string
		v    byte
		r, s [32]byte
		want error
	}{
		{"y_parity 2", 2, r, s, ErrInvalidYParity},
		{"r zero", v, zero, s, ErrInvalidR},
		{"r = n", v, over, s, ErrInvalidR},
		{"s zero", v, r, zero, ErrInvalidS},
		{"high s", v, r, hi, ErrHighS},
	}
	for _, tt := range tests {
		if _, err := Recover(digest, tt.v, tt.r, tt.s); err != tt.want {
			t.Errorf("%s: got %v want %v", tt.name, err, tt.want)
		}
	}
}

func bytes32(b byte) []byte {
	out := make([]byte, 32)
	out[31] = b
	return out
}

func BenchmarkRecover(b *testing.B) {
	k, _ := GenerateKey()
	digest := Keccak256([]byte("bench"))
	v, r, s := k.Sign(digest)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Recover(digest, v, r, s); err != nil {
			b.Fatal(err)
		}
	}
}

// Randomness is HKDF-SHA256 with the fixed salt: checked against the RFC
// 5869 construction written out (extract, then one expand block), and it
// must change with the label and with the beacon.
func TestRandomness(t *testing.T) {
	beacon := [32]byte{1, 2, 3}
	label := []byte("lottery")
	ext := hmac.New(sha256.New, []byte("cowboy/randomness/v1"))
	ext.Write(beacon[:])
	prk := ext.Sum(nil)
	exp := hmac.New(sha256.New, prk)
	exp.Write(label)
	exp.Write([]byte{1})
	want := exp.Sum(nil)
	got := Randomness(beacon, label)
	if !bytes.Equal(got[:], want) {
		t.Fatalf("Randomness = %x, want %x", got, want)
	}
	if Randomness(beacon, []byte("dice")) == got || Randomness([32]byte{9}, label) == got {
		t.Fatal("randomness does not depend on both the label and the beacon")
	}
}

// Blake3 of joined parts, which hashes inputs up to 128 bytes through
// sum256Short, equals blake3.Sum256 of the concatenation at every length
// around the block (64) and buffer (128) boundaries, and beyond them.
func TestBlake3Short(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 1024, 1025, 3000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + n)
		}
		want := blake3.Sum256(b)
		half := n / 2
		if got := Blake3(b[:half], b[half:]); got != want {
			t.Errorf("%d bytes in two parts: %x, want %x", n, got, want)
		}
		if got := Blake3(b); got != want {
			t.Errorf("%d bytes in one part: %x, want %x", n, got, want)
		}
		if n <= 1024 {
			if got := sum256Short(b); got != want {
				t.Errorf("sum256Short of %d bytes: %x, want %x", n, got, want)
			}
		}
	}
}
