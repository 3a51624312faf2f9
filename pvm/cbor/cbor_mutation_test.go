package cbor_test

// Tests written against the mutants gremlins found alive in this package
// (docs/testing.md, "Mutation testing"): each pins a rule no other test of
// the package held exactly.

import (
	"errors"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestMapKeyDepth: a map's key counts one level deeper than the map, like
// its value, so an array nested inside a key reaches MaxDepth as soon as
// one nested in a value would.
func TestMapKeyDepth(t *testing.T) {
	tests := []struct {
		hex string
		msg string // "" when the item must decode
	}{
		// map (level 1) holding a key of 63 nested arrays: 64 levels.
		{"a1" + strings.Repeat("81", cbor.MaxDepth-1) + "00" + "00", ""},
		// a key of 64 nested arrays: 65 levels.
		{"a1" + strings.Repeat("81", cbor.MaxDepth) + "00" + "00", "nesting exceeds 64 levels"},
		// the same depths in the value, for comparison.
		{"a1 00" + strings.Repeat("81", cbor.MaxDepth-1) + "00", ""},
		{"a1 00" + strings.Repeat("81", cbor.MaxDepth) + "00", "nesting exceeds 64 levels"},
	}
	for _, tt := range tests {
		b := unhex(t, tt.hex)
		_, err := cbor.Decode(newCtx(), b)
		_, gerr := cbor.DecodeGo(b)
		for _, e := range []error{err, gerr} {
			switch {
			case tt.msg == "" && e != nil:
				t.Errorf("decode(%s…): %v, want success", tt.hex[:12], e)
			case tt.msg != "" && (e == nil || !strings.Contains(e.Error(), tt.msg)):
				t.Errorf("decode(%s…): %v, want %q", tt.hex[:12], e, tt.msg)
			}
		}
	}
}

// TestMapKeyErrorsExact: the decoder's three refusals of map keys are told
// apart by their messages and offsets (a key equal byte for byte to the one
// before is a duplicate, not a Python-equality duplicate nor an order error).
func TestMapKeyErrorsExact(t *testing.T) {
	tests := []struct {
		hex    string
		offset int
		msg    string
	}{
		{"a2 6161 01 6161 02", 4, "duplicate map key"},
		{"a2 00 00 00 01", 3, "duplicate map key"},
		{"a2 6162 01 6161 02", 4, "map keys not in canonical (bytewise) order"},
		{"a2 01 01 f5 02", 3, "duplicate map key (equal to an earlier key as a Python value)"},
	}
	for _, tt := range tests {
		_, err := cbor.DecodeGo(unhex(t, tt.hex))
		var se *cbor.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("DecodeGo(%s): %v, want a SyntaxError", tt.hex, err)
			continue
		}
		if se.Offset != tt.offset || se.Msg != tt.msg {
			t.Errorf("DecodeGo(%s): at %d %q, want at %d %q", tt.hex, se.Offset, se.Msg, tt.offset, tt.msg)
		}
	}
}

// TestBigIntMemory: Decode charges a big integer as CPython stores it, a
// 24-byte header and 4 bytes per 30 bits (the same size pvm/object's heap
// walk counts), exactly.
func TestBigIntMemory(t *testing.T) {
	tests := []struct {
		hex  string
		bits int
	}{
		{"c2 49 01" + strings.Repeat("00", 8), 65},         // 2**64
		{"c2 4c 02" + strings.Repeat("00", 11), 90},        // 2**89: 3 digits exactly
		{"c2 4c 04" + strings.Repeat("00", 11), 91},        // 2**90: a 4th digit
		{"c3 4c 03" + strings.Repeat("ff", 11), 91},        // -2**90 (tag 3 of 2**90 - 1)
		{"c3 4c 03" + strings.Repeat("ff", 10) + "fe", 90}, // -(2**90 - 1)
		{"c2 590200 80" + strings.Repeat("00", 511), 4096}, // 2**4095
		{"c2 590200 ff" + strings.Repeat("ff", 511), 4096}, // 2**4096 - 1
		{"c2 4f 01" + strings.Repeat("00", 14), 8*14 + 1},  // 2**112
	}
	for _, tt := range tests {
		b := unhex(t, tt.hex)
		c := newCtx()
		before := c.m.MemoryUsed()
		if _, err := cbor.Decode(c, b); err != nil {
			t.Fatalf("Decode(%s): %v", tt.hex, err)
		}
		want := meter.SizeIntHeader + 4*uint64((tt.bits+29)/30)
		if got := c.m.MemoryUsed() - before; got != want {
			t.Errorf("Decode(%s…) (%d bits) charged %d bytes, want %d", tt.hex[:10], tt.bits, got, want)
		}
	}
}
