package cbor_test

// Tests written against the mutants gremlins found alive in this package
// (docs/testing.md, "Mutation testing"): each pins a rule no other test of
// the package held exactly.

import (
	"errors"
	"io"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
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

// TestEncodeChargesInChunks: the encoder charges its output as it goes, in
// chunks of the bytes written since the last charge, once at least 4,096
// are waiting at the start of an item, and the rest at the end. The charge
// that runs out of cycles names its size (meter.LimitError.Want), which
// shows where the chunks were cut.
func TestEncodeChargesInChunks(t *testing.T) {
	tests := []struct {
		name  string
		py    string
		left  uint64 // cycles after the 20 of the base cost
		want  uint64 // the failing charge
		total uint64 // output length, all charged when the limit allows
	}{
		// header 1 + head 3 + 4,092 bytes: exactly 4,096 wait before the
		// second item, which are charged then.
		{"exactly a chunk", "[b'a' * 4092, b'b' * 10]", 4095, 4096, 4096 + 11},
		// after the chunk, 11 bytes wait, fewer than 4,096: no charge at
		// the third item; the 11 and the third item's 5,003 go at the end.
		{"rest at the end", "[b'a' * 4092, b'b' * 10, b'c' * 5000]", 4096 + 11 + 100, 11 + 5003, 4096 + 11 + 5003},
		// 4,095 waiting: not yet a chunk; all 4,106 at the end.
		{"one short of a chunk", "[b'a' * 4091, b'b' * 10]", 4095, 4095 + 11, 4095 + 11},
	}
	for _, tt := range tests {
		v := evalPy(t, tt.py)
		c := &testCtx{m: meter.New(meter.Limits{Cycles: cbor.CostBase + tt.left})}
		_, err := cbor.Encode(c, v)
		var le *meter.LimitError
		if !errors.As(err, &le) || le.Want != tt.want {
			t.Errorf("%s: Encode with %d cycles left: %v, want a halt charging %d", tt.name, tt.left, err, tt.want)
		}
		c = newCtx()
		before := c.m.CyclesUsed()
		b, err := cbor.Encode(c, v)
		if err != nil || uint64(len(b)) != tt.total || c.m.CyclesUsed()-before != cbor.CostBase+tt.total {
			t.Errorf("%s: Encode = %d bytes, %v, charging %d; want %d bytes charging %d", tt.name, len(b), err,
				c.m.CyclesUsed()-before, tt.total, cbor.CostBase+tt.total)
		}
	}
}

// TestEncodeDepthEdges: dicts count toward MaxDepth like lists, and a
// dict's key one level deeper than the dict, like its value.
func TestEncodeDepthEdges(t *testing.T) {
	nest := func(levels int, wrap string) string {
		return "v = 0\nfor i in range(" + strconv.Itoa(levels) + "):\n    v = " + wrap + "\n"
	}
	tests := []struct {
		name string
		py   string
		ok   bool
	}{
		{"64 nested dicts", nest(cbor.MaxDepth, "{'a': v}"), true},
		{"65 nested dicts", nest(cbor.MaxDepth+1, "{'a': v}"), false},
		// a dict (level 1) keyed by 63 nested tuples: 64 levels.
		{"key of 63 tuples", nest(cbor.MaxDepth-1, "(v,)") + "v = {v: 1}", true},
		{"key of 64 tuples", nest(cbor.MaxDepth, "(v,)") + "v = {v: 1}", false},
		{"value of 63 tuples", nest(cbor.MaxDepth-1, "(v,)") + "v = {1: v}", true},
		{"value of 64 tuples", nest(cbor.MaxDepth, "(v,)") + "v = {1: v}", false},
	}
	for _, tt := range tests {
		_, err := cbor.Encode(newCtx(), evalPy(t, tt.py))
		if tt.ok && err != nil {
			t.Errorf("%s: %v, want success", tt.name, err)
		}
		if !tt.ok && (excClass(err) != object.ValueError || !strings.Contains(err.Error(), "nesting exceeds 64 levels")) {
			t.Errorf("%s: %v, want ValueError: nesting exceeds 64 levels", tt.name, err)
		}
	}
}

// TestEncodeGoDepthEdges: EncodeGo counts maps, a map's keys and its values
// toward MaxDepth as Encode does.
func TestEncodeGoDepthEdges(t *testing.T) {
	nestMaps := func(n int) any {
		var v any = int64(0)
		for i := 0; i < n; i++ {
			v = cbor.Map{{Key: "a", Value: v}}
		}
		return v
	}
	tests := []struct {
		name string
		v    any
		ok   bool
	}{
		{"64 nested maps", nestMaps(cbor.MaxDepth), true},
		{"65 nested maps", nestMaps(cbor.MaxDepth + 1), false},
		{"key of 63 arrays", cbor.Map{{Key: nestGo(cbor.MaxDepth - 1), Value: int64(1)}}, true},
		{"key of 64 arrays", cbor.Map{{Key: nestGo(cbor.MaxDepth), Value: int64(1)}}, false},
		{"value of 63 arrays", cbor.Map{{Key: int64(1), Value: nestGo(cbor.MaxDepth - 1)}}, true},
		{"value of 64 arrays", cbor.Map{{Key: int64(1), Value: nestGo(cbor.MaxDepth)}}, false},
	}
	for _, tt := range tests {
		b, err := cbor.EncodeGo(tt.v)
		if tt.ok && err != nil {
			t.Errorf("%s: %v, want success", tt.name, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "nesting exceeds 64 levels")) {
			t.Errorf("%s: %x, %v; want nesting exceeds 64 levels", tt.name, b, err)
		}
	}
}

// TestFromJSONLimits: FromJSON itself refuses JSON nested past MaxDepth
// (before building a value for the encoder), says an empty or cut-off input
// ended unexpectedly, and takes integers up to exactly MaxIntBits bits.
func TestFromJSONLimits(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	pow := func(e uint) string { return new(big.Int).Lsh(big.NewInt(1), e).String() }
	tests := []struct {
		name string
		json string
		err  string // the exact error; "" when it must convert
	}{
		{"64 arrays", deep("[", "]", cbor.MaxDepth), ""},
		{"65 arrays", deep("[", "]", cbor.MaxDepth+1), "cbor: from JSON: nesting exceeds 64 levels"},
		{"64 objects", deep(`{"a":`, "}", cbor.MaxDepth), ""},
		{"65 objects", deep(`{"a":`, "}", cbor.MaxDepth+1), "cbor: from JSON: nesting exceeds 64 levels"},
		{"empty", "", "cbor: from JSON: unexpected EOF"},
		{"cut off", "[1, ", "cbor: from JSON: unexpected EOF"},
		{"2**4095", pow(4095), ""},
		{"2**4096 - 1", new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 4096), big.NewInt(1)).String(), ""},
		{"-2**4096 + 1", "-" + new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 4096), big.NewInt(1)).String(), ""},
		{"2**4096", pow(4096), "cbor: from JSON: integer " + pow(4096)[:20] + "... exceeds the 4096-bit limit"},
	}
	for _, tt := range tests {
		b, err := cbor.FromJSON([]byte(tt.json))
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v, want success", tt.name, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%s: %x, %v; want %q", tt.name, b, err, tt.err)
		}
	}
	if _, err := cbor.FromJSON(nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("FromJSON(nil): %v, want io.ErrUnexpectedEOF", err)
	}
}
