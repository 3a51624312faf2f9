package types

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/crypto"
)

// Address identifies an account: an external account (last 20 bytes of
// keccak256 of its public key) or an actor (§1.2). Written as 0x + 40 hex
// digits with the EIP-55 checksum.
type Address [20]byte

// Hash is a 32-byte digest (keccak256 for transactions and blocks, BLAKE3
// for state roots).
type Hash [32]byte

// Hex prints the EIP-55 checksummed form.
func (a Address) Hex() string {
	lower := hex.EncodeToString(a[:])
	h := crypto.Keccak256([]byte(lower))
	out := []byte("0x" + lower)
	for i := 0; i < 40; i++ {
		c := out[2+i]
		nibble := h[i/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		if c >= 'a' && c <= 'f' && nibble&0xf >= 8 {
			out[2+i] = c - 32
		}
	}
	return string(out)
}

// String is Hex, so addresses print the same everywhere.
func (a Address) String() string { return a.Hex() }

// ParseAddress accepts 0x + 40 hex digits. All-lower or all-upper input is
// taken as is; mixed case must be a valid EIP-55 checksum, because a typo in
// an address sends money nowhere.
func ParseAddress(s string) (Address, error) {
	var a Address
	body, ok := strings.CutPrefix(s, "0x")
	if !ok {
		body, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || len(body) != 40 {
		return a, fmt.Errorf("invalid address %q: want 0x followed by 40 hex digits", s)
	}
	if _, err := hex.Decode(a[:], []byte(body)); err != nil {
		return a, fmt.Errorf("invalid address %q: %v", s, err)
	}
	if body != strings.ToLower(body) && body != strings.ToUpper(body) && a.Hex()[2:] != body {
		return a, fmt.Errorf("invalid address %q: EIP-55 checksum mismatch (expected %s)", s, a.Hex())
	}
	return a, nil
}

// Hex prints 0x + 64 lowercase hex digits.
func (h Hash) Hex() string { return "0x" + hex.EncodeToString(h[:]) }

// String is Hex.
func (h Hash) String() string { return h.Hex() }

// ParseHash accepts 0x + 64 hex digits.
func ParseHash(s string) (Hash, error) {
	var h Hash
	body, ok := strings.CutPrefix(s, "0x")
	if !ok || len(body) != 64 {
		return h, fmt.Errorf("invalid hash %q: want 0x followed by 64 hex digits", s)
	}
	if _, err := hex.Decode(h[:], []byte(body)); err != nil {
		return h, fmt.Errorf("invalid hash %q: %v", s, err)
	}
	return h, nil
}
