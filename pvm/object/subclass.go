package object

// Subclasses of builtin types (class Counter(dict), class Point(tuple),
// class Color(int, Enum)).
//
// An instance of such a class is an *Instance whose Base holds the builtin
// value it extends (an Int, Str, Tuple, *List, *Dict, ...). The builtin
// class gets the dunder methods CPython's type slots provide (__len__,
// __getitem__, __eq__, __add__, __new__, __init__, ...); each unwraps its
// receiver to Base and runs the builtin operation on it, so the ordinary
// instance protocol (look the dunder up along the MRO, call it) reaches the
// builtin behaviour unless the subclass overrides it, and super().__init__()
// or dict.__setitem__(self, k, v) work as in Python. Builtin methods of
// those classes (dict.get, list.append, str.upper) unwrap their receiver in
// guardReceivers. Operations on plain builtin values never look these
// methods up, so they cost nothing there.

// subclassable reports whether user classes may derive from builtin type b.
func subclassable(b *Class) bool {
	switch b {
	case IntClass, FloatClass, StrClass, BytesClass, ListClass, TupleClass, DictClass, SetClass, FrozenSetClass, TypeClass:
		return true
	}
	return false
}

// zeroOf is the builtin value a fresh instance of a subclass of solid
// starts from (object.__new__(cls) and the mutable types' __new__).
func zeroOf(solid *Class) Value {
	switch solid {
	case IntClass:
		return Int(0)
	case FloatClass:
		return Float(0)
	case StrClass:
		return Str("")
	case BytesClass:
		return Bytes("")
	case ListClass:
		return &List{}
	case TupleClass:
		return Tuple{}
	case DictClass:
		return NewDict()
	case SetClass:
		return NewSet(false)
	case FrozenSetClass:
		return NewSet(true)
	}
	return nil
}

// BaseOf is the builtin value v extends when v is an instance of a
// subclass of a builtin type, else v itself.
func BaseOf(v Value) Value {
	if in, ok := v.(*Instance); ok && in.Base != nil {
		return in.Base
	}
	return v
}

// MetaMethod finds name on the metaclass of k when that metaclass is a user
// class and defines it (EnumMeta.__iter__, ABCMeta.__instancecheck__); nil
// otherwise, so plain classes keep type's builtin behaviour.
func MetaMethod(k *Class, name string) Value {
	if k.Meta == nil {
		return nil
	}
	m, owner := k.Meta.Lookup(name)
	if m == nil || owner.Module == "builtins" {
		return nil
	}
	return m
}

// CallMeta calls a metaclass dunder found by MetaMethod with the class as
// its receiver.
func CallMeta(c Ctx, m Value, k *Class, args ...Value) (Value, error) {
	full := make([]Value, 0, len(args)+1)
	full = append(full, k)
	full = append(full, args...)
	return c.Call(m, full, nil)
}

// receiver checks the self argument of a slot method of k and returns the
// builtin value to operate on.
func receiver(k *Class, name string, args []Value) (Value, error) {
	if len(args) == 0 {
		return nil, Errorf(TypeError, "unbound method %s.%s() needs an argument", k.Name, name)
	}
	if !args[0].Type().IsSubclass(k) {
		return nil, Errorf(TypeError, "descriptor '%s' requires a '%s' object but received a '%s'", name, k.Name, TypeName(args[0]))
	}
	return BaseOf(args[0]), nil
}

type slotFn func(c Ctx, self Value, args []Value, kw []Kw) (Value, error)

