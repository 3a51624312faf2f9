package object

import (
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Builtin classes.
var (
	ObjectClass          = &Class{Name: "object", Module: "builtins", Dict: NewStrDict(), builtinType: true}
	TypeClass            = newBuiltinClass("type", true, ObjectClass)
	NoneClass            = newBuiltinClass("NoneType", true, ObjectClass)
	IntClass             = newBuiltinClass("int", true, ObjectClass)
	BoolClass            = newBuiltinClass("bool", true, IntClass)
	FloatClass           = newBuiltinClass("float", true, ObjectClass)
	StrClass             = newBuiltinClass("str", true, ObjectClass)
	BytesClass           = newBuiltinClass("bytes", true, ObjectClass)
	ByteArrayClass       = newBuiltinClass("bytearray", true, ObjectClass)
	ListClass            = newBuiltinClass("list", true, ObjectClass)
	TupleClass           = newBuiltinClass("tuple", true, ObjectClass)
	DictClass            = newBuiltinClass("dict", true, ObjectClass)
	SetClass             = newBuiltinClass("set", true, ObjectClass)
	FrozenSetClass       = newBuiltinClass("frozenset", true, ObjectClass)
	RangeClass           = newBuiltinClass("range", true, ObjectClass)
	SliceClass           = newBuiltinClass("slice", true, ObjectClass)
	BuiltinFunctionClass = newBuiltinClass("builtin_function_or_method", true, ObjectClass)
	FunctionClass        = newBuiltinClass("function", true, ObjectClass)
	MethodClass          = newBuiltinClass("method", true, ObjectClass)
	PropertyClass        = newBuiltinClass("property", true, ObjectClass)
	StaticMethodClass    = newBuiltinClass("staticmethod", true, ObjectClass)
	ClassMethodClass     = newBuiltinClass("classmethod", true, ObjectClass)
	SuperClass           = newBuiltinClass("super", true, ObjectClass)
	GeneratorClass       = newBuiltinClass("generator", true, ObjectClass)
	CoroutineClass       = newBuiltinClass("coroutine", true, ObjectClass)
	ModuleClass          = newBuiltinClass("module", true, ObjectClass)
	IteratorClass        = newBuiltinClass("iterator", true, ObjectClass)
	CellClass            = newBuiltinClass("cell", true, ObjectClass)
	NotImplementedClass  = newBuiltinClass("NotImplementedType", true, ObjectClass)
	EllipsisClass        = newBuiltinClass("ellipsis", true, ObjectClass)
	DictViewClasses      = [3]*Class{
		newBuiltinClass("dict_keys", true, ObjectClass),
		newBuiltinClass("dict_values", true, ObjectClass),
		newBuiltinClass("dict_items", true, ObjectClass),
	}
)

// IsObjectInit reports whether v, a class's __init__ as Lookup finds it,
// is object.__init__: CPython's "tp_init == object_init", on which
// object.__new__ and object.__init__ decide whether extra constructor
// arguments are an error.
func IsObjectInit(v Value) bool {
	own, _ := ObjectClass.Dict.Get("__init__")
	return v != nil && v == own
}

// IsObjectNew reports whether v, a class's __new__ as Lookup finds it, is
// object.__new__ (CPython's "tp_new == object_new"), however it is
// wrapped: a class body that assigns object.__new__ stores it in a new
// staticmethod.
func IsObjectNew(v Value) bool {
	own, _ := ObjectClass.Dict.Get("__new__")
	if s, ok := v.(*StaticMethod); ok {
		v = s.Fn
	}
	if s, ok := own.(*StaticMethod); ok {
		own = s.Fn
	}
	return v != nil && v == own
}

// method makes a builtin method for a class dict.
func method(name string, fn func(c Ctx, args []Value, kw []Kw) (Value, error)) *Builtin {
	return &Builtin{Name: name, Fn: fn, Method: true}
}

func slot(name string, fn func(c Ctx, args []Value, kw []Kw) (Value, error)) *Builtin {
	return &Builtin{Name: name, Fn: fn, Method: true, objectSlot: true}
}

func init() {
	MarkShared(ObjectClass)
	ObjectClass.MRO = []*Class{ObjectClass}
	ListClass.pattern, TupleClass.pattern, RangeClass.pattern = collectionSequence, collectionSequence, collectionSequence
	DictClass.pattern = collectionMapping
	NotImplemented.cls = NotImplementedClass
	Ellipsis.cls = EllipsisClass

	ObjectClass.Dict.Set("__init__", slot("__init__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) > 1 || len(kw) > 0 {
			// object_init: extra arguments are an error when the type
			// overrides __init__ (they were meant for it), or when it
			// overrides neither __init__ nor __new__ (then object.__new__
			// has refused them first, unless called directly). A type
			// that overrides __new__ only takes its arguments there.
			k := args[0].Type()
			if !IsObjectInit(k.LookupInit()) {
				return nil, Errorf(TypeError, "object.__init__() takes exactly one argument (the instance to initialize)")
			}
			if IsObjectNew(k.LookupNew()) {
				return nil, Errorf(TypeError, "%s.__init__() takes exactly one argument (the instance to initialize)", k.Name)
			}
		}
		return None, nil
	}))
	ObjectClass.Dict.Set("__setattr__", slot("__setattr__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("__setattr__", args, 3, 3); err != nil {
			return nil, err
		}
		name, ok := args[1].(Str)
		in, ok2 := args[0].(*Instance)
		if !ok || !ok2 {
			return nil, Errorf(TypeError, "attribute name must be string")
		}
		return None, instanceSet(c, in, string(name), args[2])
	}))
	ObjectClass.Dict.Set("__eq__", slot("__eq__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("__eq__", args, 2, 2); err != nil {
			return nil, err
		}
		if identical(args[0], args[1]) {
			return True, nil
		}
		return NotImplemented, nil
	}))
	ObjectClass.Dict.Set("__hash__", slot("__hash__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if in, ok := args[0].(*Instance); ok {
			return Int(identityHash(in)), nil
		}
		h, err := HashOf(c, args[0])
		return Int(h), err
	}))
	ObjectClass.Dict.Set("__repr__", slot("__repr__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if in, ok := args[0].(*Instance); ok {
			return Str("<" + in.Class.Module + "." + in.Class.Qual() + " object at " + "0x" + padHex(in.ID, 1) + ">"), nil
		}
		s, err := Repr(c, args[0])
		return Str(s), err
	}))
	ObjectClass.Dict.Set("__str__", slot("__str__", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		s, err := Repr(c, args[0])
		return Str(s), err
	}))
	ObjectClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if len(args) > 0 || len(kw) > 0 {
			return nil, Errorf(TypeError, "object() takes no arguments")
		}
		return NewInstance(c, ObjectClass)
	}

	BoolClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("bool", args, 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return False, nil
		}
		t, err := Truth(c, args[0])
		return MakeBool(t), err
	}
	IntClass.New = newInt
	FloatClass.New = newFloat
	StrClass.New = newStr
	BytesClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		b, err := bytesFrom(c, "bytes", args, kw)
		return Bytes(b), err
	}
	ByteArrayClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		b, err := bytesFrom(c, "bytearray", args, kw)
		return &ByteArray{B: []byte(b)}, err
	}
	ListClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("list", args, 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return NewList(c, nil)
		}
		return ListOf(c, args[0])
	}
	TupleClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("tuple", args, 0, 1); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return Tuple{}, nil
		}
		if t, ok := args[0].(Tuple); ok {
			return t, nil
		}
		l, err := ListOf(c, args[0])
		if err != nil {
			return nil, err
		}
		return Tuple(l.Elems), nil
	}
	DictClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("dict", args, 0, 1); err != nil {
			return nil, err
		}
		d := NewDict()
		if len(args) == 1 {
			if err := dictUpdate(c, d, args[0]); err != nil {
				return nil, err
			}
		}
		for _, k := range kw {
			if err := d.Set(c, Str(k.Name), k.Value); err != nil {
				return nil, err
			}
		}
		return d, nil
	}
	setNew := func(frozen bool) func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		return func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(cls.Name, args, 0, 1); err != nil {
				return nil, err
			}
			if len(args) == 0 {
				return NewSet(frozen), nil
			}
			// Room for a small table at once: a set built from an
			// iterable mostly holds more than the four entries a first
			// insert makes room for, and growing to eight copies them (Go
			// memory only; nothing here is charged). The set and that
			// room are one Go allocation.
			small := &smallSet{Set: Set{Frozen: frozen}}
			s := &small.Set
			s.ht.entries = small.arr[:0:smallTable]
			if err := IterateInto(c, args[0], s, func(v Value) error { return s.Add(c, v) }); err != nil {
				return nil, err
			}
			return s, nil
		}
	}
	SetClass.New = setNew(false)
	FrozenSetClass.New = setNew(true)
	RangeClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := NoKw("range", kw); err != nil {
			return nil, err
		}
		if err := ArgCount("range", args, 1, 3); err != nil {
			return nil, err
		}
		var n [3]int64
		for i, a := range args {
			a, err := IndexArg(c, a)
			if err != nil {
				return nil, err
			}
			v, ok := AsInt64(a)
			if !ok {
				if _, big := a.(*BigInt); big {
					return nil, Errorf(OverflowError, "PVM: range bounds must fit in 64 bits")
				}
				return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(a))
			}
			n[i] = v
		}
		switch len(args) {
		case 1:
			return &Range{0, n[0], 1}, nil
		case 2:
			return &Range{n[0], n[1], 1}, nil
		}
		if n[2] == 0 {
			return nil, Errorf(ValueError, "range() arg 3 must not be zero")
		}
		return &Range{n[0], n[1], n[2]}, nil
	}
	SliceClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("slice", args, 1, 3); err != nil {
			return nil, err
		}
		switch len(args) {
		case 1:
			return &SliceObj{None, args[0], None}, nil
		case 2:
			return &SliceObj{args[0], args[1], None}, nil
		}
		return &SliceObj{args[0], args[1], args[2]}, nil
	}
	PropertyClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("property", args, kw, "fget?", "fset?", "fdel?", "doc?")
		if err != nil {
			return nil, err
		}
		p := &Property{Get: None, Set: None, Del: None}
		if a[0] != nil {
			p.Get = a[0]
		}
		if a[1] != nil {
			p.Set = a[1]
		}
		if a[2] != nil {
			p.Del = a[2]
		}
		return p, nil
	}
	PropertyClass.Dict.Set("setter", method("setter", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		p := args[0].(*Property)
		return &Property{Get: p.Get, Set: args[1], Del: p.Del}, nil
	}))
	PropertyClass.Dict.Set("deleter", method("deleter", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		p := args[0].(*Property)
		return &Property{Get: p.Get, Set: p.Set, Del: args[1]}, nil
	}))
	PropertyClass.Dict.Set("getter", method("getter", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		p := args[0].(*Property)
		return &Property{Get: args[1], Set: p.Set, Del: p.Del}, nil
	}))
	StaticMethodClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("staticmethod", args, 1, 1); err != nil {
			return nil, err
		}
		return &StaticMethod{Fn: args[0]}, nil
	}
	ClassMethodClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("classmethod", args, 1, 1); err != nil {
			return nil, err
		}
		return &ClassMethod{Fn: args[0]}, nil
	}
	TypeClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if len(args) == 1 && len(kw) == 0 {
			return args[0].Type(), nil
		}
		if len(args) == 3 {
			name, ok1 := args[0].(Str)
			bases, ok2 := args[1].(Tuple)
			ns, ok3 := args[2].(*Dict)
			if ok1 && ok2 && ok3 {
				bs := make([]*Class, len(bases))
				for i, b := range bases {
					k, ok := b.(*Class)
					if !ok {
						return nil, Errorf(TypeError, "bases must be types")
					}
					bs[i] = k
				}
				d := NewStrDict()
				for _, kv := range ns.Items() {
					k, ok := kv[0].(Str)
					if !ok {
						return nil, Errorf(TypeError, "attribute name must be string")
					}
					d.Set(string(k), kv[1])
				}
				return NewClass(string(name), "__main__", bs, d)
			}
		}
		return nil, Errorf(TypeError, "type() takes 1 or 3 arguments")
	}
	for _, k := range ExceptionClasses {
		_ = k
	}
	initStrMethods()
	initListMethods()
	initDictMethods()
	initSetMethods()
	initNumberMethods()
	initBytesMethods()
	initBytesStrMethods()
	initStrTranslate()
	initFloatHex()
	initMiscMethods()
	for _, k := range []*Class{ObjectClass, IntClass, BoolClass, FloatClass, StrClass, BytesClass,
		ByteArrayClass, ListClass, TupleClass, DictClass, SetClass, FrozenSetClass, RangeClass,
		PropertyClass, BaseException} {
		guardReceivers(k)
	}
	initSubclassing()
}

