package object

import (
	"math"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// List is a Python list.
type List struct{ Elems []Value }

// NewList allocates a list holding elems (taken, not copied), charging its
// size to the meter.
func NewList(c Ctx, elems []Value) (*List, error) {
	if err := AllocSlots(c, meter.SizeListHeader, uint64(len(elems)), meter.SizePointer); err != nil {
		return nil, err
	}
	return &List{Elems: elems}, nil
}

// Type implements Value.
func (*List) Type() *Class { return ListClass }

// Truth implements Value.
func (l *List) Truth(Ctx) (bool, error) { return len(l.Elems) > 0, nil }

// Hash implements Value.
func (*List) Hash(Ctx) (int64, error) { return 0, Errorf(TypeError, "unhashable type: 'list'") }

// Len is len(l).
func (l *List) Len() int { return len(l.Elems) }

// Repr implements Value.
func (l *List) Repr(c Ctx) (string, error) { return seqRepr(c, l, l.Elems, "[", "]") }

// Append adds v, charging one slot.
func (l *List) Append(c Ctx, v Value) error {
	if err := Alloc(c, meter.SizePointer); err != nil {
		return err
	}
	if len(l.Elems) == cap(l.Elems) {
		l.grow()
	}
	l.Elems = append(l.Elems, v)
	return nil
}

// grow doubles the capacity of a full list (Go's append grows large
// slices by a quarter, which for a list built by appends allocates and
// copies about five times its final size, against twice by doubling).
// Capacity is not observable: memory is metered per element appended.
func (l *List) grow() {
	n := 2 * cap(l.Elems)
	if n < 8 {
		n = 8
	}
	elems := make([]Value, len(l.Elems), n)
	copy(elems, l.Elems)
	l.Elems = elems
}

// Tuple is a Python tuple.
type Tuple []Value

// Type implements Value.
func (Tuple) Type() *Class { return TupleClass }

// Truth implements Value.
func (t Tuple) Truth(Ctx) (bool, error) { return len(t) > 0, nil }

// Len is len(t).
func (t Tuple) Len() int { return len(t) }

// Repr implements Value.
func (t Tuple) Repr(c Ctx) (string, error) {
	if len(t) == 1 {
		s, err := seqRepr(c, t, t, "(", "")
		return s + ",)", err
	}
	return seqRepr(c, t, t, "(", ")")
}

// Hash implements Value (CPython's xxHash-based tuple hash).
func (t Tuple) Hash(c Ctx) (int64, error) {
	const (
		p1 = 11400714785074694791
		p2 = 14029467366897019727
		p5 = 2870177450012600261
	)
	if err := c.Nest(); err != nil {
		return 0, err
	}
	defer c.Unnest()
	var acc uint64 = p5
	for _, v := range t {
		h, err := HashOf(c, v)
		if err != nil {
			return 0, err
		}
		acc += uint64(h) * p2
		acc = acc<<31 | acc>>33
		acc *= p1
	}
	acc += uint64(len(t)) ^ (p5 ^ 3527539)
	if acc == math.MaxUint64 {
		return 1546275796, nil
	}
	return int64(acc), nil
}

func seqRepr(c Ctx, self Value, elems []Value, open, close string) (string, error) {
	if err := c.Nest(); err != nil {
		return "", err
	}
	defer c.Unnest()
	buf := []byte(open)
	for i := 0; i < len(elems); i++ {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		s, err := reprNested(c, elems[i], self)
		if err != nil {
			return "", err
		}
		buf = append(buf, s...)
	}
	return string(append(buf, close...)), nil
}

// reprNested is Repr with the direct self-reference case printed as Python
// prints it ([...] / {...}).
func reprNested(c Ctx, v, container Value) (string, error) {
	if identical(v, container) {
		switch container.(type) {
		case *List:
			return "[...]", nil
		case *Dict:
			return "{...}", nil
		}
	}
	return Repr(c, v)
}

// seqIter iterates a list, tuple, str, bytes or bytearray by index, reading
// the length each step as Python does.
type seqIter struct {
	seq Value
	i   int
}

// Type implements Value.
func (*seqIter) Type() *Class { return IteratorClass }

// Repr implements Value.
func (it *seqIter) Repr(Ctx) (string, error) {
	return "<" + it.seq.Type().Name + "_iterator object>", nil
}

// Truth implements Value.
func (*seqIter) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*seqIter) Hash(Ctx) (int64, error) { return 0x73657169, nil }

// NextInList is seqIter.Next's list case, small enough for the
// interpreter loop to inline: the next item of an iterator over a list,
// and true; false, having done nothing, for any other iterator and for
// an exhausted one (Next then answers as before).
func NextInList(it Value) (Value, bool) {
	if s, ok := it.(*seqIter); ok {
		if l, ok := s.seq.(*List); ok && s.i >= 0 && s.i < len(l.Elems) {
			v := l.Elems[s.i]
			s.i++
			return v, true
		}
	}
	return nil, false
}

// Next implements Iterator.
func (it *seqIter) Next(c Ctx) (Value, bool, error) {
	switch s := it.seq.(type) {
	case *List:
		if it.i < len(s.Elems) {
			it.i++
			return s.Elems[it.i-1], true, nil
		}
	case Tuple:
		if it.i < len(s) {
			it.i++
			return s[it.i-1], true, nil
		}
	case Str:
		if it.i < len(s) {
			r, n := decodeRune(string(s[it.i:]))
			it.i += n
			return Str(string(r)), true, nil
		}
	case Bytes:
		if it.i < len(s) {
			it.i++
			return Int(s[it.i-1]), true, nil
		}
	case *ByteArray:
		if it.i < len(s.B) {
			it.i++
			return Int(s.B[it.i-1]), true, nil
		}
	}
	return nil, false, nil
}