// defSlot installs a slot method on k unless k already defines name.
func defSlot(k *Class, name string, nargs int, fn slotFn) {
	if _, ok := k.Dict.Get(name); ok {
		return
	}
	k.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
		self, err := receiver(k, name, args)
		if err != nil {
			return nil, err
		}
		if nargs >= 0 {
			if len(kw) > 0 {
				return nil, Errorf(TypeError, "%s.%s() takes no keyword arguments", k.Name, name)
			}
			if len(args)-1 != nargs {
				return nil, Errorf(TypeError, "expected %d argument%s, got %d", nargs, pluralS(nargs), len(args)-1)
			}
		}
		return fn(c, self, args, kw)
	}))
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func initSubclassing() {
	ObjectClass.Dict.Set("__delattr__", slot("__delattr__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("__delattr__", args, 2, 2); err != nil {
			return nil, err
		}
		name, ok := args[1].(Str)
		in, ok2 := args[0].(*Instance)
		if !ok || !ok2 {
			return nil, Errorf(TypeError, "attribute name must be string")
		}
		if !in.Dict.Delete(string(name)) {
			return nil, attrError(in, string(name))
		}
		return None, nil
	}))
	all := []*Class{IntClass, FloatClass, StrClass, BytesClass, ListClass, TupleClass, DictClass, SetClass, FrozenSetClass}
	for _, k := range all {
		k := k
		defSlot(k, "__repr__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			s, err := Repr(c, self)
			return Str(s), err
		})
		cmpSlots(k)
		switch k {
		case ListClass, DictClass, SetClass:
			k.Dict.Set("__hash__", None)
		default:
			defSlot(k, "__hash__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				h, err := HashOf(c, self)
				return Int(h), err
			})
		}
		if k != IntClass && k != FloatClass {
			defSlot(k, "__len__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				n, err := Len(c, self)
				return Int(n), err
			})
			defSlot(k, "__iter__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				return Iter(c, self)
			})
			defSlot(k, "__contains__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				r, err := Contains(c, self, args[1])
				return MakeBool(r), err
			})
		}
		k.Dict.Set("__new__", &StaticMethod{Fn: NewBuiltin("__new__", builtinNew(k))})
		defSlot(k, "__init__", -1, builtinInit(k))
	}
	for _, k := range []*Class{StrClass, BytesClass, ListClass, TupleClass, DictClass} {
		k := k
		defSlot(k, "__getitem__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			r, err := GetItem(c, self, args[1])
			if err != nil && k == DictClass {
				if in, ok := args[0].(*Instance); ok {
					if e, isExc := err.(*Exception); isExc && e.Value.Class == KeyError {
						if m, _ := in.Class.Lookup("__missing__"); m != nil {
							return c.Call(m, []Value{in, args[1]}, nil)
						}
					}
				}
			}
			return r, err
		})
	}
	for _, k := range []*Class{ListClass, DictClass} {
		defSlot(k, "__setitem__", 2, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			return None, SetItem(c, self, args[1], args[2])
		})
		defSlot(k, "__delitem__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			return None, DelItem(c, self, args[1])
		})
	}
	binary := binarySlots
	binary(IntClass, OpAdd, OpSub, OpMul, OpTrueDiv, OpFloorDiv, OpMod, OpPow, OpLShift, OpRShift, OpAnd, OpOr, OpXor)
	binary(FloatClass, OpAdd, OpSub, OpMul, OpTrueDiv, OpFloorDiv, OpMod, OpPow)
	binary(StrClass, OpAdd, OpMul, OpMod)
	binary(BytesClass, OpAdd, OpMul, OpMod)
	binary(ListClass, OpAdd, OpMul)
	binary(TupleClass, OpAdd, OpMul)
	binary(DictClass, OpOr)
	binary(SetClass, OpOr, OpAnd, OpSub, OpXor)
	binary(FrozenSetClass, OpOr, OpAnd, OpSub, OpXor)
	for _, k := range []*Class{ListClass, DictClass, SetClass} {
		k := k
		for _, op := range []Op{OpAdd, OpMul, OpOr, OpAnd, OpSub, OpXor} {
			op := op
			if _, ok := k.Dict.Get(binNames[op][0]); !ok {
				continue
			}
			defSlot(k, "__i"+binNames[op][0][2:], 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				r, err := Inplace(c, op, self, BaseOf(args[1]))
				if err != nil {
					return nil, err
				}
				if r == self {
					return args[0], nil
				}
				return r, nil
			})
		}
	}
	for _, k := range []*Class{IntClass, FloatClass} {
		k := k
		unary := map[string]Op{"__neg__": OpNeg, "__pos__": OpPos, "__abs__": OpAbs}
		if k == IntClass {
			unary["__invert__"] = OpInvert
		}
		for _, name := range []string{"__neg__", "__pos__", "__abs__", "__invert__"} {
			op, ok := unary[name]
			if !ok {
				continue
			}
			defSlot(k, name, 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				return Unary(c, op, self)
			})
		}
		defSlot(k, "__bool__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			t, err := Truth(c, self)
			return MakeBool(t), err
		})
		defSlot(k, "__float__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			return newFloat(c, FloatClass, []Value{self}, nil)
		})
		defSlot(k, "__int__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			return newInt(c, IntClass, []Value{self}, nil)
		})
	}
	// int.__index__ is the exact int value, also of an instance of a
	// subclass (CPython's long_long copies it).
	defSlot(IntClass, "__index__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		if n, ok := exactInt(self); ok {
			return n, nil
		}
		return self, nil
	})
	for _, k := range []*Class{IntClass, FloatClass, StrClass} {
		defSlot(k, "__format__", 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			spec, ok := args[1].(Str)
			if !ok {
				return nil, Errorf(TypeError, "format() argument 2 must be str, not %s", TypeName(args[1]))
			}
			s, err := Format(c, self, string(spec))
			return Str(s), err
		})
	}
	defSlot(StrClass, "__str__", 0, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		return self, nil
	})
	initBuiltinDunders()
}

