package object

import (
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

func seqIndex(c Ctx, i Value, n int, what string) (int, error) {
	var idx int64
	if k, ok := i.(Int); ok {
		// The common case, without building the error message below
		// (a string concatenation, i.e. an allocation, per subscript).
		idx = int64(k)
	} else {
		if _, big := BaseOf(i).(*BigInt); big && what != "range object" {
			// CPython converts the index to Py_ssize_t first; a range
			// compares it as an int.
			return 0, Errorf(IndexError, "cannot fit 'int' into an index-sized integer")
		}
		var err error
		idx, err = IndexValue(c, i, what+" indices must be integers or slices, not "+TypeName(i))
		if err != nil {
			return 0, err
		}
	}
	if idx < 0 {
		idx += int64(n)
	}
	if idx < 0 || idx >= int64(n) {
		return 0, Errorf(IndexError, "%s index out of range", what)
	}
	return int(idx), nil
}

// GetItem is x[i].
func GetItem(c Ctx, x, i Value) (Value, error) {
	switch s := x.(type) {
	case *List:
		if sl, ok := i.(*SliceObj); ok {
			return sliceList(c, s.Elems, sl)
		}
		k, err := seqIndex(c, i, len(s.Elems), "list")
		if err != nil {
			return nil, err
		}
		return s.Elems[k], nil
	case Tuple:
		if sl, ok := i.(*SliceObj); ok {
			r, err := sliceValues(c, s, sl)
			return Tuple(r), err
		}
		k, err := seqIndex(c, i, len(s), "tuple")
		if err != nil {
			return nil, err
		}
		return s[k], nil
	case Str:
		ascii := isASCII(string(s))
		if sl, ok := i.(*SliceObj); ok {
			if ascii {
				r, err := sliceBytes(c, string(s), sl)
				return Str(r), err
			}
			rs := s.runes()
			start, _, step, count, err := sl.Indices(c, len(rs))
			if err != nil {
				return nil, err
			}
			if err := Charge(c, uint64(count)*meter.CostPerChar); err != nil {
				return nil, err
			}
			out := make([]rune, count)
			for j := 0; j < count; j++ {
				out[j] = rs[start+j*step]
			}
			return NewStr(c, string(out))
		}
		if ascii {
			k, err := seqIndex(c, i, len(s), "string")
			if err != nil {
				return nil, err
			}
			return s[k : k+1], nil
		}
		rs := s.runes()
		k, err := seqIndex(c, i, len(rs), "string")
		if err != nil {
			return nil, err
		}
		return Str(string(rs[k])), nil
	case Bytes:
		if sl, ok := i.(*SliceObj); ok {
			r, err := sliceBytes(c, string(s), sl)
			return Bytes(r), err
		}
		if _, big := BaseOf(i).(*BigInt); big {
			return nil, Errorf(IndexError, "cannot fit 'int' into an index-sized integer")
		}
		k, err := IndexValue(c, i, "byte indices must be integers or slices, not "+TypeName(i))
		if err != nil {
			return nil, err
		}
		if k < 0 {
			k += int64(len(s))
		}
		if k < 0 || k >= int64(len(s)) {
			return nil, Errorf(IndexError, "index out of range")
		}
		return Int(s[k]), nil
	case *ByteArray:
		if sl, ok := i.(*SliceObj); ok {
			r, err := sliceBytes(c, string(s.B), sl)
			return &ByteArray{B: []byte(r)}, err
		}
		k, err := seqIndex(c, i, len(s.B), "bytearray")
		if err != nil {
			return nil, err
		}
		return Int(s.B[k]), nil
	case *Dict:
		if err := Charge(c, meter.CostDictGetSet); err != nil {
			return nil, err
		}
		v, ok, err := s.Get(c, i)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Raise(NewException(KeyError, i))
		}
		return v, nil
	case *Range:
		if sl, ok := i.(*SliceObj); ok {
			start, stop, step, _, err := sl.Indices(c, s.Len())
			if err != nil {
				return nil, err
			}
			// As CPython: the slice's own indices mapped through the range,
			// so range(-10, 0, 3)[2:-1:2] is range(-4, -1, 6).
			return &Range{Start: s.Start + int64(start)*s.Step, Stop: s.Start + int64(stop)*s.Step, Step: s.Step * int64(step)}, nil
		}
		k, err := seqIndex(c, i, s.Len(), "range object")
		if err != nil {
			return nil, err
		}
		return Int(s.At(k)), nil
	case *Instance:
		if m, _ := s.Class.Lookup("__getitem__"); m != nil {
			return c.Call(m, []Value{s, i}, nil)
		}
	case *Class:
		if m := MetaMethod(s, "__getitem__"); m != nil {
			return CallMeta(c, m, s, i)
		}
		if m, _ := s.Lookup("__class_getitem__"); m != nil {
			if cm, ok := m.(*ClassMethod); ok {
				m = cm.Fn
			}
			return c.Call(m, []Value{s, i}, nil)
		}
		if s.builtinType {
			return NewGenericAlias(s, i), nil // list[int] and friends in annotations
		}
		for _, b := range s.MRO {
			if b.generic {
				return NewGenericAlias(s, i), nil // collections.deque[int]
			}
		}
	}
	if g, ok := x.(ItemGetter); ok {
		return g.GetItem(c, i)
	}
	return nil, Errorf(TypeError, "'%s' object is not subscriptable", TypeName(x))
}

