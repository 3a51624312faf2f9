package types

import (
	"fmt"

	"github.com/fxamacker/cbor/v2"
)

// Blocks, headers, receipts and account records are CBOR arrays (structs
// tagged toarray) in core deterministic encoding (RFC 8949 §4.2.1); big
// integers use the shortest form, a plain integer below 2^64, like the
// transaction. Decoding re-encodes and compares, so only canonical bytes
// are accepted, exactly as for transactions.
var (
	encMode cbor.EncMode
	decMode cbor.DecMode
)

func init() {
	opts := cbor.CoreDetEncOptions()
	opts.BigIntConvert = cbor.BigIntConvertShortest
	opts.ShortestFloat = cbor.ShortestFloatNone // v2 "Determinism Guarantees": 64-bit floats only
	var err error
	if encMode, err = opts.EncMode(); err != nil {
		panic(err)
	}
	if decMode, err = (cbor.DecOptions{
		MaxArrayElements: 1 << 20,
		MaxNestedLevels:  16,
		IndefLength:      cbor.IndefLengthForbidden,
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
	}).DecMode(); err != nil {
		panic(err)
	}
}

// Marshal encodes v canonically.
func Marshal(v any) ([]byte, error) { return encMode.Marshal(v) }

// Unmarshal decodes b into v and refuses non-canonical bytes.
func Unmarshal(b []byte, v any) error {
	if err := decMode.Unmarshal(b, v); err != nil {
		return err
	}
	again, err := encMode.Marshal(v)
	if err != nil {
		return err
	}
	if string(again) != string(b) {
		return fmt.Errorf("%w: bytes are not the canonical encoding", errCBOR)
	}
	return nil
}

// CheckCanonical reports whether b is exactly one well-formed CBOR data item
// in canonical form: definite lengths, shortest integers, sorted map keys,
// 64-bit floats. Transaction payloads must pass it (§2.2(e)).
func CheckCanonical(b []byte) error {
	var v any
	return Unmarshal(b, &v)
}
