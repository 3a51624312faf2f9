package cbor

import (
	"errors"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// CostBase is the fixed part of serialising or deserialising one value,
// in cycles; each byte of the encoding adds one more (CIP-3 §2.2 "Object
// Serialization: 20 + bytes").
const CostBase uint64 = 20

// chargeEvery is how many output bytes the encoder may produce before it
// charges them, in bytes: charging as it goes makes a value that encodes to
// far more bytes than it occupies (a list repeating one large string) run out
// of cycles instead of filling memory. Charges add up to exactly len(out).
const chargeEvery = 4096

// Encode returns the canonical CBOR of v. It charges c's meter 20 +
// len(out) cycles (CIP-3 §2.2), raises TypeError naming the type for values
// with no encoding (sets, functions, instances, ...) and ValueError for
// nesting deeper than MaxDepth, str holding invalid UTF-8, or a dict with two
// keys of one encoding (two NaN keys).
func Encode(c object.Ctx, v object.Value) ([]byte, error) {
	if err := c.Meter().Charge(CostBase); err != nil {
		return nil, err
	}
	e := pyEncoder{m: c.Meter()}
	if err := e.encode(v, 0); err != nil {
		return nil, err
	}
	if err := e.charge(); err != nil {
		return nil, err
	}
	return e.out, nil
}

// pyEncoder appends the encoding of PVM values to out.
type pyEncoder struct {
	m       *meter.Meter
	out     []byte
	charged int // bytes of out already charged, in bytes
}

// charge charges the bytes appended since the last charge.
func (e *pyEncoder) charge() error {
	n := len(e.out) - e.charged
	e.charged = len(e.out)
	return e.m.Charge(uint64(n))
}

func (e *pyEncoder) encode(v object.Value, depth int) error {
	if len(e.out)-e.charged >= chargeEvery {
		if err := e.charge(); err != nil {
			return err
		}
	}
	switch x := v.(type) {
	case object.NoneType:
		e.out = append(e.out, itemNull)
	case object.Bool:
		if x {
			e.out = append(e.out, itemTrue)
		} else {
			e.out = append(e.out, itemFalse)
		}
	case object.Int:
		e.out = appendInt64(e.out, int64(x))
	case *object.BigInt:
		e.out = appendBig(e.out, x.Big())
	case object.Float:
		e.out = appendFloat(e.out, float64(x))
	case object.Str:
		if !utf8.ValidString(string(x)) {
			return object.Errorf(object.ValueError, "cannot encode str to CBOR: not valid UTF-8")
		}
		e.out = appendString(e.out, majorText, string(x))
	case object.Bytes:
		e.out = appendString(e.out, majorBytes, string(x))
	case *object.ByteArray:
		e.out = appendString(e.out, majorBytes, string(x.B))
	case *object.List:
		return e.array(x.Elems, depth)
	case object.Tuple:
		return e.array(x, depth)
	case *object.Dict:
		return e.dict(x, depth)
	case nil:
		return object.Errorf(object.TypeError, "cannot encode a missing value to CBOR")
	default:
		return object.Errorf(object.TypeError, "cannot encode '%s' to CBOR", object.TypeName(v))
	}
	return nil
}

func tooDeep() error {
	return object.Errorf(object.ValueError, "cannot encode to CBOR: nesting exceeds %d levels", MaxDepth)
}

func (e *pyEncoder) array(elems []object.Value, depth int) error {
	if depth >= MaxDepth {
		return tooDeep()
	}
	e.out = appendHead(e.out, majorArray, uint64(len(elems)))
	for _, el := range elems {
		if err := e.encode(el, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// dict writes the entries in insertion order, then sorts them in place by
// key encoding; no user code runs, so the dict cannot change meanwhile.
func (e *pyEncoder) dict(d *object.Dict, depth int) error {
	if depth >= MaxDepth {
		return tooDeep()
	}
	items := d.Items()
	e.out = appendHead(e.out, majorMap, uint64(len(items)))
	spans := make([]entrySpan, len(items))
	for i, kv := range items {
		spans[i].key = len(e.out)
		if err := e.encode(kv[0], depth+1); err != nil {
			return err
		}
		spans[i].val = len(e.out)
		if err := e.encode(kv[1], depth+1); err != nil {
			return err
		}
		spans[i].end = len(e.out)
	}
	if err := sortEntries(e.out, spans); err != nil {
		if errors.Is(err, errDuplicateKey) {
			return object.Errorf(object.ValueError, "cannot encode dict to CBOR: two keys have the same encoding (NaN keys?)")
		}
		return err
	}
	return nil
}
