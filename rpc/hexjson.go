package rpc

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// The JSON encodings of numbers, bytes, hashes and addresses
// (spec/README.md "JSON-RPC numbers", as Ethereum's JSON-RPC):
//
//	quantity   "0x" + lowercase hex without leading zeros; zero is "0x0".
//	           "0x", "0x01", "12" and JSON numbers are refused.
//	bytes      "0x" + an even number of hex digits; empty is "0x".
//	hash       "0x" + 64 hex digits.
//	address    "0x" + 40 hex digits, printed with the EIP-55 checksum;
//	           mixed case on input must be a valid checksum.

// maxBigQuantityBits bounds amounts: balances are 256-bit integers.
const maxBigQuantityBits = 256

// Quantity is a uint64 (height, nonce, Cycles, Cells, fee per unit) that
// travels as a hex quantity.
type Quantity uint64

// MarshalText writes 0x-hex without leading zeros.
func (q Quantity) MarshalText() ([]byte, error) {
	return []byte("0x" + strconv.FormatUint(uint64(q), 16)), nil
}

// UnmarshalJSON insists on a JSON string, so a bare number cannot slip in
// as a decimal where hex was meant.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s, err := jsonString(b, "quantity")
	if err != nil {
		return err
	}
	return q.UnmarshalText([]byte(s))
}

// UnmarshalText accepts a quantity of at most 64 bits.
func (q *Quantity) UnmarshalText(b []byte) error {
	digits, err := quantityDigits(string(b))
	if err != nil {
		return err
	}
	if len(digits) > 16 {
		return fmt.Errorf("quantity %q does not fit in 64 bits", b)
	}
	v, err := strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return fmt.Errorf("quantity %q: %w", b, err)
	}
	*q = Quantity(v)
	return nil
}

// String is the hex form.
func (q Quantity) String() string { b, _ := q.MarshalText(); return string(b) }

// BigQuantity is an amount of base units (up to 256 bits) that travels as a
// hex quantity. Use NewBigQuantity and Int to convert.
type BigQuantity big.Int

// NewBigQuantity wraps v; nil is zero.
func NewBigQuantity(v *big.Int) *BigQuantity {
	if v == nil {
		return (*BigQuantity)(new(big.Int))
	}
	return (*BigQuantity)(new(big.Int).Set(v))
}

// Int is the value as a new *big.Int; a nil BigQuantity is zero.
func (q *BigQuantity) Int() *big.Int {
	if q == nil {
		return new(big.Int)
	}
	return new(big.Int).Set((*big.Int)(q))
}

// MarshalText writes 0x-hex without leading zeros.
func (q BigQuantity) MarshalText() ([]byte, error) {
	v := (*big.Int)(&q)
	if v.Sign() < 0 {
		return nil, fmt.Errorf("negative quantity %s", v)
	}
	return []byte("0x" + v.Text(16)), nil
}

// UnmarshalJSON insists on a JSON string.
func (q *BigQuantity) UnmarshalJSON(b []byte) error {
	s, err := jsonString(b, "quantity")
	if err != nil {
		return err
	}
	return q.UnmarshalText([]byte(s))
}

// UnmarshalText accepts a quantity of at most 256 bits.
func (q *BigQuantity) UnmarshalText(b []byte) error {
	digits, err := quantityDigits(string(b))
	if err != nil {
		return err
	}
	if len(digits) > maxBigQuantityBits/4 {
		return fmt.Errorf("quantity %q exceeds %d bits", b, maxBigQuantityBits)
	}
	v, ok := new(big.Int).SetString(digits, 16)
	if !ok {
		return fmt.Errorf("quantity %q: invalid hex digit", b)
	}
	*q = BigQuantity(*v)
	return nil
}

// String is the hex form.
func (q *BigQuantity) String() string {
	if q == nil {
		return "0x0"
	}
	b, err := q.MarshalText()
	if err != nil {
		return (*big.Int)(q).String()
	}
	return string(b)
}

// quantityDigits strips the 0x of a well-formed quantity.
func quantityDigits(s string) (string, error) {
	digits, ok := strings.CutPrefix(s, "0x")
	switch {
	case !ok:
		return "", fmt.Errorf("quantity %q: want 0x-prefixed hex", s)
	case digits == "":
		return "", fmt.Errorf("quantity %q: no digits after 0x (zero is 0x0)", s)
	case len(digits) > 1 && digits[0] == '0':
		return "", fmt.Errorf("quantity %q: leading zero digits", s)
	}
	for _, c := range digits {
		if !isHexDigit(c) {
			return "", fmt.Errorf("quantity %q: invalid hex digit %q", s, c)
		}
	}
	return digits, nil
}

