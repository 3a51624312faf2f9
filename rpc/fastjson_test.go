package rpc

import (
	"encoding/json"
	"reflect"
	"testing"
)

// fastJSONSeeds are request objects of the shapes a client sends and of
// every way one can differ from what parseCallFast accepts.
var fastJSONSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"cowboy_sendRawTransaction","params":["0xf86b80"]}`,
	`{"method":"cowboy_sendRawTransaction","params":["0x01"],"id":"a-b c","jsonrpc":"2.0"}`,
	`{"jsonrpc":"2.0","id":null,"method":"m","params":[]}`,
	`{"jsonrpc":"2.0","method":"m","params":null}`,
	`{"jsonrpc":"2.0","id":-1.5e+3,"method":"m"}`,
	`{"jsonrpc":"2.0","id":7,"method":"m","params":["a","b"]}`,
	`{"jsonrpc":"2.0","id":7,"method":"m","params":[1]}`,
	`{"jsonrpc":"2.0","id":7,"method":"m","params":{"a":1}}`,
	`{"jsonrpc":"2.0","id":7,"method":"m","params":"x"}`,
	`{"jsonrpc":"2.0","id":7,"method":"","params":[]}`,
	`{"jsonrpc":"2.0","id":7,"method":1}`,
	`{"jsonrpc":"1.0","id":7,"method":"m"}`,
	`{"jsonrpc":"2.0","id":[1],"method":"m"}`,
	`{"jsonrpc":"2.0","id":true,"method":"m"}`,
	`{"jsonrpc":"2.0","id":{},"method":"m"}`,
	`{"jsonrpc":"2.0","id":"` + string(make([]byte, 0)) + `x<y&z>","method":"m"}`,
	`{"jsonrpc":"2.0","id":"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789","method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","method":"n"}`,
	`{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[],"params":["x"]}`,
	`{"JSONRPC":"2.0","ID":1,"Method":"m"}`,
	`{"jsonrpc":"2.0","id":1,"method":"m","extra":5}`,
	`{"jsonrpc":"2.0","id":1,"method":"m\u0041"}`,
	`{"jsonrpc":"2.0","id":"\u00e9","method":"m","params":["\u0030x"]}`,
	`{"jsonrpc":"2.0","id":"é","method":"mé"}`,
	` {"jsonrpc":"2.0","id":1,"method":"m"}`,
	`{ "jsonrpc": "2.0", "id": 1, "method": "m" }`,
	`{"jsonrpc":"2.0","id":1,"method":"m","params":[ "x" ]}`,
	`{}`,
	`{"id":1}`,
	`{"jsonrpc":"2.0"}`,
	`[]`,
	`["0x01"]`,
	`["a","b"]`,
	`[ "a"]`,
	`["a\"b"]`,
	`1`,
	`"x"`,
	`"0x"`,
	`"0xabc"`,
	`"0x0000000000000000000000000000000000000001"`,
	`"0x0000000000000000000000000000000000000000000000000000000000000001"`,
	`"zz"`,
	`[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"n","params":["x"]}]`,
	`[{"jsonrpc":"2.0","id":01,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1-2,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1.,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1e,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":-,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1-,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1.5e+,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":00,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":"a\b","method":"m"}]`,
	`[{"jsonrpc":"2.0","id":nul,"method":"m"}]`,
	`[{"jsonrpc":"2.0","id":1,"method":"m"},]`,
	`[{"jsonrpc":"2.0","id":1,"method":"m"}{"jsonrpc":"2.0","id":1,"method":"m"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"m"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"m",}`,
	`null`,
}

// TestFastJSONMatchesGeneral: for every request the shortcuts accept they
// give exactly what encoding/json gives, and the answer written without
// json.Marshal is byte for byte json.Marshal's.
func TestFastJSONMatchesGeneral(t *testing.T) {
	accepted := 0
	for _, s := range fastJSONSeeds {
		if checkFastJSON(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < 4 {
		t.Fatalf("the fast path took %d of the seeds; the first five are its shape", accepted)
	}
}

func FuzzFastJSON(f *testing.F) {
	for _, s := range fastJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkFastJSON(t, b) })
}

// checkFastJSON compares the shortcuts with the general path on raw and
// reports whether parseCallFast took it.
func checkFastJSON(t *testing.T, raw []byte) bool {
	t.Helper()
	if batch, ok := splitBatchFast(raw); ok {
		var want []json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil || !reflect.DeepEqual(batch, want) {
			t.Fatalf("%s: split into %q, encoding/json %q (%v)", raw, batch, want, err)
		}
	}
	for _, body := range [][]byte{append(append([]byte{'['}, raw...), ']'), []byte("[" + string(raw) + "," + string(raw) + "]")} {
		if batch, ok := splitBatchFast(body); ok {
			var want []json.RawMessage
			if err := json.Unmarshal(body, &want); err != nil || !reflect.DeepEqual(batch, want) {
				t.Fatalf("%s: split into %q, encoding/json %q (%v)", body, batch, want, err)
			}
		}
	}
	if !json.Valid(raw) {
		if _, ok := parseCallFast(raw); ok {
			t.Fatalf("%s: the fast path accepted invalid JSON", raw)
		}
		return false
	}
	checkParamShortcut(t, raw)
	if tok, ok := oneStringParam(raw); ok {
		var want []json.RawMessage
		if err := json.Unmarshal(raw, &want); err != nil || len(want) != 1 || string(want[0]) != string(tok) {
			t.Fatalf("%s: one string param %s, encoding/json %s (%v)", raw, tok, want, err)
		}
	}
	fast, ok := parseCallFast(raw)
	if !ok {
		return false
	}
	want, resp := parseCallJSON(raw)
	if resp != nil {
		t.Fatalf("%s: fast path accepted what the general one refuses: %+v", raw, resp.Error)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%s: fast path read %+v, general %+v", raw, fast, want)
	}
	if fast.params != nil {
		pf, ef := parseParams(fast.method, fast.params, 0, 3)
		var pj params
		var jerr error
		if string(fast.params) != "null" {
			jerr = json.Unmarshal(fast.params, &pj.raw)
		}
		if (ef != nil) != (jerr != nil) || (ef == nil && !reflect.DeepEqual(pf.raw, pj.raw)) {
			t.Fatalf("%s: params read %v (%v), encoding/json %v (%v)", raw, pf, ef, pj.raw, jerr)
		}
	}
	for _, result := range []string{`"0xab"`, `null`, `{"a":[1,2]}`, `"a b"`, `"\u003c"`} {
		r := &response{JSONRPC: "2.0", ID: fast.id, Result: json.RawMessage(result)}
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeResponse(r); string(got) != string(want) {
			t.Fatalf("id %s result %s: wrote %s, json.Marshal %s", fast.id, result, got, want)
		}
	}
	return true
}

// checkParamShortcut: params.decode hands a plain string token straight to
// the parameter's UnmarshalJSON; the value and the error must be what
// json.Unmarshal gives, for every hex parameter type.
func checkParamShortcut(t *testing.T, tok []byte) {
	t.Helper()
	if _, n := plainString(tok); n == 0 || n != len(tok) {
		return
	}
	p := &params{method: "m", raw: []json.RawMessage{tok}}
	for _, mk := range []func() any{func() any { return new(Bytes) }, func() any { return new(Hash) }, func() any { return new(Address) }} {
		got, want := mk(), mk()
		gerr := p.decode(0, "x", got)
		jerr := json.Unmarshal(tok, want)
		var werr *Error
		if jerr != nil {
			werr = p.bad(0, "x", jerr)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gerr, werr) {
			t.Fatalf("%s into %T: %v (%v), encoding/json %v (%v)", tok, got, got, gerr, want, werr)
		}
	}
}
