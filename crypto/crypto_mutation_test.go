package crypto

import (
	"bytes"
	"testing"
)

// TestDeriveBIP44IndexRange: the account index is the last, non-hardened
// step of m/44'/60'/0'/0/index, so 2^31 - 1 is the last index and 2^31
// (the first hardened one) is refused; neighbouring indices give
// different keys.
func TestDeriveBIP44IndexRange(t *testing.T) {
	seed := MnemonicSeed(DevMnemonic, "")
	tests := []struct {
		index uint32
		ok    bool
	}{
		{0, true},
		{hardened - 1, true},
		{hardened, false},
		{hardened + 1, false},
		{^uint32(0), false},
	}
	var prev []byte
	for _, tc := range tests {
		k, err := DeriveBIP44(seed, tc.index)
		if tc.ok != (err == nil) {
			t.Fatalf("index %d: %v, want ok %v", tc.index, err, tc.ok)
		}
		if !tc.ok {
			continue
		}
		if bytes.Equal(k.Bytes(), prev) {
			t.Fatalf("index %d: same key as the previous index", tc.index)
		}
		prev = k.Bytes()
	}
}