func isHexDigit(c rune) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// Bytes is a byte string that travels as 0x-hex.
type Bytes []byte

// MarshalText writes 0x + lowercase hex; empty is "0x".
func (b Bytes) MarshalText() ([]byte, error) {
	out := make([]byte, 2+2*len(b))
	copy(out, "0x")
	hex.Encode(out[2:], b)
	return out, nil
}

// UnmarshalJSON insists on a JSON string.
func (b *Bytes) UnmarshalJSON(data []byte) error {
	s, err := jsonString(data, "byte string")
	if err != nil {
		return err
	}
	return b.UnmarshalText([]byte(s))
}

// UnmarshalText accepts 0x + an even number of hex digits.
func (b *Bytes) UnmarshalText(text []byte) error {
	v, err := decodeHexBytes(string(text))
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// String is the hex form.
func (b Bytes) String() string { s, _ := b.MarshalText(); return string(s) }

func decodeHexBytes(s string) ([]byte, error) {
	body, ok := strings.CutPrefix(s, "0x")
	if !ok {
		return nil, fmt.Errorf("byte string %s: want 0x-prefixed hex", abbrev(s))
	}
	if len(body)%2 != 0 {
		return nil, fmt.Errorf("byte string %s: odd number of hex digits", abbrev(s))
	}
	out := make([]byte, len(body)/2)
	if _, err := hex.Decode(out, []byte(body)); err != nil {
		return nil, fmt.Errorf("byte string %s: %w", abbrev(s), err)
	}
	return out, nil
}

// abbrev quotes s, cut short so an error message never echoes a megabyte.
func abbrev(s string) string {
	const max = 80
	if len(s) > max {
		return strconv.Quote(s[:max]) + "…"
	}
	return strconv.Quote(s)
}

// Hash is a types.Hash that travels as 0x + 64 hex digits. Convert with
// types.Hash(h) and Hash(th).
type Hash types.Hash

// MarshalText writes 0x + 64 lowercase hex digits.
func (h Hash) MarshalText() ([]byte, error) { return []byte(types.Hash(h).Hex()), nil }

// UnmarshalJSON insists on a JSON string.
func (h *Hash) UnmarshalJSON(b []byte) error {
	s, err := jsonString(b, "hash")
	if err != nil {
		return err
	}
	return h.UnmarshalText([]byte(s))
}

// UnmarshalText parses with types.ParseHash.
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := types.ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = Hash(v)
	return nil
}

// String is the hex form.
func (h Hash) String() string { return types.Hash(h).Hex() }

// Address is a types.Address that travels in its EIP-55 form. Convert with
// types.Address(a) and Address(ta).
type Address types.Address

// MarshalText writes the EIP-55 checksummed form.
func (a Address) MarshalText() ([]byte, error) { return []byte(types.Address(a).Hex()), nil }

// UnmarshalJSON insists on a JSON string.
func (a *Address) UnmarshalJSON(b []byte) error {
	s, err := jsonString(b, "address")
	if err != nil {
		return err
	}
	return a.UnmarshalText([]byte(s))
}

// UnmarshalText parses with types.ParseAddress, checksum included.
func (a *Address) UnmarshalText(b []byte) error {
	v, err := types.ParseAddress(string(b))
	if err != nil {
		return err
	}
	*a = Address(v)
	return nil
}

// String is the EIP-55 form.
func (a Address) String() string { return types.Address(a).Hex() }

var errNotString = errors.New("not a JSON string")

// jsonString unquotes a JSON string without the reflection of
// json.Unmarshal, and names what was expected when it is something else.
func jsonString(b []byte, what string) (string, error) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", fmt.Errorf("%s: want a 0x-hex JSON string, got %s: %w", what, abbrev(string(b)), errNotString)
	}
	s := string(b[1 : len(b)-1])
	if strings.ContainsAny(s, "\\\"") {
		// Hex never needs escapes; an escaped string is not hex.
		return "", fmt.Errorf("%s: escape sequences are not allowed in hex", what)
	}
	return s, nil
}
