package rpc

import (
	"bytes"
	"encoding/json"
)

// Shortcuts for the requests and responses a node answers by the thousand
// (a batch of cowboy_sendRawTransaction from `cowboy bench transfers` or a
// wallet): encoding/json reads a request three times over (the envelope,
// the method, the params) and validates every raw member again when it
// writes the answer. Each shortcut accepts only a narrow, exactly
// recognized shape and gives what the general path gives for it; anything
// else (whitespace, escapes, unknown or repeated members, nested params)
// goes the general way, so behaviour, errors included, is unchanged
// (TestFastJSONMatchesGeneral, FuzzFastJSON).

// parseCallFast is parseCall for a request object of the form
//
//	{"jsonrpc":"2.0","id":ID,"method":"NAME","params":PARAMS}
//
// with its members in any order, each at most once, no whitespace, ID a
// number, null or a string of plain characters, NAME a non-empty string of
// plain characters, and PARAMS absent, null, [] or ["plain string"]
// (plain: printable ASCII other than `"` and `\`, so that the bytes are
// the decoded value). ok is false for anything else.
func parseCallFast(raw []byte) (c *parsedCall, ok bool) {
	c, n := scanCallFast(raw)
	if c == nil || n != len(raw) {
		return nil, false
	}
	return c, true
}

// scanCallFast reads a request object of parseCallFast's form at the
// start of b and returns it and its length; nil if b does not start with
// one. Every token is checked against the JSON grammar, so what it accepts
// is valid JSON whatever follows it.
func scanCallFast(b []byte) (c *parsedCall, n int) {
	if len(b) < 2 || b[0] != '{' {
		return nil, 0
	}
	var id, method, params []byte
	var seenRPC bool
	i := 1
	for {
		key, k := plainString(b[i:])
		if k == 0 || i+k >= len(b) || b[i+k] != ':' {
			return nil, 0
		}
		i += k + 1
		rest := b[i:]
		var val []byte
		switch string(key) {
		case "jsonrpc":
			if seenRPC || !bytes.HasPrefix(rest, []byte(`"2.0"`)) {
				return nil, 0
			}
			seenRPC, val = true, rest[:5]
		case "id":
			if id != nil {
				return nil, 0
			}
			if id = scalar(rest); id == nil {
				return nil, 0
			}
			val = id
		case "method":
			if method != nil {
				return nil, 0
			}
			s, m := plainString(rest)
			if m == 0 || len(s) == 0 {
				return nil, 0
			}
			method, val = s, rest[:m]
		case "params":
			if params != nil {
				return nil, 0
			}
			if params = simpleParams(rest); params == nil {
				return nil, 0
			}
			val = params
		default:
			return nil, 0
		}
		i += len(val)
		if i >= len(b) {
			return nil, 0
		}
		if b[i] == '}' {
			i++
			break
		}
		if b[i] != ',' {
			return nil, 0
		}
		i++
	}
	if !seenRPC || method == nil {
		return nil, 0
	}
	c = &parsedCall{id: id, method: string(method), params: params}
	if id == nil {
		c.id, c.notification = nullID, true
	} else if !validID(id) {
		return nil, 0
	}
	return c, i
}

// splitBatchFast is handleBody's json.Unmarshal of a batch into its
// requests when the body is exactly [R,R,…] with every R of
// parseCallFast's form (so the body is valid JSON and each element is
// what encoding/json would give). ok is false for anything else, an empty
// batch included.
func splitBatchFast(body []byte) (batch []json.RawMessage, ok bool) {
	if len(body) < 2 || body[0] != '[' || body[len(body)-1] != ']' {
		return nil, false
	}
	for i := 1; ; {
		c, n := scanCallFast(body[i:])
		if c == nil {
			return nil, false
		}
		batch = append(batch, json.RawMessage(body[i:i+n]))
		i += n
		switch {
		case i == len(body)-1:
			return batch, true
		case body[i] != ',':
			return nil, false
		}
		i++
	}
}

// plainChar is a byte a JSON string holds as itself: printable ASCII
// other than the quote and the backslash.
func plainChar(b byte) bool { return b >= 0x20 && b < 0x7f && b != '"' && b != '\\' }

// plainString reads a JSON string of plain characters at the start of b:
// its content and the length of the whole token; n is 0 if b does not
// start with one.
func plainString(b []byte) (s []byte, n int) {
	if len(b) == 0 || b[0] != '"' {
		return nil, 0
	}
	for i := 1; i < len(b); i++ {
		switch {
		case b[i] == '"':
			return b[1:i], i + 1
		case !plainChar(b[i]):
			return nil, 0
		}
	}
	return nil, 0
}

// scalar is the token at the start of b if it is null, a number or a
// plain string, else nil.
func scalar(b []byte) []byte {
	if bytes.HasPrefix(b, []byte("null")) {
		return b[:4]
	}
	if _, n := plainString(b); n > 0 {
		return b[:n]
	}
	if n := numberLen(b); n > 0 {
		return b[:n]
	}
	return nil
}

// numberLen is the length of the JSON number at the start of b (RFC 8259
// §6: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), 0 if none.
func numberLen(b []byte) int {
	digits := func(i int) int {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j
	}
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return 0
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0
		}
		i = j
	}
	return i
}

// simpleParams is the token at the start of b if it is null, [] or an
// array of one plain string, else nil.
func simpleParams(b []byte) []byte {
	switch {
	case bytes.HasPrefix(b, []byte("null")):
		return b[:4]
	case bytes.HasPrefix(b, []byte("[]")):
		return b[:2]
	case len(b) > 0 && b[0] == '[':
		if _, n := plainString(b[1:]); n > 0 && 1+n < len(b) && b[1+n] == ']' {
			return b[:n+2]
		}
	}
	return nil
}

// oneStringParam is parseParams' decoding of t when t is an array of one
// plain string: the string token itself, as json.Unmarshal into
// []json.RawMessage gives it. ok is false for any other t.
func oneStringParam(t []byte) (tok []byte, ok bool) {
	if len(t) < 4 || t[0] != '[' || t[len(t)-1] != ']' {
		return nil, false
	}
	if _, n := plainString(t[1:]); n == len(t)-2 {
		return t[1 : len(t)-1], true
	}
	return nil, false
}

// encodeResultFast writes a success response, {"jsonrpc":"2.0","id":ID,
// "result":RESULT}, without encoding/json when json.Marshal would copy id
// and result unchanged: neither holds whitespace (which Marshal would
// compact away outside strings) nor the characters it escapes for HTML
// (<, >, & and the first byte of U+2028 and U+2029). result must be valid
// JSON (what encodeResult wrote). ok is false otherwise.
func encodeResultFast(id, result []byte) (out []byte, ok bool) {
	if len(result) == 0 || !marshalsAsIs(id) || !marshalsAsIs(result) {
		return nil, false
	}
	out = make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(result))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}'), true
}

func marshalsAsIs(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '<', '>', '&', 0xe2:
			return false
		}
	}
	return true
}