// guardReceivers makes every builtin method of k check its receiver, so a
// method called unbound with no or the wrong first argument
// (float.is_integer(), list.append(1, 2)) raises TypeError as in Python
// instead of reaching Go code that assumes the receiver's type.
func guardReceivers(k *Class) {
	k.Dict.Each(func(name string, v Value) {
		b, ok := v.(*Builtin)
		if !ok || !b.Method {
			return
		}
		inner := b.Fn
		b.Fn = func(c Ctx, args []Value, kw []Kw) (Value, error) {
			if len(args) == 0 {
				return nil, Errorf(TypeError, "unbound method %s.%s() needs an argument", k.Name, name)
			}
			if !args[0].Type().IsSubclass(k) {
				return nil, Errorf(TypeError, "descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, k.Name, TypeName(args[0]))
			}
			if in, ok := args[0].(*Instance); ok && in.Base != nil && k.builtinType && k != ObjectClass {
				// A subclass of a builtin type: the method works on the
				// builtin value the instance extends, with the arguments
				// copied after it (on the context's argument stack when
				// it has one; the method does not keep them).
				if as, ok := c.(ArgStacker); ok {
					full := as.PushArgs(len(args))
					full[0] = in.Base
					copy(full[1:], args[1:])
					r, err := inner(c, full, kw)
					as.PopArgs(full)
					return r, err
				}
				args = append([]Value{in.Base}, args[1:]...)
			}
			return inner(c, args, kw)
		}
	})
}

// badIntLiteral is int()'s ValueError for a str or bytes it cannot read:
// CPython formats the argument with %.200R, its repr cut to 200
// characters.
func badIntLiteral(base int64, v Value) error {
	var r string
	if b, ok := v.(Bytes); ok {
		r = bytesRepr("b", string(b))
	} else {
		r = strRepr(string(v.(Str)))
	}
	if n := 0; len(r) > 200 {
		for i := range r {
			if n == 200 {
				r = r[:i]
				break
			}
			n++
		}
	}
	return Errorf(ValueError, "invalid literal for int() with base %d: %s", base, r)
}

func newInt(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
	a, err := UnpackArgs("int", args, kw, "x?", "base?")
	if err != nil {
		return nil, err
	}
	if a[0] == nil {
		return Int(0), nil
	}
	if a[1] != nil {
		bv, err := Index(c, a[1])
		if err != nil {
			return nil, err
		}
		base, ok := AsInt64(bv)
		if !ok || base == 1 || base < 0 || base > 36 {
			return nil, Errorf(ValueError, "int() base must be >= 2 and <= 36, or 0")
		}
		s, ok := a[0].(Str)
		if !ok {
			if b, isB := a[0].(Bytes); isB {
				s = Str(b)
			} else {
				return nil, Errorf(TypeError, "int() can't convert non-string with explicit base")
			}
		}
		v, err := ParseInt(asciiDecimal(string(s)), int(base))
		if err == errBadInt {
			return nil, badIntLiteral(base, a[0])
		}
		return v, err
	}
	switch x := a[0].(type) {
	case Int, *BigInt:
		return x, nil
	case Bool:
		n, _ := AsInt64(x)
		return Int(n), nil
	case Float:
		return FloatToInt(float64(x))
	case Str:
		v, err := ParseInt(asciiDecimal(string(x)), 10)
		if err == errBadInt {
			return nil, badIntLiteral(10, x)
		}
		return v, err
	case Bytes:
		v, err := ParseInt(string(x), 10)
		if err == errBadInt {
			return nil, badIntLiteral(10, x)
		}
		return v, err
	case *Instance:
		for _, name := range []string{"__int__", "__index__"} {
			if m, _ := x.Class.Lookup(name); m != nil {
				return c.Call(m, []Value{x}, nil)
			}
		}
	}
	return nil, Errorf(TypeError, "int() argument must be a string, a bytes-like object or a real number, not '%s'", TypeName(a[0]))
}

func newFloat(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
	if err := ArgCount("float", args, 0, 1); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return Float(0), nil
	}
	switch x := args[0].(type) {
	case Str:
		f, ok := ParseFloat(asciiDecimal(string(x)))
		if !ok {
			return nil, Errorf(ValueError, "could not convert string to float: %s", strRepr(string(x)))
		}
		return Float(f), nil
	case *Instance:
		if m, _ := x.Class.Lookup("__float__"); m != nil {
			return c.Call(m, []Value{x}, nil)
		}
	}
	f, ok, err := ToFloat(args[0])
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, Errorf(TypeError, "float() argument must be a string or a real number, not '%s'", TypeName(args[0]))
	}
	return Float(f), nil
}

