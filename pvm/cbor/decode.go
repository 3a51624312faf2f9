package cbor

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"
)

// SyntaxError is a byte string that is not canonical CBOR of a value the
// format carries. Decode turns it into a Python ValueError with the same
// message; DecodeGo and ToJSON return it wrapped (errors.As finds it).
type SyntaxError struct {
	Offset int    // offset of the offending item's first byte, in bytes
	Msg    string // what is wrong, e.g. "non-canonical head: 5 written in 1 bytes"
}

// Error says what is wrong and where, for logs and Python tracebacks.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid canonical CBOR at byte %d: %s", e.Offset, e.Msg)
}

// builder turns decoded items into values of type T: PVM values for Decode,
// Go values for DecodeGo. The decoder does every canonical-form check, so a
// builder only allocates (and charges for what it allocates).
type builder[T any] interface {
	null() T
	boolean(b bool) T
	int64(i int64) (T, error)
	bigint(v *big.Int) (T, error)
	float(f float64) (T, error)
	text(s string) (T, error)
	bytes(b []byte) (T, error)
	// array builds an array of items; key is true inside a map key.
	array(items []T, key bool) (T, error)
	// reserve is called with an array's length before its items are
	// decoded, so memory is checked before it is allocated.
	reserve(n int, key bool) error
	// newMap starts a map of n entries; put adds one (keys arrive in
	// canonical order and are already known to be distinct) and returns the
	// map with the entry added.
	newMap(n int) (T, error)
	put(m, k, v T) (T, error)
}

// decoder walks one byte string. It never allocates more than the input can
// describe: every declared length is checked against the bytes left first.
type decoder struct {
	b   []byte
	off int
}

