package types

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
)

// A minimal canonical CBOR writer and strict reader for the transaction
// array. Transactions are the hottest decode path of the node and their
// canonical form is a consensus rule, so they are encoded by hand here; the
// other structures use github.com/fxamacker/cbor/v2 (codec.go).
//
// Only these items occur in a transaction:
//   major 0  unsigned integer, shortest head (0x00-0x17, 0x18 n, 0x19 nn, 0x1a, 0x1b)
//   major 2  byte string, definite length
//   major 4  array, definite length
//   0xc2     tag 2 (unsigned bignum) followed by a byte string with no leading zero byte,
//            used only for values of 2^64 and above
//   0xf6     null

const (
	majorUint  = 0
	majorBytes = 2
	majorArray = 4
	cborNull   = 0xf6
	cborTagBig = 0xc2
)

// errCBOR marks a malformed or non-canonical encoding.
var errCBOR = errors.New("malformed CBOR")

func appendHead(b []byte, major byte, n uint64) []byte {
	m := major << 5
	switch {
	case n < 24:
		return append(b, m|byte(n))
	case n <= 0xff:
		return append(b, m|24, byte(n))
	case n <= 0xffff:
		return append(b, m|25, byte(n>>8), byte(n))
	case n <= 0xffffffff:
		return append(b, m|26, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(b, m|27, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32),
			byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}

func appendUint(b []byte, n uint64) []byte { return appendHead(b, majorUint, n) }

func appendBytes(b []byte, p []byte) []byte {
	b = appendHead(b, majorBytes, uint64(len(p)))
	return append(b, p...)
}

func appendText(b []byte, s string) []byte {
	b = appendHead(b, 3, uint64(len(s)))
	return append(b, s...)
}

// appendBigUint writes a non-negative integer: shortest uint below 2^64, tag 2
// bignum with no leading zeros above.
func appendBigUint(b []byte, v *big.Int) []byte {
	if v == nil {
		return appendUint(b, 0)
	}
	if v.IsUint64() {
		return appendUint(b, v.Uint64())
	}
	b = append(b, cborTagBig)
	return appendBytes(b, v.Bytes())
}

// reader decodes from a byte slice without allocating for integers.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) head() (major byte, arg uint64, err error) {
	if r.pos >= len(r.b) {
		return 0, 0, fmt.Errorf("%w: unexpected end of input at byte %d", errCBOR, r.pos)
	}
	ib := r.b[r.pos]
	r.pos++
	major, info := ib>>5, ib&0x1f
	var n int
	switch {
	case info < 24:
		return major, uint64(info), nil
	case info == 24:
		n = 1
	case info == 25:
		n = 2
	case info == 26:
		n = 4
	case info == 27:
		n = 8
	default:
		return 0, 0, fmt.Errorf("%w: indefinite length or reserved value 0x%02x at byte %d", errCBOR, ib, r.pos-1)
	}
	if r.pos+n > len(r.b) {
		return 0, 0, fmt.Errorf("%w: truncated integer at byte %d", errCBOR, r.pos)
	}
	for i := 0; i < n; i++ {
		arg = arg<<8 | uint64(r.b[r.pos+i])
	}
	r.pos += n
	// Canonical form: the shortest head (RFC 8949 §4.2.1).
	if (n == 1 && arg < 24) || (n == 2 && arg <= 0xff) || (n == 4 && arg <= 0xffff) || (n == 8 && arg <= 0xffffffff) {
		return 0, 0, fmt.Errorf("%w: integer %d not in shortest form", errCBOR, arg)
	}
	return major, arg, nil
}

func (r *reader) peekNull() bool {
	if r.pos < len(r.b) && r.b[r.pos] == cborNull {
		r.pos++
		return true
	}
	return false
}

func (r *reader) uint() (uint64, error) {
	m, n, err := r.head()
	if err != nil {
		return 0, err
	}
	if m != majorUint {
		return 0, fmt.Errorf("%w: want unsigned integer, got major type %d", errCBOR, m)
	}
	return n, nil
}

func (r *reader) bytes(max int) ([]byte, error) {
	p, err := r.view(max)
	if err != nil {
		return nil, err
	}
	return append(make([]byte, 0, len(p)), p...), nil
}

// view reads a byte string like bytes, but returns it in place, not
// copied: for callers that copy or convert it before r.b can change.
func (r *reader) view(max int) ([]byte, error) {
	m, n, err := r.head()
	if err != nil {
		return nil, err
	}
	if m != majorBytes {
		return nil, fmt.Errorf("%w: want byte string, got major type %d", errCBOR, m)
	}
	if n > uint64(max) || n > uint64(len(r.b)-r.pos) {
		return nil, fmt.Errorf("%w: byte string of %d bytes too long", errCBOR, n)
	}
	out := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return out, nil
}

func (r *reader) fixedBytes(dst []byte) error {
	p, err := r.view(len(dst))
	if err != nil {
		return err
	}
	if len(p) != len(dst) {
		return fmt.Errorf("%w: want %d-byte string, got %d bytes", errCBOR, len(dst), len(p))
	}
	copy(dst, p)
	return nil
}

func (r *reader) array() (int, error) {
	m, n, err := r.head()
	if err != nil {
		return 0, err
	}
	if m != majorArray {
		return 0, fmt.Errorf("%w: want array, got major type %d", errCBOR, m)
	}
	if n > uint64(len(r.b)-r.pos) { // every element takes at least one byte
		return 0, fmt.Errorf("%w: array of %d items longer than input", errCBOR, n)
	}
	return int(n), nil
}

// bigUint reads a uint or a tag-2 bignum of at most maxBits bits.
func (r *reader) bigUint(maxBits int) (*big.Int, error) {
	if r.pos < len(r.b) && r.b[r.pos] == cborTagBig {
		r.pos++
		p, err := r.view(maxBits / 8)
		if err != nil {
			return nil, err
		}
		if len(p) == 0 || p[0] == 0 {
			return nil, fmt.Errorf("%w: bignum with leading zero byte", errCBOR)
		}
		v := newBigInt().SetBytes(p)
		if v.IsUint64() {
			return nil, fmt.Errorf("%w: bignum %s fits a plain integer", errCBOR, v)
		}
		return v, nil
	}
	n, err := r.uint()
	if err != nil {
		return nil, err
	}
	return newBigInt().SetUint64(n), nil
}

// bigWords is a big.Int with room for 256 bits (maxValueBits, the most a
// value or balance may hold) in the same allocation: a decoded amount
// costs one allocation instead of two (the Int, then its words), and an
// account's balance is decoded for every transaction's sender and
// recipient.
type bigWords struct {
	i big.Int
	w [256 / bits.UintSize]big.Word
}

// newBigInt is a zero big.Int whose first 256 bits need no allocation of
// their own.
func newBigInt() *big.Int {
	b := new(bigWords)
	return b.i.SetBits(b.w[:0])
}

func (r *reader) end() error {
	if r.pos != len(r.b) {
		return fmt.Errorf("%w: %d trailing bytes", errCBOR, len(r.b)-r.pos)
	}
	return nil
}
