package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cowboy-chain/cowboy/chain/types"
)

// params is a request's positional parameters. Each accessor names the
// parameter and says why it is wrong, because "invalid params" alone
// leaves a user guessing.
type params struct {
	method string
	raw    []json.RawMessage
}

// parseParams accepts an array (or no params at all) of between min and
// max items.
func parseParams(method string, raw json.RawMessage, min, max int) (*params, *Error) {
	p := &params{method: method}
	t := bytes.TrimSpace(raw)
	if len(t) != 0 && string(t) != "null" {
		if t[0] != '[' {
			return nil, invalidParams("invalid params: %s wants params as a JSON array", method)
		}
		if tok, ok := oneStringParam(t); ok {
			p.raw = []json.RawMessage{tok}
		} else if err := json.Unmarshal(t, &p.raw); err != nil {
			return nil, invalidParams("invalid params: %v", err)
		}
	}
	if n := len(p.raw); n < min || n > max {
		want := fmt.Sprintf("%d", min)
		if max != min {
			want = fmt.Sprintf("%d to %d", min, max)
		}
		return nil, invalidParams("invalid params: %s takes %s params, got %d", method, want, n)
	}
	return p, nil
}

// has reports whether param i was given (and is not null).
func (p *params) has(i int) bool {
	return i < len(p.raw) && string(bytes.TrimSpace(p.raw[i])) != "null"
}

func (p *params) bad(i int, name string, err error) *Error {
	return invalidParams("invalid params: params[%d] (%s): %v", i, name, err)
}

// decode unmarshals param i into v, which carries its own strict rules
// (Quantity, Hash, Address, Bytes, ...).
func (p *params) decode(i int, name string, v any) *Error {
	if !p.has(i) {
		return p.bad(i, name, fmt.Errorf("missing"))
	}
	// A plain string token is valid JSON as it stands, and json.Unmarshal
	// would hand it to v's UnmarshalJSON unchanged (every hex parameter:
	// a transaction, a hash, an address).
	if u, ok := v.(json.Unmarshaler); ok {
		if _, n := plainString(p.raw[i]); n > 0 && n == len(p.raw[i]) {
			if err := u.UnmarshalJSON(p.raw[i]); err != nil {
				return p.bad(i, name, err)
			}
			return nil
		}
	}
	if err := json.Unmarshal(p.raw[i], v); err != nil {
		return p.bad(i, name, err)
	}
	return nil
}

func (p *params) hash(i int) (types.Hash, *Error) {
	var h Hash
	err := p.decode(i, "hash", &h)
	return types.Hash(h), err
}

func (p *params) address(i int) (types.Address, *Error) {
	var a Address
	err := p.decode(i, "address", &a)
	return types.Address(a), err
}

func (p *params) bytes(i int, name string) ([]byte, *Error) {
	var b Bytes
	err := p.decode(i, name, &b)
	return b, err
}

// optBool is param i as a bool, or def when it was left out.
func (p *params) optBool(i int, name string, def bool) (bool, *Error) {
	if !p.has(i) {
		return def, nil
	}
	var v bool
	if err := json.Unmarshal(p.raw[i], &v); err != nil {
		return false, p.bad(i, name, fmt.Errorf("want true or false, got %s", abbrev(string(p.raw[i]))))
	}
	return v, nil
}

// tag is param i as one of the allowed block tags, or def when left out.
func (p *params) tag(i int, def string, allowed ...string) (string, *Error) {
	if !p.has(i) {
		return def, nil
	}
	var s string
	if err := json.Unmarshal(p.raw[i], &s); err == nil {
		for _, a := range allowed {
			if s == a {
				return s, nil
			}
		}
	}
	return "", p.bad(i, "block", fmt.Errorf("want one of %q, got %s (state at past heights is not served)", allowed, abbrev(string(p.raw[i]))))
}

// object decodes param i as a JSON object, refusing unknown fields so a
// misspelt "paylaod" is an error rather than silently ignored.
func (p *params) object(i int, name string, v any) *Error {
	if !p.has(i) {
		return p.bad(i, name, fmt.Errorf("missing"))
	}
	t := bytes.TrimSpace(p.raw[i])
	if len(t) == 0 || t[0] != '{' {
		return p.bad(i, name, fmt.Errorf("want a JSON object"))
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return p.bad(i, name, err)
	}
	return nil
}