func (d *decoder) fail(at int, format string, args ...any) error {
	return &SyntaxError{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// head reads an item's initial byte and argument. For major 7 it returns
// info and the raw argument (floats carry their bits there); for the others
// it enforces the shortest form and definite lengths.
func (d *decoder) head() (major, info byte, arg uint64, err error) {
	at := d.off
	if d.off >= len(d.b) {
		return 0, 0, 0, d.fail(at, "unexpected end of input")
	}
	ib := d.b[d.off]
	d.off++
	major, info = ib&0xe0, ib&0x1f
	var size int
	switch {
	case info < 24:
		return major, info, uint64(info), nil
	case info == 24:
		size = 1
	case info == 25:
		size = 2
	case info == 26:
		size = 4
	case info == 27:
		size = 8
	case info == 31:
		if major == majorSimple {
			return 0, 0, 0, d.fail(at, "unexpected break code 0xff")
		}
		return 0, 0, 0, d.fail(at, "indefinite-length item (initial byte 0x%02x) not allowed", ib)
	default:
		return 0, 0, 0, d.fail(at, "reserved additional information %d (initial byte 0x%02x)", info, ib)
	}
	if len(d.b)-d.off < size {
		return 0, 0, 0, d.fail(at, "unexpected end of input")
	}
	p := d.b[d.off : d.off+size]
	d.off += size
	switch size {
	case 1:
		arg = uint64(p[0])
	case 2:
		arg = uint64(binary.BigEndian.Uint16(p))
	case 4:
		arg = uint64(binary.BigEndian.Uint32(p))
	default:
		arg = binary.BigEndian.Uint64(p)
	}
	if major != majorSimple {
		var minimum uint64 = 24
		if size > 1 {
			minimum = 1 << (4 * size) // 2 bytes: >= 2^8, 4: >= 2^16, 8: >= 2^32
		}
		if arg < minimum {
			return 0, 0, 0, d.fail(at, "non-canonical head: %d written in %d bytes", arg, size)
		}
	}
	return major, info, arg, nil
}

// length checks that a declared count of units of size each fits in what is
// left of the input, so a short input cannot make the decoder allocate.
func (d *decoder) length(at int, n uint64, size int) (int, error) {
	left := uint64(len(d.b) - d.off)
	if n > left/uint64(size) {
		return 0, d.fail(at, "declared length %d exceeds what the %d bytes left can hold", n, left)
	}
	return int(n), nil
}

// decodeAll decodes b, which must hold exactly one item.
func decodeAll[T any](b []byte, bl builder[T]) (T, error) {
	d := &decoder{b: b}
	v, err := decodeItem(d, bl, 0, false)
	if err != nil {
		var zero T
		return zero, err
	}
	if d.off != len(b) {
		var zero T
		return zero, d.fail(d.off, "%d trailing bytes after the item", len(b)-d.off)
	}
	return v, nil
}

// decodeItem decodes one item at depth (the number of enclosing
// containers); key is true inside a map key.
func decodeItem[T any](d *decoder, bl builder[T], depth int, key bool) (T, error) {
	var zero T
	at := d.off
	major, info, arg, err := d.head()
	if err != nil {
		return zero, err
	}
	switch major {
	case majorUint:
		if arg <= math.MaxInt64 {
			return bl.int64(int64(arg))
		}
		return bl.bigint(new(big.Int).SetUint64(arg))
	case majorNeg:
		if arg <= math.MaxInt64 {
			return bl.int64(-1 - int64(arg))
		}
		v := new(big.Int).SetUint64(arg)
		return bl.bigint(v.Neg(v).Sub(v, big.NewInt(1)))
	case majorBytes, majorText:
		n, err := d.length(at, arg, 1)
		if err != nil {
			return zero, err
		}
		s := d.b[d.off : d.off+n]
		d.off += n
		if major == majorBytes {
			return bl.bytes(s)
		}
		if !utf8.Valid(s) {
			return zero, d.fail(at, "text string is not valid UTF-8")
		}
		return bl.text(string(s))
	case majorArray:
		if depth >= MaxDepth {
			return zero, d.fail(at, "nesting exceeds %d levels", MaxDepth)
		}
		n, err := d.length(at, arg, 1)
		if err != nil {
			return zero, err
		}
		if err := bl.reserve(n, key); err != nil {
			return zero, err
		}
		items := make([]T, n)
		for i := range items {
			if items[i], err = decodeItem(d, bl, depth+1, key); err != nil {
				return zero, err
			}
		}
		return bl.array(items, key)
	case majorMap:
		return decodeMap(d, bl, at, arg, depth, key)
	case majorTag:
		return decodeBignum(d, bl, at, arg)
	}
	// majorSimple
	switch {
	case info == 20:
		return bl.boolean(false), nil
	case info == 21:
		return bl.boolean(true), nil
	case info == 22:
		return bl.null(), nil
	case info == 27:
		if f := math.Float64frombits(arg); math.IsNaN(f) && arg != canonicalNaN {
			return zero, d.fail(at, "non-canonical NaN 0x%016x (only 0x%016x is allowed)", arg, canonicalNaN)
		}
		return bl.float(math.Float64frombits(arg))
	case info == 25 || info == 26:
		return zero, d.fail(at, "%d-bit float not allowed (only 64-bit floats)", 8<<(info-24))
	case info == 23:
		return zero, d.fail(at, "unsupported simple value undefined (0xf7)")
	}
	return zero, d.fail(at, "unsupported simple value %d", arg)
}

func decodeMap[T any](d *decoder, bl builder[T], at int, arg uint64, depth int, key bool) (T, error) {
	var zero T
	if key {
		return zero, d.fail(at, "map used as a map key (dict is unhashable)")
	}
	if depth >= MaxDepth {
		return zero, d.fail(at, "nesting exceeds %d levels", MaxDepth)
	}
	n, err := d.length(at, arg, 2)
	if err != nil {
		return zero, err
	}
	m, err := bl.newMap(n)
	if err != nil {
		return zero, err
	}
	var prev []byte
	// seen holds each key's Python-equality class (see normKey); it is only
	// looked up, never iterated.
	seen := make(map[string]struct{}, n)
	for i := 0; i < n; i++ {
		kat := d.off
		k, err := decodeItem(d, bl, depth+1, true)
		if err != nil {
			return zero, err
		}
		raw := d.b[kat:d.off]
		if i > 0 && bytes.Compare(prev, raw) >= 0 {
			if bytes.Equal(prev, raw) {
				return zero, d.fail(kat, "duplicate map key")
			}
			return zero, d.fail(kat, "map keys not in canonical (bytewise) order")
		}
		prev = raw
		nk, err := normKey(raw)
		if err != nil {
			return zero, err
		}
		if _, dup := seen[string(nk)]; dup {
			return zero, d.fail(kat, "duplicate map key (equal to an earlier key as a Python value)")
		}
		seen[string(nk)] = struct{}{}
		v, err := decodeItem(d, bl, depth+1, false)
		if err != nil {
			return zero, err
		}
		if m, err = bl.put(m, k, v); err != nil {
			return zero, err
		}
	}
	return m, nil
}

func decodeBignum[T any](d *decoder, bl builder[T], at int, tag uint64) (T, error) {
	var zero T
	if tag != tagPosBig && tag != tagNegBig {
		return zero, d.fail(at, "unsupported tag %d (only bignum tags 2 and 3)", tag)
	}
	cat := d.off
	major, _, arg, err := d.head()
	if err != nil {
		return zero, err
	}
	if major != majorBytes {
		return zero, d.fail(cat, "bignum tag %d must hold a byte string", tag)
	}
	n, err := d.length(cat, arg, 1)
	if err != nil {
		return zero, err
	}
	mag := d.b[d.off : d.off+n]
	d.off += n
	switch {
	case n == 0 || mag[0] == 0:
		return zero, d.fail(at, "non-canonical bignum: leading zero byte")
	case n <= 8:
		return zero, d.fail(at, "non-canonical bignum: fits in major type %d", tag-2)
	case n > MaxIntBits/8+1:
		return zero, d.fail(at, "integer exceeds the %d-bit limit", MaxIntBits)
	}
	v := new(big.Int).SetBytes(mag)
	if tag == tagNegBig {
		v.Neg(v).Sub(v, big.NewInt(1))
	}
	if v.BitLen() > MaxIntBits {
		return zero, d.fail(at, "integer exceeds the %d-bit limit", MaxIntBits)
	}
	return bl.bigint(v)
}
