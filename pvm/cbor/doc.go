// Package cbor is the on-chain value format: canonical CBOR (RFC 8949 §4.2,
// technical spec v2 "Determinism Guarantees") for actor state, message
// arguments and return values. It is consensus critical: every node must
// produce the same bytes for the same value and accept exactly the same byte
// strings, so the encoder has one output per value and the decoder rejects
// every byte string the encoder would not have produced.
//
// Two entry points share one format: Encode/Decode for PVM values (they
// charge the call's meter, CIP-3 §2.2 "Object Serialization": 20 + bytes
// cycles) and EncodeGo/DecodeGo for plain Go values (chain, CLI), plus
// FromJSON/ToJSON for the command line. Nothing here iterates a Go map to
// produce output, reads a clock, or runs Python code.
//
// # Mapping (Python value -> CBOR item)
//
//	None                 -> simple value null, 0xf6
//	True / False         -> 0xf5 / 0xf4 (never the ints 1 / 0)
//	int in [-2^64, 2^64) -> major 0 (n >= 0) or major 1 (-1-n), head in the
//	                        shortest form (RFC 8949 §4.2.1)
//	other int            -> tag 2 (positive) or tag 3 (negative, value -1-n)
//	                        around a byte string holding the big-endian
//	                        magnitude with no leading zero byte; at most
//	                        4096 bits, the PVM's int cap
//	float                -> always 0xfb + 8 bytes IEEE 754 binary64, never
//	                        the 16- or 32-bit forms (technical spec v2: "64-bit
//	                        floats only"); every NaN is written as
//	                        0x7ff8000000000000; -0.0 keeps its sign bit
//	str                  -> major 3, UTF-8
//	bytes, bytearray     -> major 2 (decodes as bytes)
//	list, tuple          -> major 4 array (decodes as list, except inside a
//	                        map key, where arrays decode as tuples so that
//	                        the dict can hold them)
//	dict                 -> major 5 map; entries sorted by the bytewise
//	                        lexicographic order of the keys' encodings
//	                        (RFC 8949 §4.2.1, not the length-first order of
//	                        RFC 7049 §3.9); keys may be None, bool, int,
//	                        float, str, bytes or tuples of those
//	anything else        -> TypeError "cannot encode 'set' to CBOR"
//
// Lengths are always definite. Containers nest at most MaxDepth levels (a
// scalar is depth 0, [[1]] has depth 2); deeper values, including lists that
// contain themselves, raise ValueError instead of recursing further.
//
// # What Decode accepts
//
// Exactly one item and nothing after it. Heads must be in the shortest form;
// additional information 28-30 and indefinite lengths (31) are rejected; the
// only tags are 2 and 3, and only around a byte string whose value does not
// fit major 0/1 and has no leading zero byte; the only simple values are
// false, true, null and 0xfb floats whose NaN, if any, is the canonical one;
// text must be valid UTF-8; map keys must be strictly increasing in bytewise
// order of their encodings (this also rejects duplicates) and must not be
// equal as Python values either: 1, 1.0 and True are one dict key, as are
// 0.0 and -0.0 or (1,) and (True,), so a map holding two of them would lose
// an entry in the dict and is rejected; a map may not be a map key (dicts
// are unhashable). Declared lengths are checked against the bytes left
// before anything is allocated.
//
// # Go values
//
// EncodeGo takes nil, bool, every Go integer type, *big.Int, float64,
// float32, string, []byte, []any, Map, and map[string]any (its keys are
// sorted by encoding, so Go's map order never shows). DecodeGo returns nil,
// bool, int64 (or *big.Int when the value does not fit int64), float64,
// string, []byte, []any and Map, whose entries are in the canonical order.
//
// # JSON
//
// FromJSON: integer literals (no fraction, no exponent) become CBOR ints of
// any size up to 4096 bits; other numbers become float64 (so 1.0 and 1e3
// stay floats) and numbers out of float64 range are an error; strings stay
// text, including "0x..." strings (no hex decoding); objects become maps with
// text keys, and a key repeated in one object is an error. ToJSON renders
// bytes as "0x" + lowercase hex, ints as JSON integers of any size, floats in
// Python's repr (shortest round trip, "1.0", "1e+16"), and fails on NaN and
// infinities, which JSON cannot hold. Map keys that are not text are written
// as the JSON text of the key (1 -> "1", b"\x01" -> "0x01", (1, 2) ->
// "[1,2]"); if two keys of one map render the same, ToJSON fails rather than
// emit a JSON object with a repeated name.
package cbor

import "github.com/cowboy-chain/cowboy/pvm/meter"

// MaxDepth is the deepest container nesting Encode and Decode accept. It
// bounds the recursion of both (no Go stack overflow on hostile input) and
// is part of the format: a value nested deeper has no encoding.
const MaxDepth = 64

// MaxIntBits is the largest integer, in bits of its absolute value, the
// format carries; it is the PVM's int cap (meter.MaxIntBits, issue 4).
const MaxIntBits = meter.MaxIntBits
