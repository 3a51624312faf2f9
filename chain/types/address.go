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
func (a Address) Hex() string { return crypto.ChecksumAddress(a) }

// String is Hex, so addresses print the same everywhere.
func (a Address) String() string { return a.Hex() }

// ParseAddress accepts 0x + 40 hex digits. All-lower or all-upper input is
// taken as is; mixed case must be a valid EIP-55 checksum, because a typo in
// an address sends money nowhere.
func ParseAddress(s string) (Address, error) {
	a, err := crypto.ParseAddress(s)
	return Address(a), err
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
