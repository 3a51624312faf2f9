package cbor

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"sort"
)

// Major types (RFC 8949 §3.1), already shifted into the top three bits.
const (
	majorUint   byte = 0 << 5
	majorNeg    byte = 1 << 5
	majorBytes  byte = 2 << 5
	majorText   byte = 3 << 5
	majorArray  byte = 4 << 5
	majorMap    byte = 5 << 5
	majorTag    byte = 6 << 5
	majorSimple byte = 7 << 5
)

// Fixed one-byte items and tag numbers the format uses.
const (
	itemFalse   byte = 0xf4
	itemTrue    byte = 0xf5
	itemNull    byte = 0xf6
	itemFloat64 byte = 0xfb
	tagPosBig        = 2 // RFC 8949 §3.4.3 unsigned bignum
	tagNegBig        = 3 // RFC 8949 §3.4.3 negative bignum, value -1-n
)

// canonicalNaN is the one NaN the format carries (quiet, no payload, sign
// clear): Python code can build NaNs with other bits, and two nodes must not
// disagree about which bits to write.
const canonicalNaN uint64 = 0x7ff8000000000000

// appendHead appends the head of an item of major type major with argument n
// in the shortest form (RFC 8949 §4.2.1, first rule).
func appendHead(out []byte, major byte, n uint64) []byte {
	switch {
	case n < 24:
		return append(out, major|byte(n))
	case n <= math.MaxUint8:
		return append(out, major|24, byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(out, major|25), uint16(n))
	case n <= math.MaxUint32:
		return binary.BigEndian.AppendUint32(append(out, major|26), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(out, major|27), n)
}

// appendInt64 appends a 64-bit signed integer as major 0 or 1.
func appendInt64(out []byte, i int64) []byte {
	if i >= 0 {
		return appendHead(out, majorUint, uint64(i))
	}
	return appendHead(out, majorNeg, uint64(-1-i))
}

// appendBig appends any integer: major 0/1 when it lies in [-2^64, 2^64),
// otherwise a tag 2/3 bignum with a minimal big-endian magnitude.
func appendBig(out []byte, v *big.Int) []byte {
	if v.IsInt64() {
		return appendInt64(out, v.Int64())
	}
	if v.Sign() > 0 {
		if v.IsUint64() {
			return appendHead(out, majorUint, v.Uint64())
		}
		mag := v.Bytes() // big-endian, no leading zeros
		out = appendHead(out, majorTag, tagPosBig)
		return append(appendHead(out, majorBytes, uint64(len(mag))), mag...)
	}
	// Negative: the item carries n = -1 - v.
	n := new(big.Int).Neg(v)
	n.Sub(n, big.NewInt(1))
	if n.IsUint64() {
		return appendHead(out, majorNeg, n.Uint64())
	}
	mag := n.Bytes()
	out = appendHead(out, majorTag, tagNegBig)
	return append(appendHead(out, majorBytes, uint64(len(mag))), mag...)
}

// appendFloat appends f as 0xfb + binary64, NaN canonicalised.
func appendFloat(out []byte, f float64) []byte {
	bits := math.Float64bits(f)
	if math.IsNaN(f) {
		bits = canonicalNaN
	}
	return binary.BigEndian.AppendUint64(append(out, itemFloat64), bits)
}

// appendString appends a text (majorText) or byte (majorBytes) string.
func appendString(out []byte, major byte, s string) []byte {
	return append(appendHead(out, major, uint64(len(s))), s...)
}

// entrySpan locates one encoded map entry inside the output buffer: the key
// is out[key:val], the value out[val:end].
type entrySpan struct{ key, val, end int }

// errDuplicateKey reports two map keys with the same encoding.
var errDuplicateKey = errors.New("duplicate map key")

// sortEntries reorders the entries of one map, encoded one after another in
// out[spans[0].key:spans[len-1].end] in the source's order, into the
// bytewise order of their key encodings (RFC 8949 §4.2.1). The region keeps
// its length, so a meter charged per byte appended is not affected.
func sortEntries(out []byte, spans []entrySpan) error {
	if len(spans) < 2 {
		return nil
	}
	key := func(s entrySpan) []byte { return out[s.key:s.val] }
	sort.SliceStable(spans, func(i, j int) bool { return bytes.Compare(key(spans[i]), key(spans[j])) < 0 })
	start, end := len(out), 0
	for i, s := range spans {
		if i > 0 && bytes.Equal(key(spans[i-1]), key(s)) {
			return errDuplicateKey
		}
		start, end = min(start, s.key), max(end, s.end)
	}
	region := make([]byte, 0, end-start)
	for _, s := range spans {
		region = append(region, out[s.key:s.end]...)
	}
	copy(out[start:end], region)
	return nil
}