// ItemGetter is implemented by values defined in Go outside this package
// that support x[i] (re.Match).
type ItemGetter interface {
	GetItem(c Ctx, i Value) (Value, error)
}

func sliceValues(c Ctx, elems []Value, sl *SliceObj) ([]Value, error) {
	start, _, step, count, err := sl.Indices(c, len(elems))
	if err != nil {
		return nil, err
	}
	if err := Charge(c, uint64(count)*meter.CostPerElem); err != nil {
		return nil, err
	}
	if err := AllocSlots(c, meter.SizeListHeader, uint64(count), meter.SizePointer); err != nil {
		return nil, err
	}
	out := make([]Value, count)
	for j := 0; j < count; j++ {
		out[j] = elems[start+j*step]
	}
	return out, nil
}

// sliceList is a list's slice as a new list: sliceValues, with the list
// and up to eight elements in one Go allocation (the same charges).
func sliceList(c Ctx, elems []Value, sl *SliceObj) (*List, error) {
	return SliceListInto(c, elems, sl, nil, nil)
}

// SliceListInto is elems[sl] as a new list, charged as list slicing is;
// with dst and buf non-nil the result is dst, its elements in *buf (grown
// when short) instead of in new Go memory. The VM passes them for a
// temporary that nothing can keep (vm's sliceTemp): the charges and what
// the live-heap walk sees are those of a new list either way.
func SliceListInto(c Ctx, elems []Value, sl *SliceObj, dst *List, buf *[]Value) (*List, error) {
	start, _, step, count, err := sl.Indices(c, len(elems))
	if err != nil {
		return nil, err
	}
	if err := Charge(c, uint64(count)*meter.CostPerElem); err != nil {
		return nil, err
	}
	if err := AllocSlots(c, meter.SizeListHeader, uint64(count), meter.SizePointer); err != nil {
		return nil, err
	}
	var l *List
	var out []Value
	if dst != nil {
		if cap(*buf) < count {
			*buf = make([]Value, count)
		}
		l, out = dst, (*buf)[:count:count]
	} else if count <= len(smallList{}.arr) {
		small := &smallList{}
		l, out = &small.List, small.arr[:count:count] // full: an append moves the list out
	} else {
		l, out = &List{}, make([]Value, count)
	}
	for j := range out {
		out[j] = elems[start+j*step]
	}
	l.Elems = out
	return l, nil
}

// smallList is a List allocated together with the array of its first
// elements.
type smallList struct {
	List
	arr [8]Value
}

func sliceBytes(c Ctx, s string, sl *SliceObj) (string, error) {
	start, _, step, count, err := sl.Indices(c, len(s))
	if err != nil {
		return "", err
	}
	if err := Charge(c, uint64(count)*meter.CostPerChar); err != nil {
		return "", err
	}
	if err := Alloc(c, meter.SizeStrHeader+uint64(count)); err != nil {
		return "", err
	}
	if step == 1 {
		return s[start : start+count], nil
	}
	var b strings.Builder
	b.Grow(count)
	for j := 0; j < count; j++ {
		b.WriteByte(s[start+j*step])
	}
	return b.String(), nil
}

// SetItem is x[i] = v.
func SetItem(c Ctx, x, i, v Value) error {
	switch s := x.(type) {
	case *List:
		if sl, ok := i.(*SliceObj); ok {
			return setListSlice(c, s, sl, v)
		}
		k, err := seqIndex(c, i, len(s.Elems), "list assignment")
		if err != nil {
			return err
		}
		s.Elems[k] = v
		return nil
	case *Dict:
		if err := Charge(c, meter.CostDictGetSet); err != nil {
			return err
		}
		return s.Set(c, i, v)
	case *ByteArray:
		if sl, ok := i.(*SliceObj); ok {
			return setByteArraySlice(c, s, sl, v)
		}
		k, err := seqIndex(c, i, len(s.B), "bytearray")
		if err != nil {
			return err
		}
		b, ok := AsInt64(v)
		if !ok || b < 0 || b > 255 {
			return Errorf(ValueError, "byte must be in range(0, 256)")
		}
		s.B[k] = byte(b)
		return nil
	case *Instance:
		if m, _ := s.Class.Lookup("__setitem__"); m != nil {
			_, err := c.Call(m, []Value{s, i, v}, nil)
			return err
		}
	}
	return Errorf(TypeError, "'%s' object does not support item assignment", TypeName(x))
}

