package types

import "math/big"

// Canonical CBOR primitives for hot, fixed-shape records (accounts) that
// are encoded per block by the thousand: the same bytes the reflection
// codec produces, without reflection. Readers refuse non-canonical input.

// AppendArrayHeader appends the head of an n-item array.
func AppendArrayHeader(b []byte, n int) []byte { return appendHead(b, majorArray, uint64(n)) }

// AppendUint appends an unsigned integer in its shortest form.
func AppendUint(b []byte, n uint64) []byte { return appendUint(b, n) }

// AppendBigUint appends a non-negative integer: plain below 2^64, tag 2
// bignum above.
func AppendBigUint(b []byte, v *big.Int) []byte { return appendBigUint(b, v) }

// AppendBytes appends a byte string.
func AppendBytes(b []byte, p []byte) []byte { return appendBytes(b, p) }

// AppendNull appends null.
func AppendNull(b []byte) []byte { return append(b, cborNull) }

// CBORReader reads the items above from a byte slice, strictly.
type CBORReader struct{ r reader }

// NewCBORReader starts reading b.
func NewCBORReader(b []byte) *CBORReader { return &CBORReader{reader{b: b}} }

// Array reads an array head and returns its length.
func (c *CBORReader) Array() (int, error) { return c.r.array() }

// Uint reads an unsigned integer.
func (c *CBORReader) Uint() (uint64, error) { return c.r.uint() }

// BigUint reads an integer of at most 256 bits.
func (c *CBORReader) BigUint() (*big.Int, error) { return c.r.bigUint(maxValueBits) }

// Null consumes a null if one is next.
func (c *CBORReader) Null() bool { return c.r.peekNull() }

// Fixed reads a byte string of exactly len(dst) bytes into dst.
func (c *CBORReader) Fixed(dst []byte) error { return c.r.fixedBytes(dst) }

// End fails if bytes remain.
func (c *CBORReader) End() error { return c.r.end() }

// AppendText appends a CBOR text string.
func AppendText(b []byte, s string) []byte { return appendText(b, s) }