func newStr(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
	if len(args) == 1 && len(kw) == 0 {
		// str(x), the common form, without UnpackArgs's slice.
		s, err := ToStr(c, args[0])
		if err != nil {
			return nil, err
		}
		return NewStr(c, s)
	}
	a, err := UnpackArgs("str", args, kw, "object?", "encoding?", "errors?")
	if err != nil {
		return nil, err
	}
	if a[0] == nil {
		return Str(""), nil
	}
	if a[1] != nil || a[2] != nil {
		b, ok := bytesLike(a[0])
		if !ok {
			return nil, Errorf(TypeError, "decoding to str: need a bytes-like object, %s found", TypeName(a[0]))
		}
		return decodeBytes(c, b, a[1], a[2])
	}
	s, err := ToStr(c, a[0])
	if err != nil {
		return nil, err
	}
	return NewStr(c, s)
}

func bytesFrom(c Ctx, fname string, args []Value, kw []Kw) (string, error) {
	a, err := UnpackArgs(fname, args, kw, "source?", "encoding?", "errors?")
	if err != nil {
		return "", err
	}
	if a[0] == nil {
		return "", nil
	}
	// An object with __index__ is a count, as an int is (bytes_new
	// tests PyIndex_Check before iterating).
	if a[0], err = IndexArg(c, a[0]); err != nil {
		return "", err
	}
	switch x := a[0].(type) {
	case Str:
		if a[1] == nil {
			return "", Errorf(TypeError, "string argument without an encoding")
		}
		r, err := encodeStr(c, string(x), a[1], a[2], true)
		return string(r), err
	case Bytes:
		return string(x), nil
	case *ByteArray:
		return string(x.B), nil
	case Int:
		if x < 0 {
			return "", Errorf(ValueError, "negative count")
		}
		if err := AllocSlots(c, meter.SizeBytesHeader, uint64(x), 1); err != nil {
			return "", err
		}
		return string(make([]byte, x)), nil
	}
	var out []byte
	err = Iterate(c, a[0], func(v Value) error {
		v, err := IndexArg(c, v)
		if err != nil {
			return err
		}
		n, ok := AsInt64(v)
		if !ok {
			return Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
		}
		if n < 0 || n > 255 {
			return Errorf(ValueError, "bytes must be in range(0, 256)")
		}
		if err := Alloc(c, 1); err != nil {
			return err
		}
		out = append(out, byte(n))
		return nil
	})
	return string(out), err
}

func dictUpdate(c Ctx, d *Dict, src Value) error {
	switch s := src.(type) {
	case *Dict:
		for _, kv := range s.Items() {
			if err := d.Set(c, kv[0], kv[1]); err != nil {
				return err
			}
		}
		return nil
	case *Instance:
		if keys, _ := s.Class.Lookup("keys"); keys != nil {
			ks, err := c.Call(keys, []Value{s}, nil)
			if err != nil {
				return err
			}
			return Iterate(c, ks, func(k Value) error {
				v, err := GetItem(c, s, k)
				if err != nil {
					return err
				}
				return d.Set(c, k, v)
			})
		}
	}
	i := 0
	return IterateInto(c, src, d, func(item Value) error {
		l, err := ListOf(c, item)
		if err != nil {
			if e, ok := err.(*Exception); ok && e.Value.Class == TypeError {
				return Errorf(TypeError, "cannot convert dictionary update sequence element #%d to a sequence", i)
			}
			return err
		}
		if len(l.Elems) != 2 {
			return Errorf(ValueError, "dictionary update sequence element #%d has length %d; 2 is required", i, len(l.Elems))
		}
		i++
		return d.Set(c, l.Elems[0], l.Elems[1])
	})
}