func setListSlice(c Ctx, l *List, sl *SliceObj, v Value) error {
	// list(v) as CPython takes it, charged so; the elements of another
	// list or tuple are read in place instead of copied, which changes
	// nothing visible: they are read before anything else runs.
	self, _ := v.(*List)
	src, err := listElems(c, v, self == l)
	if err != nil {
		return err
	}
	start, stop, step, count, err := sl.Indices(c, len(l.Elems))
	if err != nil {
		return err
	}
	if step == 1 {
		if stop < start {
			stop = start
		}
		if len(src) == stop-start {
			copy(l.Elems[start:stop], src)
			return nil
		}
		out := make([]Value, 0, len(l.Elems)-(stop-start)+len(src))
		out = append(out, l.Elems[:start]...)
		out = append(out, src...)
		out = append(out, l.Elems[stop:]...)
		l.Elems = out
		return nil
	}
	if len(src) != count {
		return Errorf(ValueError, "attempt to assign sequence of size %d to extended slice of size %d", len(src), count)
	}
	for j := 0; j < count; j++ {
		l.Elems[start+j*step] = src[j]
	}
	return nil
}

func setByteArraySlice(c Ctx, ba *ByteArray, sl *SliceObj, v Value) error {
	if isIntLike(v) {
		return Errorf(TypeError, "can assign only bytes, buffers, or iterables of ints in range(0, 256)")
	}
	src, err := bytesFrom(c, "bytearray", []Value{v}, nil)
	if err != nil {
		return err
	}
	start, stop, step, count, err := sl.Indices(c, len(ba.B))
	if err != nil {
		return err
	}
	if step == 1 {
		if stop < start {
			stop = start
		}
		if err := Alloc(c, uint64(len(src))); err != nil {
			return err
		}
		out := make([]byte, 0, len(ba.B)-(stop-start)+len(src))
		out = append(out, ba.B[:start]...)
		out = append(out, src...)
		ba.B = append(out, ba.B[stop:]...)
		return nil
	}
	if len(src) == 0 && count > 0 {
		// CPython's bytearray treats an empty value as deletion, also for
		// extended slices (bytearray_ass_subscript).
		return DelItem(c, ba, sl)
	}
	if len(src) != count {
		return Errorf(ValueError, "attempt to assign bytes of size %d to extended slice of size %d", len(src), count)
	}
	for j := 0; j < count; j++ {
		ba.B[start+j*step] = src[j]
	}
	return nil
}

// DelItem is del x[i].
func DelItem(c Ctx, x, i Value) error {
	switch s := x.(type) {
	case *List:
		if sl, ok := i.(*SliceObj); ok {
			start, _, step, count, err := sl.Indices(c, len(s.Elems))
			if err != nil {
				return err
			}
			if count == 0 {
				return nil
			}
			drop := make(map[int]bool, count)
			for j := 0; j < count; j++ {
				drop[start+j*step] = true
			}
			out := s.Elems[:0]
			for j, e := range s.Elems {
				if !drop[j] {
					out = append(out, e)
				}
			}
			for j := len(out); j < len(s.Elems); j++ {
				s.Elems[j] = nil
			}
			s.Elems = out
			return nil
		}
		k, err := seqIndex(c, i, len(s.Elems), "list assignment")
		if err != nil {
			return err
		}
		s.Elems = append(s.Elems[:k], s.Elems[k+1:]...)
		return nil
	case *ByteArray:
		if sl, ok := i.(*SliceObj); ok {
			start, _, step, count, err := sl.Indices(c, len(s.B))
			if err != nil {
				return err
			}
			out := make([]byte, 0, len(s.B)-count)
			for j, b := range s.B {
				if k := j - start; count > 0 && k%step == 0 && k/step >= 0 && k/step < count {
					continue
				}
				out = append(out, b)
			}
			s.B = out
			return nil
		}
		k, err := seqIndex(c, i, len(s.B), "bytearray")
		if err != nil {
			return err
		}
		s.B = append(s.B[:k], s.B[k+1:]...)
		return nil
	case *Dict:
		_, ok, err := s.Delete(c, i)
		if err != nil {
			return err
		}
		if !ok {
			return Raise(NewException(KeyError, i))
		}
		return nil
	case *Instance:
		if m, _ := s.Class.Lookup("__delitem__"); m != nil {
			_, err := c.Call(m, []Value{s, i}, nil)
			return err
		}
	}
	return Errorf(TypeError, "'%s' object doesn't support item deletion", TypeName(x))
}
