package cbor

import (
	"errors"
	"math/big"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Decode parses exactly one canonical CBOR item into PVM values. It charges
// 20 + len(b) cycles (CIP-3 §2.2) before reading, and the memory of each
// object it builds (object.Alloc, CPython-like sizes) before building it.
// Any byte string the format does not allow raises ValueError saying what
// is wrong and where; arrays decode as lists (tuples inside map keys).
func Decode(c object.Ctx, b []byte) (object.Value, error) {
	if err := c.Meter().Charge(CostBase + uint64(len(b))); err != nil {
		return nil, err
	}
	v, err := decodeAll[object.Value](b, pyBuilder{c})
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return nil, object.Errorf(object.ValueError, "%s", se.Error())
		}
		return nil, err
	}
	return v, nil
}

// pyBuilder builds PVM values, charging c's meter for their memory.
type pyBuilder struct{ c object.Ctx }

func (pyBuilder) null() object.Value          { return object.None }
func (pyBuilder) boolean(b bool) object.Value { return object.MakeBool(b) }
func (pyBuilder) int64(i int64) (object.Value, error) {
	// Ints that fit 64 bits are unboxed in the PVM and charge no memory,
	// as in its arithmetic.
	return object.MakeInt(i), nil
}

func (p pyBuilder) bigint(v *big.Int) (object.Value, error) {
	// CPython stores 30 bits per 4-byte digit.
	digits := (uint64(v.BitLen()) + 29) / 30
	if err := object.Alloc(p.c, meter.SizeIntHeader+4*digits); err != nil {
		return nil, err
	}
	r, err := object.MakeBigInt(v)
	if err != nil {
		// The decoder already refused ints over the cap; keep the error a
		// ValueError should the two limits ever differ.
		return nil, object.Errorf(object.ValueError, "invalid canonical CBOR: integer exceeds the PVM's int limit")
	}
	return r, nil
}

func (p pyBuilder) float(f float64) (object.Value, error) {
	if err := object.Alloc(p.c, meter.SizeFloat); err != nil {
		return nil, err
	}
	return object.Float(f), nil
}

func (p pyBuilder) text(s string) (object.Value, error) { return object.NewStr(p.c, s) }

func (p pyBuilder) bytes(b []byte) (object.Value, error) {
	if err := object.Alloc(p.c, meter.SizeBytesHeader+uint64(len(b))); err != nil {
		return nil, err
	}
	return object.Bytes(b), nil
}

func (p pyBuilder) reserve(n int, key bool) error {
	if key {
		return object.AllocSlots(p.c, meter.SizeTupleHeader, uint64(n), meter.SizePointer)
	}
	return object.AllocSlots(p.c, meter.SizeListHeader, uint64(n), meter.SizePointer)
}

func (pyBuilder) array(items []object.Value, key bool) (object.Value, error) {
	if key {
		return object.Tuple(items), nil
	}
	return &object.List{Elems: items}, nil
}

func (p pyBuilder) newMap(int) (object.Value, error) {
	if err := object.Alloc(p.c, meter.SizeDictHeader); err != nil {
		return nil, err
	}
	return object.NewDict(), nil
}

// put adds one entry (Dict.Set charges meter.SizeDictEntry). The decoder has
// already refused keys equal as Python values, so the dict must grow; the
// check guards that promise.
func (p pyBuilder) put(m, k, v object.Value) (object.Value, error) {
	d := m.(*object.Dict)
	n := d.Len()
	if err := d.Set(p.c, k, v); err != nil {
		return nil, err
	}
	if d.Len() != n+1 {
		return nil, object.Errorf(object.ValueError, "invalid canonical CBOR: duplicate map key")
	}
	return d, nil
}
