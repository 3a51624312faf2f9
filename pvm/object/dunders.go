package object

import "github.com/cowboy-chain/cowboy/pvm/softfloat"

// Dunder methods of builtin values called by name: [].__iter__(),
// it.__next__(), d.__getitem__(k), ba.__setitem__(i, v), (1).__add__(2),
// "a".__len__(). Each builtin type's method table holds the slot methods
// CPython's type provides; every one runs the same protocol operation as
// the syntax it stands for (Len, Iter, GetItem, Binary, ...), so calling a
// dunder by name costs and behaves like the operation. The operations
// themselves never look these up on plain builtin values.
//
// Iterators come from many Go types (list and dict iterators here, map,
// zip, generators in the vm package); GetAttr gives every Iterator its
// __iter__ and __next__ through iteratorDunder instead.

// DefSlot installs a slot method on builtin class k unless k already
// defines name; nargs is the exact count of arguments after self, or -1
// for any. The vm package adds the slots that need its builtins.
func DefSlot(k *Class, name string, nargs int, fn func(c Ctx, self Value, args []Value, kw []Kw) (Value, error)) {
	defSlot(k, name, nargs, fn)
}

func initBuiltinDunders() {
	lenSlot := func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		n, err := Len(c, self)
		return Int(n), err
	}
	iterSlot := func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return Iter(c, self)
	}
	containsSlot := func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		r, err := Contains(c, self, args[1])
		return MakeBool(r), err
	}
	getitemSlot := func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return GetItem(c, self, args[1])
	}
	for _, k := range []*Class{ByteArrayClass, RangeClass, DictViewClasses[0], DictViewClasses[1], DictViewClasses[2]} {
		defSlot(k, "__len__", 0, lenSlot)
		defSlot(k, "__iter__", 0, iterSlot)
	}
	for _, k := range []*Class{ByteArrayClass, RangeClass, DictViewClasses[0], DictViewClasses[2]} {
		defSlot(k, "__contains__", 1, containsSlot)
	}
	for _, k := range []*Class{ByteArrayClass, RangeClass} {
		defSlot(k, "__getitem__", 1, getitemSlot)
	}
	defSlot(ByteArrayClass, "__setitem__", 2, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return None, SetItem(c, self, args[1], args[2])
	})
	defSlot(ByteArrayClass, "__delitem__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return None, DelItem(c, self, args[1])
	})
	defSlot(ByteArrayClass, "__repr__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		s, err := Repr(c, self)
		return Str(s), err
	})
	ByteArrayClass.Dict.Set("__hash__", None)
	binarySlots(ByteArrayClass, OpAdd, OpMul, OpMod)
	defSlot(ByteArrayClass, "__iadd__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return Inplace(c, OpAdd, self, args[1])
	})
	for _, k := range []*Class{ByteArrayClass, RangeClass, SliceClass} {
		cmpSlots(k)
	}
	defSlot(NoneClass, "__bool__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return False, nil
	})
	defSlot(NoneClass, "__repr__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return Str("None"), nil
	})

	// int and float: the rounding and divmod slots.
	for _, k := range []*Class{IntClass, FloatClass} {
		k := k
		for side, name := range []string{"__divmod__", "__rdivmod__"} {
			side := side
			defSlot(k, name, 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				x, y := self, BaseOf(args[1])
				if _, isInst := y.(*Instance); isInst || !strictOperand(args, y) {
					return NotImplemented, nil
				}
				switch y.(type) {
				case Int, *BigInt, Bool, Float:
				default:
					return NotImplemented, nil
				}
				if side == 1 {
					x, y = y, x
				}
				q, err := Binary(c, OpFloorDiv, x, y)
				if err != nil {
					if e, ok := err.(*Exception); ok && e.Value.Class == ZeroDivisionError && k == FloatClass {
						return nil, Errorf(ZeroDivisionError, "float divmod()")
					}
					return nil, err
				}
				r, err := Binary(c, OpMod, x, y)
				if err != nil {
					return nil, err
				}
				return Tuple{q, r}, nil
			})
		}
	}
	for _, name := range []string{"__trunc__", "__floor__", "__ceil__"} {
		defSlot(IntClass, name, 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			return Binary(c, OpAdd, self, Int(0)) // an exact int, never a bool
		})
	}
	// A slice, not a map: the class dict's order must not depend on Go's
	// map iteration.
	for _, r := range []struct {
		name string
		f    func(softfloat.F64) softfloat.F64
	}{{"__trunc__", softfloat.Trunc}, {"__floor__", softfloat.Floor}, {"__ceil__", softfloat.Ceil}} {
		f := r.f
		defSlot(FloatClass, r.name, 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			x, _ := self.(Float)
			return FloatToInt(f(softfloat.FromFloat64(float64(x))).Float64())
		})
	}
}

// iteratorDunder is __iter__ or __next__ of an iterator of any Go type,
// bound to it; nil for other names or values.
func iteratorDunder(v Value, name string) Value {
	it, ok := v.(Iterator)
	if !ok {
		return nil
	}
	switch name {
	case "__iter__":
		return &BoundMethod{Self: it, Fn: iterSelf}
	case "__next__":
		return &BoundMethod{Self: it, Fn: iterNext}
	}
	return nil
}

var iterSelf = method("__iter__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
	if err := ArgCount("__iter__", args, 1, 1); err != nil {
		return nil, err
	}
	return args[0], nil
})

var iterNext = method("__next__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
	if err := ArgCount("__next__", args, 1, 1); err != nil {
		return nil, err
	}
	v, ok, err := Next(c, args[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, Raise(NewException(StopIteration))
	}
	return v, nil
})
