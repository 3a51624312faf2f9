package object

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Str is a Python str: Unicode text held as UTF-8, indexed by code point.
type Str string

// NewStr charges the memory of a string of n bytes built at run time.
func NewStr(c Ctx, s string) (Str, error) {
	if err := Alloc(c, meter.SizeStrHeader+uint64(len(s))); err != nil {
		return "", err
	}
	return Str(s), nil
}

// Type implements Value.
func (Str) Type() *Class { return StrClass }

// Repr implements Value.
func (s Str) Repr(Ctx) (string, error) { return strRepr(string(s)), nil }

// Truth implements Value.
func (s Str) Truth(Ctx) (bool, error) { return len(s) > 0, nil }

// Hash implements Value: FNV-1a over the UTF-8 bytes, a fixed function so
// hash() of a str is the same on every run and node (the spec fixes the
// hash seed).
func (s Str) Hash(Ctx) (int64, error) { return strHash(string(s)), nil }

func strHash(s string) int64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	r := int64(h >> 1)
	if r == -1 {
		r = -2
	}
	return r
}

// Len is the number of code points.
func (s Str) Len() int { return utf8.RuneCountInString(string(s)) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// strRepr quotes s as Python's repr does.
func strRepr(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x`)
			b.WriteString(hex2(int(r)))
		case r >= 0x80 && !isPrintable(r):
			switch {
			case r <= 0xff:
				b.WriteString(`\x` + hex2(int(r)))
			case r <= 0xffff:
				b.WriteString(`\u` + padHex(int64(r), 4))
			default:
				b.WriteString(`\U` + padHex(int64(r), 8))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

func isPrintable(r rune) bool {
	if r == utf8.RuneError {
		return false
	}
	if r >= 0x80 && r <= 0xa0 || r == 0xad {
		return false
	}
	return strconv.IsPrint(r)
}

func hex2(i int) string { return padHex(int64(i), 2) }

func padHex(i int64, n int) string {
	s := strconv.FormatInt(i, 16)
	for len(s) < n {
		s = "0" + s
	}
	return s
}

// runes returns s as code points (for indexing non-ASCII text).
func (s Str) runes() []rune { return []rune(string(s)) }

// Index returns the code point at i (0 <= i < Len).
func (s Str) index(i int) Str {
	if isASCII(string(s)) {
		return s[i : i+1]
	}
	return Str(string(s.runes()[i]))
}

// Bytes is a Python bytes value (immutable).
type Bytes string

// Type implements Value.
func (Bytes) Type() *Class { return BytesClass }

// Repr implements Value.
func (b Bytes) Repr(Ctx) (string, error) { return bytesRepr("b", string(b)), nil }

// Truth implements Value.
func (b Bytes) Truth(Ctx) (bool, error) { return len(b) > 0, nil }

// Hash implements Value.
func (b Bytes) Hash(Ctx) (int64, error) { return strHash(string(b)), nil }

// Len is the number of bytes.
func (b Bytes) Len() int { return len(b) }

func bytesRepr(prefix, s string) string { return bytesReprQ(prefix, s, false) }

// bytesReprQ is bytesRepr; bytearray's repr (escapeSingle) escapes every
// single quote even inside double quotes, as CPython's bytearray_repr does.
func bytesReprQ(prefix, s string, escapeSingle bool) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteString(prefix)
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote || c == '\\' || escapeSingle && c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x` + hex2(int(c)))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// ByteArray is a Python bytearray (mutable bytes).
type ByteArray struct{ B []byte }

// Type implements Value.
func (*ByteArray) Type() *Class { return ByteArrayClass }

// Repr implements Value.
func (b *ByteArray) Repr(Ctx) (string, error) {
	return "bytearray(" + bytesReprQ("b", string(b.B), true) + ")", nil
}

// Truth implements Value.
func (b *ByteArray) Truth(Ctx) (bool, error) { return len(b.B) > 0, nil }

// Hash implements Value.
func (*ByteArray) Hash(Ctx) (int64, error) {
	return 0, Errorf(TypeError, "unhashable type: 'bytearray'")
}

// Len is the number of bytes.
func (b *ByteArray) Len() int { return len(b.B) }
