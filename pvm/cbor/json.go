package cbor

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// FromJSON converts one JSON value (message arguments typed on the command
// line) to canonical CBOR; the rules are in the package doc. Trailing data,
// repeated object keys and nesting over MaxDepth are errors.
func FromJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := jsonValue(dec, 0)
	if err != nil {
		return nil, fmt.Errorf("cbor: from JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("cbor: from JSON: trailing data after the value")
	}
	return EncodeGo(v)
}

func jsonValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil, bool, string:
		return t, nil
	case json.Number:
		return jsonNumber(string(t))
	case json.Delim:
		if depth >= MaxDepth {
			return nil, errNestTooDeep
		}
		if t == '[' {
			arr := []any{}
			for dec.More() {
				v, err := jsonValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		m := Map{}
		seen := map[string]bool{} // lookups only
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string) // the decoder only yields string keys here
			if seen[k] {
				return nil, fmt.Errorf("object key %q repeated", k)
			}
			seen[k] = true
			v, err := jsonValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			m = append(m, MapEntry{k, v})
		}
		_, err := dec.Token() // '}'
		return m, err
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// jsonNumber keeps integer literals exact and parses the rest as float64.
func jsonNumber(s string) (any, error) {
	if !strings.ContainsAny(s, ".eE") {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("bad JSON number %q", s)
		}
		if v.BitLen() > MaxIntBits {
			return nil, fmt.Errorf("integer %.20s... exceeds the %d-bit limit", s, MaxIntBits)
		}
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("number %q out of float64 range", s)
	}
	return f, nil
}

// ToJSON renders canonical CBOR as compact JSON for display; the rules,
// including how non-text map keys are written, are in the package doc.
func ToJSON(b []byte) ([]byte, error) {
	v, err := DecodeGo(b)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := writeJSON(&out, v); err != nil {
		return nil, fmt.Errorf("cbor: to JSON: %w", err)
	}
	return out.Bytes(), nil
}

func writeJSON(out *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(x))
	case int64:
		out.WriteString(strconv.FormatInt(x, 10))
	case *big.Int:
		out.WriteString(x.String())
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("float %s has no JSON form", object.FloatRepr(x))
		}
		out.WriteString(object.FloatRepr(x))
	case string:
		writeJSONString(out, x)
	case []byte:
		out.WriteString(`"0x` + hex.EncodeToString(x) + `"`)
	case []any:
		out.WriteByte('[')
		for i, el := range x {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := writeJSON(out, el); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case Map:
		out.WriteByte('{')
		seen := map[string]bool{} // lookups only
		for i, kv := range x {
			k, ok := kv.Key.(string)
			if kb, isBytes := kv.Key.([]byte); isBytes {
				k, ok = "0x"+hex.EncodeToString(kb), true
			}
			if !ok {
				var kb bytes.Buffer
				if err := writeJSON(&kb, kv.Key); err != nil {
					return err
				}
				k = kb.String()
			}
			if seen[k] {
				return fmt.Errorf("two map keys render as the JSON name %q", k)
			}
			seen[k] = true
			if i > 0 {
				out.WriteByte(',')
			}
			writeJSONString(out, k)
			out.WriteByte(':')
			if err := writeJSON(out, kv.Value); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	default:
		return fmt.Errorf("internal: unexpected decoded type %T", v)
	}
	return nil
}

// writeJSONString quotes s without HTML escaping (the output is for people
// and tools, not for embedding in HTML).
func writeJSONString(out *bytes.Buffer, s string) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	out.Truncate(out.Len() - 1) // Encode's trailing newline
}
