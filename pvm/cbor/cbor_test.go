package cbor_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/cbor"
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// testCtx is an object.Ctx without an interpreter: the codec never runs
// Python code, so decoding needs nothing more (and the fuzzer stays fast).
type testCtx struct {
	m    *meter.Meter
	nest int
	id   int64
}

func newCtx() *testCtx {
	return &testCtx{m: meter.New(meter.Limits{Cycles: 1 << 50, MemoryLimit: 1 << 30})}
}

func (c *testCtx) Meter() *meter.Meter { return c.m }
func (c *testCtx) Call(object.Value, []object.Value, []object.Kw) (object.Value, error) {
	return nil, object.Errorf(object.TypeError, "no calls in cbor tests")
}
func (c *testCtx) Nest() error {
	if c.nest >= object.MaxNativeNesting {
		return object.Errorf(object.RecursionError, "maximum recursion depth exceeded")
	}
	c.nest++
	return nil
}
func (c *testCtx) Unnest()       { c.nest-- }
func (c *testCtx) NextID() int64 { c.id++; return c.id }

// evalPy runs src on the PVM and returns its global v; a src without "v ="
// is taken as the expression for v.
func evalPy(t testing.TB, src string) object.Value {
	t.Helper()
	if !strings.Contains(src, "v =") {
		src = "v = " + src
	}
	code, err := compile.File("vec.py", []byte(src+"\n"))
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	th := vm.NewThread(vm.Options{Meter: meter.New(meter.Limits{Cycles: 1 << 40, MemoryLimit: 1 << 30})})
	mod, err := th.RunModule(code, "__main__")
	if err != nil {
		t.Fatalf("run %q: %v", src, th.Uncaught(err))
	}
	v, ok := mod.Globals.Get("v")
	if !ok {
		t.Fatalf("%q does not set v", src)
	}
	return v
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func repr(t testing.TB, v object.Value) string {
	t.Helper()
	s, err := object.Repr(newCtx(), v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func excClass(err error) *object.Class {
	var e *object.Exception
	if errors.As(err, &e) {
		return e.Value.Class
	}
	return nil
}

type vector struct {
	Name, Py, Hex, Note string
}

func loadVectors(t testing.TB) []vector {
	t.Helper()
	data, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestVectors: the PVM's value of each golden expression encodes to the
// golden bytes (checked against cbor2 by TestCBOR2), and the bytes decode
// (both ways) to values that re-encode to the same bytes.
func TestVectors(t *testing.T) {
	for _, vec := range loadVectors(t) {
		t.Run(vec.Name, func(t *testing.T) {
			c := newCtx()
			got, err := cbor.Encode(c, evalPy(t, vec.Py))
			if err != nil {
				t.Fatalf("Encode(%s): %v", vec.Py, err)
			}
			if hex.EncodeToString(got) != vec.Hex {
				t.Fatalf("Encode(%s)\n got %x\nwant %s", vec.Py, got, vec.Hex)
			}
			back, err := cbor.Decode(c, got)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			again, err := cbor.Encode(c, back)
			if err != nil || !bytes.Equal(again, got) {
				t.Fatalf("Decode+Encode = %x, %v; want %x", again, err, got)
			}
			gv, err := cbor.DecodeGo(got)
			if err != nil {
				t.Fatalf("DecodeGo: %v", err)
			}
			gb, err := cbor.EncodeGo(gv)
			if err != nil || !bytes.Equal(gb, got) {
				t.Fatalf("DecodeGo+EncodeGo = %x, %v; want %x", gb, err, got)
			}
		})
	}
}

// TestExactHex pins encodings written by hand, most from RFC 8949
// Appendix A (with floats in their 64-bit form).
func TestExactHex(t *testing.T) {
	cases := []struct{ py, hex string }{
		{"0", "00"}, {"1", "01"}, {"10", "0a"}, {"23", "17"}, {"24", "1818"}, {"25", "1819"},
		{"100", "1864"}, {"1000", "1903e8"}, {"1000000", "1a000f4240"},
		{"1000000000000", "1b000000e8d4a51000"}, {"2**64-1", "1bffffffffffffffff"},
		{"2**64", "c249010000000000000000"}, {"-2**64", "3bffffffffffffffff"},
		{"-2**64-1", "c349010000000000000000"}, {"-1", "20"}, {"-10", "29"}, {"-100", "3863"},
		{"-1000", "3903e7"}, {"2**63", "1b8000000000000000"}, {"-2**63", "3b7fffffffffffffff"},
		{"0.0", "fb0000000000000000"}, {"-0.0", "fb8000000000000000"}, {"1.0", "fb3ff0000000000000"},
		{"1.1", "fb3ff199999999999a"}, {"1.5", "fb3ff8000000000000"}, {"float('inf')", "fb7ff0000000000000"},
		{"float('nan')", "fb7ff8000000000000"}, {"-float('nan')", "fb7ff8000000000000"},
		{"float('-inf')", "fbfff0000000000000"}, {"False", "f4"}, {"True", "f5"}, {"None", "f6"},
		{"''", "60"}, {"'a'", "6161"}, {"'IETF'", "6449455446"}, {`'"\\'`, "62225c"},
		{`'\u00fc'`, "62c3bc"}, {`'\u6c34'`, "63e6b0b4"}, {`'\U00010151'`, "64f0908591"},
		{"b''", "40"}, {`b'\x01\x02\x03\x04'`, "4401020304"}, {"bytearray(b'ab')", "426162"},
		{"[]", "80"}, {"()", "80"}, {"[1, 2, 3]", "83010203"}, {"(1, [2, 3], (4, 5))", "8301820203820405"},
		{"list(range(1, 26))", "98190102030405060708090a0b0c0d0e0f101112131415161718181819"},
		{"{}", "a0"}, {"{1: 2, 3: 4}", "a201020304"}, {"{'a': 1, 'b': [2, 3]}", "a26161016162820203"},
		{"['a', {'b': 'c'}]", "826161a161626163"},
		{"{'e': 'E', 'd': 'D', 'c': 'C', 'b': 'B', 'a': 'A'}", "a56161614161626142616361436164614461656145"},
		{"{-1: 'y', 24: 'x'}", "a218186178206179"}, // bytewise, not length-first
		{"{'aa': 1, 'b': 2}", "a261620262616101"},
		{"{(1, 2): None, (1,): None}", "a2 8101 f6 820102 f6"},
		{"{True: 1, None: 2, False: 3}", "a3f403f501f602"},
	}
	for _, tc := range cases {
		got, err := cbor.Encode(newCtx(), evalPy(t, tc.py))
		want := strings.ReplaceAll(tc.hex, " ", "")
		if err != nil || hex.EncodeToString(got) != want {
			t.Errorf("Encode(%s) = %x, %v; want %s", tc.py, got, err, want)
		}
	}
}

// TestRoundTrip: what Decode gives back, as Python would print it.
func TestRoundTrip(t *testing.T) {
	cases := []struct{ py, repr string }{
		{"None", "None"}, {"True", "True"}, {"0", "0"}, {"-1", "-1"},
		{"2**63", "9223372036854775808"}, {"2**64-1", "18446744073709551615"},
		{"-2**64", "-18446744073709551616"}, {"2**64", "18446744073709551616"},
		{"-2**63-1", "-9223372036854775809"}, {"10**300", "1" + strings.Repeat("0", 300)},
		{"-0.0", "-0.0"}, {"float('inf')", "inf"}, {"float('-inf')", "-inf"}, {"float('nan')", "nan"},
		{"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"},
		{"''", "''"}, {`'h\u00e9llo \u6c34 \U0001F600'`, `'h\u00e9llo \u6c34 \U0001F600'`},
		{"b''", "b''"}, {"bytearray(b'x')", "b'x'"}, {"[]", "[]"}, {"()", "[]"}, {"{}", "{}"},
		{"(1, (2, [3]))", "[1, [2, [3]]]"},
		{"{(1, (2, 'a')): [()]}", "{(1, (2, 'a')): [[]]}"},
		{"{'b': 1, 'a': 2, 1: 3}", "{1: 3, 'a': 2, 'b': 1}"},
		{"{b'k': {0.5: None}}", "{b'k': {0.5: None}}"},
		{"[[[[[]]]]]", "[[[[[]]]]]"},
	}
	for _, tc := range cases {
		c := newCtx()
		b, err := cbor.Encode(c, evalPy(t, tc.py))
		if err != nil {
			t.Errorf("Encode(%s): %v", tc.py, err)
			continue
		}
		v, err := cbor.Decode(c, b)
		if err != nil {
			t.Errorf("Decode(Encode(%s)): %v", tc.py, err)
			continue
		}
		if got := repr(t, v); got != tc.repr {
			// The PVM may print non-ASCII directly; compare what it prints
			// for the expected value too.
			if want := repr(t, evalPy(t, tc.repr)); got != want {
				t.Errorf("round trip of %s = %s, want %s", tc.py, got, tc.repr)
			}
		}
	}
}

// TestSameBytes: values a program cannot tell apart for storage purposes
// (dicts with other insertion orders, list vs tuple, bytes vs bytearray,
// NaNs with other bits) encode to the same bytes.
func TestSameBytes(t *testing.T) {
	groups := [][]string{
		{"{'a': 1, 'b': 2, 3: 4}", "{'b': 2, 3: 4, 'a': 1}", "dict([(3, 4), ('b', 2), ('a', 1)])"},
		{"v = {'z': 1, 'a': 2}\ndel v['z']\nv['z'] = 1", "{'a': 2, 'z': 1}"},
		{"{(1, 2): {'x': [], 'y': ()}, 3: None}", "{3: None, (1, 2): {'y': [], 'x': ()}}"},
		{"[1, (2, 3)]", "(1, [2, 3])"},
		{"b'ab'", "bytearray(b'ab')", "bytes([97, 98])"},
		{"float('nan')", "-float('nan')", "float('inf') - float('inf')"},
		{"2**64 // 2**64 * 5", "5"},
		{"{1: 'a', True: 'b'}", "{1: 'b'}"}, // one dict key; the first inserted key is kept
	}
	for _, g := range groups {
		var first []byte
		for i, py := range g {
			b, err := cbor.Encode(newCtx(), evalPy(t, py))
			if err != nil {
				t.Fatalf("Encode(%s): %v", py, err)
			}
			if i == 0 {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%q encodes to %x, but %q to %x", py, b, g[0], first)
			}
		}
	}
}

// rejects is the table of byte strings no canonical encoder produces; each
// must fail with a ValueError naming the problem, never panic.
var rejects = []struct{ hex, msg string }{
	{"", "unexpected end of input"},
	{"1817", "non-canonical head"},
	{"190017", "non-canonical head"},
	{"1900ff", "non-canonical head"},
	{"1a0000ffff", "non-canonical head"},
	{"1b00000000ffffffff", "non-canonical head"},
	{"3817", "non-canonical head"},
	{"580161", "non-canonical head"},
	{"78016161", "non-canonical head"},
	{"980100", "non-canonical head"},
	{"b8010000", "non-canonical head"},
	{"1c", "reserved additional information"},
	{"1d", "reserved additional information"},
	{"1e", "reserved additional information"},
	{"1f", "indefinite-length"},
	{"5f4101ff", "indefinite-length"},
	{"7f6161ff", "indefinite-length"},
	{"9f01ff", "indefinite-length"},
	{"bf6161 01ff", "indefinite-length"},
	{"ff", "break"},
	{"0000", "trailing bytes"},
	{"80 80", "trailing bytes"},
	{"f93c00", "16-bit float"},
	{"fa3f800000", "32-bit float"},
	{"fb7ff8000000000001", "non-canonical NaN"},
	{"fbfff8000000000000", "non-canonical NaN"},
	{"fb7ff0000000000001", "non-canonical NaN"},
	{"f7", "undefined"},
	{"f0", "unsupported simple value"},
	{"f800", "unsupported simple value"},
	{"f820", "unsupported simple value"},
	{"c074323031332d30332d32315432303a30343a30305a", "unsupported tag 0"},
	{"c11a514b67b0", "unsupported tag 1"},
	{"d81840", "unsupported tag 24"},
	{"d9d9f7f6", "unsupported tag 55799"},
	{"c240", "leading zero"},
	{"c24900010000000000000000", "leading zero"},
	{"c24101", "fits in major type 0"},
	{"c248ffffffffffffffff", "fits in major type 0"},
	{"c34101", "fits in major type 1"},
	{"c201", "must hold a byte string"},
	{"c26101", "must hold a byte string"},
	{"c2", "unexpected end of input"},
	{"c2 5a ffffffff", "exceeds"},
	{"62c328", "not valid UTF-8"},
	{"63eda080", "not valid UTF-8"},
	{"61ff", "not valid UTF-8"},
	{"01 02 03", "2 trailing bytes after the item"},
	{"a2616101616102", "duplicate map key"},
	{"a2616201616101", "not in canonical (bytewise) order"},
	{"a2206179 18186178", "not in canonical (bytewise) order"}, // length-first order
	{"a2 01 01 f5 02", "duplicate map key (equal to an earlier key as a Python value)"},
	{"a2 00 00 fb0000000000000000 00", "equal to an earlier key"},
	{"a2 fb0000000000000000 00 fb8000000000000000 00", "equal to an earlier key"},
	{"a2 01 00 fb3ff0000000000000 00", "equal to an earlier key"},
	{"a2 8101 00 81f5 00", "equal to an earlier key"},
	{"a2 c249010000000000000000 00 fb43f0000000000000 00", "equal to an earlier key"}, // 2**64 and 2.0**64
	{"a1a000 00", "map used as a map key"},
	{"a1 81a0 00 00", "map used as a map key"},
	{"a2 fb7ff8000000000000 00 fb7ff8000000000000 01", "duplicate map key"},
	{"81", "exceeds what the"},
	{"82 80", "exceeds what the"},
	{"a1 6161", "unexpected end of input"},
	{"83 01 02 18", "unexpected end of input"},
	{"1b 0000", "unexpected end of input"},
	{"8201", "exceeds what the"},
	{"a101", "exceeds what the"},
	{"5a ffffffff", "exceeds"},
	{"7b ffffffffffffffff", "exceeds"},
	{"9b ffffffffffffffff", "exceeds"},
	{"bb 7fffffffffffffff", "exceeds"},
	{"9a 00010000 00", "exceeds"},
	{strings.Repeat("81", cbor.MaxDepth+1) + "00", "nesting exceeds 64 levels"},
	{strings.Repeat("a1 00", cbor.MaxDepth) + "a0", "nesting exceeds 64 levels"},
	{"c2 590201 01" + strings.Repeat("00", 512), "exceeds the 4096-bit limit"},
	{"c3 590200" + strings.Repeat("ff", 512), "exceeds the 4096-bit limit"}, // -2**4096
}

func TestReject(t *testing.T) {
	for _, tc := range rejects {
		b := unhex(t, tc.hex)
		v, err := cbor.Decode(newCtx(), b)
		if err == nil {
			t.Errorf("Decode(%s) = %s, want error %q", tc.hex, repr(t, v), tc.msg)
			continue
		}
		if excClass(err) != object.ValueError || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Decode(%s): %v, want ValueError containing %q", tc.hex, err, tc.msg)
		}
		if gv, err := cbor.DecodeGo(b); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("DecodeGo(%s) = %v, %v; want error %q", tc.hex, gv, err, tc.msg)
		}
	}
}

// TestAcceptEdges: limits that are just inside the format.
func TestAcceptEdges(t *testing.T) {
	for _, h := range []string{
		strings.Repeat("81", cbor.MaxDepth) + "00",
		strings.Repeat("a1 00", cbor.MaxDepth-1) + "a0",
		"a1 81 81 01 00", // nested arrays as a key decode as tuples
		"c2 590200 ff" + strings.Repeat("00", 511), // 2**4096 - 2**4088... 4096 bits
		"c3 590200 ff" + strings.Repeat("fe", 511), // 4096-bit negative
		"a2 01 00 fb3ff8000000000000 00",           // 1 and 1.5 are distinct keys
		"a2 fb7ff0000000000000 00 fb7ff8000000000000 00",
	} {
		b := unhex(t, h)
		v, err := cbor.Decode(newCtx(), b)
		if err != nil {
			t.Errorf("Decode(%s): %v", h, err)
			continue
		}
		again, err := cbor.Encode(newCtx(), v)
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("Decode+Encode(%s) = %x, %v", h, again, err)
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	deep := strings.Repeat("[", cbor.MaxDepth+1) + strings.Repeat("]", cbor.MaxDepth+1)
	cases := []struct {
		py  string
		cls *object.Class
		msg string
	}{
		{"{1, 2}", object.TypeError, "cannot encode 'set' to CBOR"},
		{"frozenset()", object.TypeError, "cannot encode 'frozenset' to CBOR"},
		{"lambda: 1", object.TypeError, "cannot encode 'function' to CBOR"},
		{"class C:\n    pass\nv = C()", object.TypeError, "cannot encode 'C' to CBOR"},
		{"range(3)", object.TypeError, "cannot encode 'range' to CBOR"},
		{"[1, {'a': {2}}]", object.TypeError, "cannot encode 'set' to CBOR"},
		{"{frozenset(): 1}", object.TypeError, "cannot encode 'frozenset' to CBOR"},
		{"len", object.TypeError, "cannot encode 'builtin_function_or_method' to CBOR"},
		{deep, object.ValueError, "nesting exceeds 64 levels"},
		{"v = []\nv.append(v)", object.ValueError, "nesting exceeds 64 levels"},
		{"v = {}\nv['self'] = v", object.ValueError, "nesting exceeds 64 levels"},
		{"{float('nan'): 1, float('nan'): 2}", object.ValueError, "same encoding"},
	}
	for _, tc := range cases {
		_, err := cbor.Encode(newCtx(), evalPy(t, tc.py))
		if excClass(err) != tc.cls || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Encode(%s): %v, want %s containing %q", tc.py, err, tc.cls.Name, tc.msg)
		}
	}
	if _, err := cbor.Encode(newCtx(), nil); excClass(err) != object.TypeError {
		t.Errorf("Encode(nil): %v", err)
	}
	if _, err := cbor.Encode(newCtx(), object.Str("\xff")); excClass(err) != object.ValueError {
		t.Errorf("Encode(invalid UTF-8 str): %v", err)
	}
}

// TestCharges: CIP-3 §2.2 "Object Serialization" costs 20 + bytes cycles
// each way; Decode also accounts the memory of what it builds.
func TestCharges(t *testing.T) {
	for _, py := range []string{"None", "[1, 2, 3]", "'x' * 10000", "[b'y' * 5000] * 3", "{'a': [1.5, 2**70]}"} {
		c := newCtx()
		v := evalPy(t, py)
		before := c.m.CyclesUsed()
		b, err := cbor.Encode(c, v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.m.CyclesUsed()-before, 20+uint64(len(b)); got != want {
			t.Errorf("Encode(%s) charged %d cycles, want %d", py, got, want)
		}
		before, mem := c.m.CyclesUsed(), c.m.MemoryUsed()
		if _, err := cbor.Decode(c, b); err != nil {
			t.Fatal(err)
		}
		if got, want := c.m.CyclesUsed()-before, 20+uint64(len(b)); got < want {
			t.Errorf("Decode(%s) charged %d cycles, want at least %d", py, got, want)
		}
		if py != "None" && c.m.MemoryUsed() == mem {
			t.Errorf("Decode(%s) charged no memory", py)
		}
	}

	// Output far larger than the value: cycles run out early, the encoder
	// does not first build the whole output.
	v := evalPy(t, "[b'z' * 100000] * 1000")
	c := &testCtx{m: meter.New(meter.Limits{Cycles: 50000})}
	if _, err := cbor.Encode(c, v); !meter.IsHalt(err) {
		t.Errorf("Encode with a small cycles limit: %v, want a halt", err)
	}

	// Memory: a 1 MB string with a 64 KiB memory limit.
	b, _ := cbor.EncodeGo(strings.Repeat("m", 1<<20))
	c = &testCtx{m: meter.New(meter.Limits{Cycles: 1 << 40, MemoryLimit: 64 << 10})}
	if _, err := cbor.Decode(c, b); excClass(err) != object.MemoryError {
		t.Errorf("Decode over the memory limit: %v, want MemoryError", err)
	}
	c = &testCtx{m: meter.New(meter.Limits{Cycles: 100})}
	if _, err := cbor.Decode(c, b); !meter.IsHalt(err) {
		t.Errorf("Decode with too few cycles: %v, want a halt", err)
	}
}

func TestGoValues(t *testing.T) {
	big2_64, _ := new(big.Int).SetString("18446744073709551616", 10)
	cases := []struct {
		v   any
		hex string
	}{
		{nil, "f6"}, {true, "f5"}, {false, "f4"}, {int(-1), "20"}, {int8(-128), "387f"},
		{uint8(255), "18ff"}, {uint64(math.MaxUint64), "1bffffffffffffffff"},
		{int64(math.MinInt64), "3b7fffffffffffffff"}, {big2_64, "c249010000000000000000"},
		{big.NewInt(5), "05"}, {1.5, "fb3ff8000000000000"}, {float32(0.5), "fb3fe0000000000000"},
		{math.Float64frombits(0xfff8000000000123), "fb7ff8000000000000"},
		{"a", "6161"}, {[]byte{1}, "4101"}, {[]byte(nil), "40"}, {[]any{}, "80"},
		{[]any{int64(1), "x"}, "82016178"},
		{Map{{"b", int64(1)}, {"a", int64(2)}}, "a2616102616201"},
		{map[string]any{"b": int64(1), "a": int64(2), "aa": nil}, "a3616102616201626161f6"},
		{Map{{[]any{int64(1)}, nil}}, "a18101f6"},
	}
	for _, tc := range cases {
		b, err := cbor.EncodeGo(tc.v)
		if err != nil || hex.EncodeToString(b) != tc.hex {
			t.Errorf("EncodeGo(%#v) = %x, %v; want %s", tc.v, b, err, tc.hex)
		}
	}

	v, err := cbor.DecodeGo(unhex(t, "a4 01 1bffffffffffffffff 6161 c349010000000000000000 8101 4100 fb3ff8000000000000 f6"))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(cbor.Map)
	if m[0].Key != int64(1) || m[0].Value.(*big.Int).String() != "18446744073709551615" ||
		m[1].Key != "a" || m[1].Value.(*big.Int).String() != "-18446744073709551617" ||
		m[2].Key.([]any)[0] != int64(1) || !bytes.Equal(m[2].Value.([]byte), []byte{0}) ||
		m[3].Key != 1.5 || m[3].Value != nil {
		t.Errorf("DecodeGo = %#v", m)
	}

	errs := []struct {
		v   any
		msg string
	}{
		{struct{}{}, "cannot encode Go type struct {}"},
		{(*big.Int)(nil), "nil *big.Int"},
		{new(big.Int).Lsh(big.NewInt(1), 4096), "4096-bit limit"},
		{"\xff", "not valid UTF-8"},
		{Map{{int64(1), nil}, {true, nil}}, "duplicate map key"},
		{Map{{0.0, nil}, {math.Copysign(0, -1), nil}}, "duplicate map key"},
		{Map{{"a", nil}, {"a", nil}}, "duplicate map key"},
		{Map{{Map{}, nil}}, "map cannot be a map key"},
		{Map{{[]any{Map{}}, nil}}, "map cannot be a map key"},
		{nestGo(cbor.MaxDepth + 1), "nesting exceeds"},
	}
	for _, tc := range errs {
		if _, err := cbor.EncodeGo(tc.v); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("EncodeGo(%#v): %v, want error %q", tc.v, err, tc.msg)
		}
	}
	if _, err := cbor.EncodeGo(nestGo(cbor.MaxDepth)); err != nil {
		t.Errorf("EncodeGo at MaxDepth: %v", err)
	}
}

// Map is cbor.Map, short for the tables.
type Map = cbor.Map

func nestGo(n int) any {
	var v any = int64(0)
	for range n {
		v = []any{v}
	}
	return v
}

func TestFromJSON(t *testing.T) {
	cases := []struct{ json, hex string }{
		{`null`, "f6"}, {`true`, "f5"}, {`0`, "00"}, {`-0`, "00"}, {`-1`, "20"},
		{`18446744073709551615`, "1bffffffffffffffff"},
		{`18446744073709551616`, "c249010000000000000000"},
		{`-18446744073709551617`, "c349010000000000000000"},
		{`1.0`, "fb3ff0000000000000"}, {`1e3`, "fb408f400000000000"}, {`-0.0`, "fb8000000000000000"},
		{`"0xabcd"`, "663078616263 64"}, {`"<&>"`, "633c263e"},
		{` {"b": 1, "a": [1, 2.5, "0xff", null, true], "": {}} `,
			"a3 60a0 6161 85 01 fb4004000000000000 6430786666 f6 f5 6162 01"},
	}
	for _, tc := range cases {
		b, err := cbor.FromJSON([]byte(tc.json))
		want := strings.ReplaceAll(tc.hex, " ", "")
		if err != nil || hex.EncodeToString(b) != want {
			t.Errorf("FromJSON(%s) = %x, %v; want %s", tc.json, b, err, want)
		}
	}
	for _, bad := range []string{
		`{"a": 1, "a": 2}`, `1e400`, `[1] 2`, `[`, `{"a"}`, ``, `01`, `NaN`,
		"1" + strings.Repeat("0", 1300),
		strings.Repeat("[", cbor.MaxDepth+1) + strings.Repeat("]", cbor.MaxDepth+1),
	} {
		if b, err := cbor.FromJSON([]byte(bad)); err == nil {
			t.Errorf("FromJSON(%.40s) = %x, want an error", bad, b)
		}
	}
}

func TestToJSON(t *testing.T) {
	cases := []struct{ hex, json string }{
		{"f6", `null`}, {"f4", `false`}, {"3bffffffffffffffff", `-18446744073709551616`},
		{"c249010000000000000000", `18446744073709551616`},
		{"fb3ff0000000000000", `1.0`}, {"fb4341c37937e08000", `1e+16`}, {"fb3ee4f8b588e368f1", `1e-05`},
		{"fb8000000000000000", `-0.0`}, {"420102", `"0x0102"`}, {"40", `"0x"`},
		{"63e6b0b4", `"水"`}, {"633c263e", `"<&>"`}, {"62225c", `"\"\\"`},
		{"a3 01 6161 6161 f6 8201 02 40", `{"1":"a","a":null,"[1,2]":"0x"}`},
		{"a2 4101 02 f4 01", `{"0x01":2,"false":1}`},
	}
	for _, tc := range cases {
		j, err := cbor.ToJSON(unhex(t, tc.hex))
		if err != nil || string(j) != tc.json {
			t.Errorf("ToJSON(%s) = %s, %v; want %s", tc.hex, j, err, tc.json)
		}
	}
	for _, bad := range []string{"fb7ff8000000000000", "81fb7ff0000000000000", "a2 01 01 6131 02", "1817"} {
		if j, err := cbor.ToJSON(unhex(t, bad)); err == nil {
			t.Errorf("ToJSON(%s) = %s, want an error", bad, j)
		}
	}
	// JSON without "0x" strings survives FromJSON then ToJSON unchanged
	// apart from key order and spacing.
	for _, js := range []string{`{"a":[1,-2.5,"x",null,{}],"b":123456789012345678901234567890}`, `[1.0,1e+300,[]]`} {
		b, err := cbor.FromJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		back, err := cbor.ToJSON(b)
		if err != nil || string(back) != js {
			t.Errorf("ToJSON(FromJSON(%s)) = %s, %v", js, back, err)
		}
	}
}

// TestCBOR2 runs testdata/check_cbor2.py: Python's cbor2 must agree with
// testdata/vectors.json (with the documented float-width and key-order
// adjustments), and TestVectors ties the vectors to this package.
func TestCBOR2(t *testing.T) {
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	if err := exec.Command(py, "-c", "import cbor2").Run(); err != nil {
		t.Skip("python3 has no cbor2 (apt-get install python3-cbor2)")
	}
	out, err := exec.Command(py, "testdata/check_cbor2.py", "testdata/vectors.json").CombinedOutput()
	if err != nil {
		t.Fatalf("check_cbor2.py: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// The int64 range ends exactly at ±2^63: its ends decode as int64, one
// beyond as big integers (DecodeGo keeps the distinction).
func TestInt64Ends(t *testing.T) {
	tests := []struct {
		hex  string
		want any
	}{
		{"1b 7fffffffffffffff", int64(math.MaxInt64)},
		{"3b 7fffffffffffffff", int64(math.MinInt64)},
		{"1b 8000000000000000", new(big.Int).SetUint64(1 << 63)},
		{"3b 8000000000000000", new(big.Int).Sub(big.NewInt(math.MinInt64), big.NewInt(1))},
	}
	for _, tt := range tests {
		got, err := cbor.DecodeGo(unhex(t, tt.hex))
		if err != nil {
			t.Fatalf("%s: %v", tt.hex, err)
		}
		switch w := tt.want.(type) {
		case int64:
			if g, ok := got.(int64); !ok || g != w {
				t.Errorf("%s: got %T %v, want int64 %d", tt.hex, got, got, w)
			}
		case *big.Int:
			if g, ok := got.(*big.Int); !ok || g.Cmp(w) != 0 {
				t.Errorf("%s: got %T %v, want *big.Int %s", tt.hex, got, got, w)
			}
		}
	}
}
