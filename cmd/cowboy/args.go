package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/rpc"
)

// Names inside JSON arguments (issue 16). A JSON string, at any depth of an
// argument, that is exactly dev0…dev9 stands for that devnet account's
// address, and one that is @NAME for the address of keystore key NAME, as
// they do wherever the CLI takes an address. Bare key names are not
// resolved: a string such as "alice" is often meant as text.

// jsonArgs converts command-line arguments to the canonical CBOR array of
// a call: valid JSON as itself, anything else as a string, names resolved.
func (a *app) jsonArgs(argv []string) ([]byte, error) {
	raw, err := a.rawArgs(argv)
	if err != nil {
		return nil, err
	}
	cb, err := rpc.ArgsCBOR(raw)
	if err != nil {
		return nil, fmt.Errorf("arguments %q: %w", argv, err)
	}
	return cb, nil
}

// rawArgs reads each command-line argument as one JSON value, taking one
// that is not valid JSON as a string, and resolves dev0…dev9 and @NAME
// strings inside them to addresses.
func (a *app) rawArgs(argv []string) ([]json.RawMessage, error) {
	raw := make([]json.RawMessage, len(argv))
	for i, s := range argv {
		if !json.Valid([]byte(s)) {
			b, _ := json.Marshal(s) // a string always encodes
			raw[i] = b
		} else {
			raw[i] = json.RawMessage(s)
		}
		if !strings.Contains(s, "dev") && !strings.Contains(s, "@") {
			continue // nothing to resolve: keep the text exactly
		}
		dec := json.NewDecoder(bytes.NewReader(raw[i]))
		dec.UseNumber() // integers of any size stay exact
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("argument %d %q: %w", i+1, s, err)
		}
		v, err := a.resolveNames(v)
		if err != nil {
			return nil, fmt.Errorf("argument %d %q: %w", i+1, s, err)
		}
		if raw[i], err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("argument %d %q: %w", i+1, s, err)
		}
	}
	return raw, nil
}

// resolveNames replaces dev0…dev9 and @NAME strings in v by addresses.
func (a *app) resolveNames(v any) (any, error) {
	switch x := v.(type) {
	case string:
		if _, ok := devIndex(x); ok {
			addr, err := a.resolveAddress(x)
			return addr.Hex(), err
		}
		if name, ok := strings.CutPrefix(x, "@"); ok && name != "" {
			addr, err := a.resolveAddress(name)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", x, err)
			}
			return addr.Hex(), nil
		}
		return x, nil
	case []any:
		for i := range x {
			r, err := a.resolveNames(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = r
		}
		return x, nil
	case map[string]any:
		for k := range x {
			r, err := a.resolveNames(x[k])
			if err != nil {
				return nil, err
			}
			x[k] = r
		}
		return x, nil
	}
	return v, nil
}
