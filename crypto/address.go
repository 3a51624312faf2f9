package crypto

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// ChecksumAddress prints a 20-byte address as 0x + 40 hex digits in the
// EIP-55 mixed-case checksum form. It lives here, below both the chain and
// the PVM, so actors and the CLI print addresses identically.
func ChecksumAddress(a [20]byte) string {
	lower := hex.EncodeToString(a[:])
	h := Keccak256([]byte(lower))
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

// ParseAddress accepts 0x + 40 hex digits. All-lower or all-upper input is
// taken as is; mixed case must be a valid EIP-55 checksum, because a typo in
// an address sends money nowhere.
func ParseAddress(s string) ([20]byte, error) {
	var a [20]byte
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
	if body != strings.ToLower(body) && body != strings.ToUpper(body) && ChecksumAddress(a)[2:] != body {
		return a, fmt.Errorf("invalid address %q: EIP-55 checksum mismatch (expected %s)", s, ChecksumAddress(a))
	}
	return a, nil
}