// strictOperand reports, for a slot method called directly on a plain
// builtin value ((1).__add__(2.5), "a".__eq__(1)), whether CPython's slot
// of self's type accepts other at all: int's slots take only ints (a float
// operand is left to float's reflected method). Calls through instances of
// subclasses keep the lenient behaviour the operators rely on.
func strictOperand(args []Value, other Value) bool {
	if _, isInst := args[0].(*Instance); isInst {
		return true
	}
	switch args[0].(type) {
	case Int, *BigInt, Bool:
		switch other.(type) {
		case Int, *BigInt, Bool:
			return true
		}
		return false
	}
	return true
}

// cmpSlots installs the rich comparison methods of builtin type k.
func cmpSlots(k *Class) {
	for _, op := range []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe} {
		op := op
		name, _ := cmpDunder(op)
		defSlot(k, name, 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
			other := BaseOf(args[1])
			if _, isInst := other.(*Instance); isInst || !strictOperand(args, other) {
				return NotImplemented, nil
			}
			r, ok, err := builtinCompare(c, op, self, other)
			if err != nil {
				if e, isExc := err.(*Exception); isExc && e.Value.Class == TypeError && op != OpEq && op != OpNe {
					return NotImplemented, nil
				}
				return nil, err
			}
			if !ok {
				return NotImplemented, nil
			}
			return r, nil
		})
	}
}

// binarySlots installs the binary operator methods (__add__, __radd__, ...)
// of builtin type k for ops.
func binarySlots(k *Class, ops ...Op) {
	for _, op := range ops {
		op := op
		for side := 0; side < 2; side++ {
			side := side
			defSlot(k, binNames[op][side], 1, func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
				x, y := self, BaseOf(args[1])
				if _, isInst := y.(*Instance); isInst || !strictOperand(args, y) {
					return NotImplemented, nil
				}
				if side == 1 {
					x, y = y, x
				}
				r, err := builtinBinary(c, op, x, y)
				if r == nil && err == nil {
					if _, isInst := args[0].(*Instance); !isInst && side == 0 && isSeq(self) {
						// Sequence concatenation and repetition raise
						// rather than defer (CPython's sq_concat,
						// sq_repeat).
						if op == OpMul {
							return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(y))
						}
						if op == OpAdd {
							return binaryDunders(c, op, x, y)
						}
					}
					return NotImplemented, nil
				}
				return r, err
			})
		}
	}
}

// builtinNew is k.__new__(cls, ...): it builds k's value from the
// arguments (immutable types) or an empty value (list, dict, set, whose
// __init__ fills it), and wraps it in an instance when cls is a subclass.
func builtinNew(k *Class) func(c Ctx, args []Value, kw []Kw) (Value, error) {
	return func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeError, "%s.__new__(): not enough arguments", k.Name)
		}
		cls, ok := args[0].(*Class)
		if !ok {
			return nil, Errorf(TypeError, "%s.__new__(X): X is not a type object (%s)", k.Name, TypeName(args[0]))
		}
		if !cls.IsSubclass(k) {
			return nil, Errorf(TypeError, "%s.__new__(%s): %s is not a subtype of %s", k.Name, cls.Name, cls.Name, k.Name)
		}
		var v Value
		switch k {
		case ListClass, DictClass, SetClass:
			v = zeroOf(k)
		default:
			r, err := k.New(c, k, args[1:], kw)
			if err != nil {
				return nil, err
			}
			v = r
		}
		if cls == k {
			return v, nil
		}
		in, err := NewInstance(c, cls)
		if err != nil {
			return nil, err
		}
		in.Base = v
		return in, nil
	}
}

// builtinInit is k.__init__: list, dict and set fill themselves from the
// arguments; the immutable types were built by __new__ and ignore them.
func builtinInit(k *Class) slotFn {
	return func(c Ctx, self Value, args []Value, kw []Kw) (Value, error) {
		rest := args[1:]
		switch s := self.(type) {
		case *List:
			if err := NoKw("list", kw); err != nil {
				return nil, err
			}
			if err := ArgCount("list", rest, 0, 1); err != nil {
				return nil, err
			}
			s.Elems = s.Elems[:0]
			if len(rest) == 1 {
				if err := extendList(c, s, rest[0]); err != nil {
					return nil, err
				}
			}
		case *Dict:
			if err := ArgCount("dict", rest, 0, 1); err != nil {
				return nil, err
			}
			if len(rest) == 1 {
				if err := dictUpdate(c, s, rest[0]); err != nil {
					return nil, err
				}
			}
			for _, a := range kw {
				if err := s.Set(c, Str(a.Name), a.Value); err != nil {
					return nil, err
				}
			}
		case *Set:
			if s.Frozen {
				return None, nil
			}
			if err := NoKw("set", kw); err != nil {
				return nil, err
			}
			if err := ArgCount("set", rest, 0, 1); err != nil {
				return nil, err
			}
			s.ht.clear()
			if len(rest) == 1 {
				if err := Iterate(c, rest[0], func(v Value) error { return s.Add(c, v) }); err != nil {
					return nil, err
				}
			}
		}
		return None, nil
	}
}