// Range is a Python range with int64 bounds.
type Range struct{ Start, Stop, Step int64 }

// Type implements Value.
func (*Range) Type() *Class { return RangeClass }

// Repr implements Value.
func (r *Range) Repr(Ctx) (string, error) {
	s := "range(" + itoa(r.Start) + ", " + itoa(r.Stop)
	if r.Step != 1 {
		s += ", " + itoa(r.Step)
	}
	return s + ")", nil
}

// Truth implements Value.
func (r *Range) Truth(Ctx) (bool, error) { return r.Len() > 0, nil }

// Hash implements Value.
func (r *Range) Hash(c Ctx) (int64, error) {
	return Tuple{Int(r.Len()), Int(r.Start), Int(r.Step)}.Hash(c)
}

// Len is the number of elements.
func (r *Range) Len() int {
	var n int64
	if r.Step > 0 && r.Start < r.Stop {
		n = (r.Stop - r.Start + r.Step - 1) / r.Step
	} else if r.Step < 0 && r.Start > r.Stop {
		n = (r.Start - r.Stop - r.Step - 1) / -r.Step
	}
	return int(n)
}

// At is the i-th element (0 <= i < Len).
func (r *Range) At(i int) int64 { return r.Start + int64(i)*r.Step }

type rangeIter struct {
	next, step int64
	left       int
}

// Type implements Value.
func (*rangeIter) Type() *Class { return IteratorClass }

// Repr implements Value.
func (*rangeIter) Repr(Ctx) (string, error) { return "<range_iterator object>", nil }

// Truth implements Value.
func (*rangeIter) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*rangeIter) Hash(Ctx) (int64, error) { return 0x72616e67, nil }

// Next implements Iterator.
func (it *rangeIter) Next(Ctx) (Value, bool, error) {
	if it.left <= 0 {
		return nil, false, nil
	}
	v := it.next
	it.next += it.step
	it.left--
	return MakeInt(v), true, nil
}

// SliceObj is a slice object (start:stop:step).
type SliceObj struct{ Start, Stop, Step Value }

// Type implements Value.
func (*SliceObj) Type() *Class { return SliceClass }

// Repr implements Value.
func (s *SliceObj) Repr(c Ctx) (string, error) {
	a, _ := Repr(c, s.Start)
	b, _ := Repr(c, s.Stop)
	d, _ := Repr(c, s.Step)
	return "slice(" + a + ", " + b + ", " + d + ")", nil
}

// Truth implements Value.
func (*SliceObj) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*SliceObj) Hash(Ctx) (int64, error) { return 0, Errorf(TypeError, "unhashable type: 'slice'") }

// Indices resolves the slice against a sequence of length n, as
// slice.indices does, returning start, stop, step and the element count.
func (s *SliceObj) Indices(c Ctx, n int) (start, stop, step, count int, err error) {
	step = 1
	if !IsNone(s.Step) {
		st, err := IndexValue(c, s.Step, "slice indices must be integers or None or have an __index__ method")
		if err != nil {
			return 0, 0, 0, 0, err
		}
		if st == 0 {
			return 0, 0, 0, 0, Errorf(ValueError, "slice step cannot be zero")
		}
		step = clampInt(st)
	}
	lower, upper := 0, n
	if step < 0 {
		lower, upper = -1, n-1
	}
	bound := func(v Value, def int) (int, error) {
		if IsNone(v) {
			return def, nil
		}
		i, err := IndexValue(c, v, "slice indices must be integers or None or have an __index__ method")
		if err != nil {
			return 0, err
		}
		x := clampInt(i)
		if x < 0 {
			x += n
			if x < lower {
				x = lower
			}
		} else if x > upper {
			x = upper
		}
		return x, nil
	}
	if step > 0 {
		start, err = bound(s.Start, lower)
		if err == nil {
			stop, err = bound(s.Stop, upper)
		}
	} else {
		start, err = bound(s.Start, upper)
		if err == nil {
			stop, err = bound(s.Stop, lower)
		}
	}
	if err != nil {
		return 0, 0, 0, 0, err
	}
	if step > 0 && start < stop {
		count = (stop - start + step - 1) / step
	} else if step < 0 && start > stop {
		count = (start - stop - step - 1) / -step
	}
	return start, stop, step, count, nil
}

func clampInt(i int64) int {
	const lim = 1 << 40
	if i > lim {
		return lim
	}
	if i < -lim {
		return -lim
	}
	return int(i)
}

// IndexValue converts an int-like value (or an object with __index__) to
// int64 for indexing; big ints saturate so bounds checks still fail cleanly.
func IndexValue(c Ctx, v Value, msg string) (int64, error) {
	switch x := v.(type) {
	case Int:
		return int64(x), nil
	case Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case *BigInt:
		if x.v.Sign() < 0 {
			return math.MinInt64, nil
		}
		return math.MaxInt64, nil
	case *Instance:
		if n, ok := exactInt(x); ok {
			return IndexValue(c, n, msg)
		}
		if m, _ := x.Class.Lookup("__index__"); m != nil {
			n, err := Index(c, x)
			if err != nil {
				return 0, err
			}
			return IndexValue(c, n, msg)
		}
	}
	return 0, Errorf(TypeError, "%s", msg)
}

func itoa(i int64) string { s, _ := Int(i).Repr(nil); return s }
