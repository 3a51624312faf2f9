package cbor

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"unicode/utf8"
)

// Map is a decoded CBOR map with its entries in canonical order. Go's map
// type would lose that order and cannot hold []any or []byte keys, which
// Python dicts keyed by tuples and bytes need.
type Map []MapEntry

// MapEntry is one key/value pair of a Map.
type MapEntry struct {
	Key, Value any
}

// EncodeGo returns the canonical CBOR of a Go value (see the package doc
// for the accepted types). It is Encode for callers without a PVM thread,
// so it refuses what Decode would refuse: ints over MaxIntBits, invalid
// UTF-8, nesting over MaxDepth, and map keys equal as Python values.
func EncodeGo(v any) ([]byte, error) {
	e := goEncoder{}
	if err := e.encode(v, 0, false); err != nil {
		return nil, fmt.Errorf("cbor: encode: %w", err)
	}
	return e.out, nil
}

// DecodeGo parses exactly one canonical CBOR item into Go values; it
// accepts exactly the byte strings Decode accepts.
func DecodeGo(b []byte) (any, error) {
	v, err := decodeAll[any](b, goBuilder{})
	if err != nil {
		return nil, fmt.Errorf("cbor: decode: %w", err)
	}
	return v, nil
}

// goEncoder appends the encoding of Go values. With norm set it writes a
// key's Python-equality class instead (bool and integral floats as ints),
// used only to find keys that one Python dict could not hold apart.
type goEncoder struct {
	out  []byte
	norm bool
}

var errNestTooDeep = fmt.Errorf("nesting exceeds %d levels", MaxDepth)

func (e *goEncoder) encode(v any, depth int, key bool) error {
	switch x := v.(type) {
	case nil:
		e.out = append(e.out, itemNull)
	case bool:
		switch {
		case e.norm && x:
			e.out = appendInt64(e.out, 1)
		case e.norm:
			e.out = appendInt64(e.out, 0)
		case x:
			e.out = append(e.out, itemTrue)
		default:
			e.out = append(e.out, itemFalse)
		}
	case int:
		e.out = appendInt64(e.out, int64(x))
	case int8:
		e.out = appendInt64(e.out, int64(x))
	case int16:
		e.out = appendInt64(e.out, int64(x))
	case int32:
		e.out = appendInt64(e.out, int64(x))
	case int64:
		e.out = appendInt64(e.out, x)
	case uint:
		e.out = appendHead(e.out, majorUint, uint64(x))
	case uint8:
		e.out = appendHead(e.out, majorUint, uint64(x))
	case uint16:
		e.out = appendHead(e.out, majorUint, uint64(x))
	case uint32:
		e.out = appendHead(e.out, majorUint, uint64(x))
	case uint64:
		e.out = appendHead(e.out, majorUint, x)
	case *big.Int:
		if x == nil {
			return errors.New("cannot encode a nil *big.Int")
		}
		if x.BitLen() > MaxIntBits {
			return fmt.Errorf("integer exceeds the %d-bit limit", MaxIntBits)
		}
		e.out = appendBig(e.out, x)
	case float32:
		e.float(float64(x))
	case float64:
		e.float(x)
	case string:
		if !utf8.ValidString(x) {
			return errors.New("string is not valid UTF-8")
		}
		e.out = appendString(e.out, majorText, x)
	case []byte:
		e.out = appendString(e.out, majorBytes, string(x))
	case []any:
		if depth >= MaxDepth {
			return errNestTooDeep
		}
		e.out = appendHead(e.out, majorArray, uint64(len(x)))
		for i, el := range x {
			if err := e.encode(el, depth+1, key); err != nil {
				return fmt.Errorf("array item %d: %w", i, err)
			}
		}
	case Map:
		return e.mapping(x, depth, key)
	case map[string]any:
		// Sorting by encoding below fixes the order; the iteration order of
		// the Go map never reaches the output.
		m := make(Map, 0, len(x))
		for k, v := range x {
			m = append(m, MapEntry{k, v})
		}
		sort.Slice(m, func(i, j int) bool { return m[i].Key.(string) < m[j].Key.(string) })
		return e.mapping(m, depth, key)
	default:
		return fmt.Errorf("cannot encode Go type %T", v)
	}
	return nil
}

func (e *goEncoder) float(f float64) {
	if e.norm && !math.IsInf(f, 0) && f == math.Trunc(f) {
		b, _ := big.NewFloat(f).Int(nil)
		e.out = appendBig(e.out, b)
		return
	}
	e.out = appendFloat(e.out, f)
}

func (e *goEncoder) mapping(m Map, depth int, key bool) error {
	if key {
		return errors.New("a map cannot be a map key (dict is unhashable)")
	}
	if depth >= MaxDepth {
		return errNestTooDeep
	}
	e.out = appendHead(e.out, majorMap, uint64(len(m)))
	spans := make([]entrySpan, len(m))
	seen := make(map[string]struct{}, len(m)) // lookups only
	for i, kv := range m {
		spans[i].key = len(e.out)
		if err := e.encode(kv.Key, depth+1, true); err != nil {
			return fmt.Errorf("map key %d: %w", i, err)
		}
		spans[i].val = len(e.out)
		if !e.norm {
			nk, err := normKey(e.out[spans[i].key:spans[i].val])
			if err != nil {
				return fmt.Errorf("map key %d: %w", i, err)
			}
			if _, dup := seen[string(nk)]; dup {
				return fmt.Errorf("map key %d: %w (equal to an earlier key as a Python value)", i, errDuplicateKey)
			}
			seen[string(nk)] = struct{}{}
		}
		if err := e.encode(kv.Value, depth+1, false); err != nil {
			return fmt.Errorf("map value %d: %w", i, err)
		}
		spans[i].end = len(e.out)
	}
	return sortEntries(e.out, spans)
}

// normKey maps the canonical encoding of a map key to the encoding of its
// Python-equality class: keys that Python's == (and so a dict) treats as one
// (1, 1.0, True; 0.0 and -0.0; (1,) and (True,)) get the same bytes, keys it
// keeps apart get different bytes. NaN keys are left to the byte comparison,
// which already refuses two of them.
func normKey(raw []byte) ([]byte, error) {
	v, err := decodeAll[any](raw, goBuilder{})
	if err != nil {
		return nil, err
	}
	e := goEncoder{norm: true}
	if err := e.encode(v, 0, true); err != nil {
		return nil, err
	}
	return e.out, nil
}

// goBuilder builds DecodeGo's values. It needs no memory checks: callers
// bound the input, and the decoder never allocates more items than input
// bytes.
type goBuilder struct{}

func (goBuilder) null() any                  { return nil }
func (goBuilder) boolean(b bool) any         { return b }
func (goBuilder) int64(i int64) (any, error) { return i, nil }
func (goBuilder) bigint(v *big.Int) (any, error) {
	if v.IsInt64() {
		return v.Int64(), nil
	}
	return v, nil
}
func (goBuilder) float(f float64) (any, error)           { return f, nil }
func (goBuilder) text(s string) (any, error)             { return s, nil }
func (goBuilder) bytes(b []byte) (any, error)            { return append([]byte{}, b...), nil }
func (goBuilder) array(items []any, _ bool) (any, error) { return items, nil }
func (goBuilder) reserve(int, bool) error                { return nil }
func (goBuilder) newMap(n int) (any, error)              { return make(Map, 0, n), nil }
func (goBuilder) put(m, k, v any) (any, error)           { return append(m.(Map), MapEntry{k, v}), nil }
