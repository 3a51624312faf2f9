package vm

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"sync"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// builtinFn is the Go signature of a builtin function: CPython's
// METH_FASTCALL|METH_KEYWORDS calling convention, positional arguments in
// a slice that the callee must not keep (it is a window of the caller's
// value stack or of the thread's argument stack, see pushArgs) and the
// keyword arguments in call order.
type builtinFn = func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error)

// newBuiltins builds the builtins namespace.
// sharedBuiltins is the builtins namespace every thread reads. It is built
// once: nothing in it depends on a thread (print and open find theirs
// through the call's context), and Python code cannot write to it, so
// threads on different goroutines may share it. Building it per call cost
// more than a small actor's whole handler.
var sharedBuiltins = sync.OnceValue(newBuiltins)

// threadOf is the Thread running a builtin (every Ctx the VM passes is one).
func threadOf(c object.Ctx) *Thread {
	t, ok := c.(*Thread)
	if !ok {
		panic(fmt.Sprintf("pvm/vm: builtin called with a %T context", c))
	}
	return t
}

// newBuiltins builds the namespace of CPython's builtins module
// (Python/bltinmodule.c, _PyBuiltin_Init): the builtin types and exception
// classes by name, the singleton constants, and one Go closure per builtin
// function. Every builtin is reached through Thread.Call, which charges
// meter.CostCall before the closure runs (as it does for a Python function);
// what a builtin charges beyond that comes from the object operations it
// calls (Iterate per element, NewStr and NewList for their allocations,
// SortValues for n log n comparisons), so a builtin that walks its argument
// pays per element like the loop it replaces.
func newBuiltins() *object.StrDict {
	b := object.NewStrDict()
	for _, k := range []*object.Class{
		object.ObjectClass, object.TypeClass, object.BoolClass, object.IntClass, object.FloatClass,
		object.StrClass, object.BytesClass, object.ByteArrayClass, object.ListClass, object.TupleClass,
		object.DictClass, object.SetClass, object.FrozenSetClass, object.RangeClass, object.SliceClass,
		object.PropertyClass, object.StaticMethodClass, object.ClassMethodClass,
	} {
		b.Set(k.Name, k)
	}
	for _, k := range object.ExceptionClasses {
		b.Set(k.Name, k)
	}
	b.Set("None", object.None)
	b.Set("True", object.True)
	b.Set("False", object.False)
	b.Set("NotImplemented", object.NotImplemented)
	b.Set("Ellipsis", object.Ellipsis)
	b.Set("__name__", object.Str("builtins"))
	// A module without a docstring reads __doc__ as None (CPython puts
	// None in every module's namespace; here the lookup falls through to
	// the builtins, so module namespaces, and their measured size, stay
	// as they were).
	b.Set("__doc__", object.None)
	// def registers a builtin. A name in noKeywords is wrapped so that any
	// keyword argument is refused before the builtin looks at its arguments:
	// CPython's Argument Clinic rejects them in the generated parser, ahead of
	// any type check, and the order of the two errors is visible to a program
	// that catches TypeError.
	def := func(name string, fn builtinFn) {
		if noKeywords[name] {
			inner := fn
			fn = func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
				if len(kw) > 0 {
					return nil, object.Errorf(object.TypeError, "%s() takes no keyword arguments", name)
				}
				return inner(c, args, kw)
			}
		}
		b.Set(name, object.NewBuiltin(name, fn))
	}
	// print is builtin_print; the thread does the work (builtinPrint) because
	// it owns the output writer and counts the output as an effect.
	def("print", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return threadOf(c).builtinPrint(c, args, kw)
	})
	// len is builtin_len: PyObject_Size, which for an instance calls __len__
	// and checks its result (object.Len).
	def("len", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("len", args, 1, 1); err != nil {
			return nil, err
		}
		n, err := object.Len(c, args[0])
		return object.Int(n), err
	})
	// repr and ascii (builtin_repr, builtin_ascii) allocate the result string
	// through NewStr, so a large repr is charged for its bytes like any other
	// string it builds.
	def("repr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("repr", args, 1, 1); err != nil {
			return nil, err
		}
		s, err := object.Repr(c, args[0])
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, s)
	})
	def("ascii", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("ascii", args, 1, 1); err != nil {
			return nil, err
		}
		s, err := object.Repr(c, args[0])
		if err != nil {
			return nil, err
		}
		return object.NewStr(c, object.ASCII(s))
	})
	// abs is PyNumber_Absolute: OpAbs dispatches to __abs__ for instances.
	def("abs", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("abs", args, 1, 1); err != nil {
			return nil, err
		}
		return object.Unary(c, object.OpAbs, args[0])
	})
	// hash is PyObject_Hash. String and bytes hashes are fixed (no
	// PYTHONHASHSEED randomization), so hash values are the same on every node.
	def("hash", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("hash", args, 1, 1); err != nil {
			return nil, err
		}
		h, err := object.HashOf(c, args[0])
		return object.Int(h), err
	})
	// id is the one builtin that would expose a memory address in CPython. An
	// instance carries an identity drawn from Thread.NextID (a counter, the
	// same on every node); other values have none, since ints, strings and
	// tuples are values in the PVM and an address-like id for them would differ
	// between runs. The refusal is a DeterminismError rather than a made-up
	// number so that code relying on it fails loudly.
	def("id", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("id", args, 1, 1); err != nil {
			return nil, err
		}
		if in, ok := args[0].(*object.Instance); ok {
			return object.Int(in.ID), nil
		}
		return nil, object.Errorf(object.DeterminismError, "id() of a %s value is not deterministic in the PVM", object.TypeName(args[0]))
	})
	// callable is PyCallable_Check: for an instance only the class's __call__
	// counts (an instance attribute named __call__ does not, as in CPython,
	// where the check reads tp_call).
	def("callable", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("callable", args, 1, 1); err != nil {
			return nil, err
		}
		return object.MakeBool(isCallable(args[0])), nil
	})
	// isinstance is PyObject_IsInstance: a __instancecheck__ on the
	// metaclass (abc.ABCMeta) or on an instance used as a class spec wins;
	// otherwise the check walks the MRO of the value's type (classCheck).
	// MetaMethod skips the hooks of builtin metaclasses, whose answer is
	// that walk, as CPython's fast path for type(spec) is type skips them.
	def("isinstance", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("isinstance", args, 2, 2); err != nil {
			return nil, err
		}
		if m := checkHook(args[1], "__instancecheck__"); m != nil {
			r, err := c.Call(m, []object.Value{args[1], args[0]}, nil)
			if err != nil {
				return nil, err
			}
			b, err := object.Truth(c, r)
			return object.MakeBool(b), err
		}
		r, err := classCheck(args[0].Type(), args[1], "isinstance() arg 2 must be a type, a tuple of types, or a union")
		return object.MakeBool(r), err
	})
	// issubclass is PyObject_IsSubclass, with the same hook order as isinstance.
	def("issubclass", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("issubclass", args, 2, 2); err != nil {
			return nil, err
		}
		if m := checkHook(args[1], "__subclasscheck__"); m != nil {
			r, err := c.Call(m, []object.Value{args[1], args[0]}, nil)
			if err != nil {
				return nil, err
			}
			b, err := object.Truth(c, r)
			return object.MakeBool(b), err
		}
		k, ok := args[0].(*object.Class)
		if !ok {
			return nil, object.Errorf(object.TypeError, "issubclass() arg 1 must be a class")
		}
		r, err := classCheck(k, args[1], "issubclass() arg 2 must be a class, a tuple of classes, or a union")
		return object.MakeBool(r), err
	})
	// getattr is builtin_getattr: with a default it swallows AttributeError and
	// its subclasses only (_PyObject_LookupAttr); any other exception raised by
	// a property or __getattr__ propagates.
	def("getattr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("getattr", args, 2, 3); err != nil {
			return nil, err
		}
		name, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "attribute name must be string, not '%s'", object.TypeName(args[1]))
		}
		v, err := object.GetAttr(c, args[0], string(name))
		if err != nil && len(args) == 3 {
			if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.AttributeError) {
				return args[2], nil
			}
		}
		return v, err
	})
	// setattr and delattr are PyObject_SetAttr with a value and without one:
	// both go through __setattr__/__delattr__ of the class, so a user hook sees
	// the same calls it would see in CPython.
	def("setattr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("setattr", args, 3, 3); err != nil {
			return nil, err
		}
		name, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "attribute name must be string, not '%s'", object.TypeName(args[1]))
		}
		return object.None, object.SetAttr(c, args[0], string(name), args[2])
	})
	def("delattr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("delattr", args, 2, 2); err != nil {
			return nil, err
		}
		name, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "attribute name must be string, not '%s'", object.TypeName(args[1]))
		}
		return object.None, object.DelAttr(c, args[0], string(name))
	})
	// hasattr is builtin_hasattr: like getattr with a default, only
	// AttributeError means False.
	def("hasattr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("hasattr", args, 2, 2); err != nil {
			return nil, err
		}
		name, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "attribute name must be string, not '%s'", object.TypeName(args[1]))
		}
		r, err := object.HasAttr(c, args[0], string(name))
		return object.MakeBool(r), err
	})
	// iter is builtin_iter: with two arguments it is PyCallIter_New (call until
	// the sentinel); with one, PyObject_GetIter.
	def("iter", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("iter", args, 1, 2); err != nil {
			return nil, err
		}
		if len(args) == 2 {
			if !isCallable(args[0]) {
				return nil, object.Errorf(object.TypeError, "iter(v, w): v must be callable")
			}
			return newCallableIter(args[0], args[1]), nil
		}
		return object.Iter(c, args[0])
	})
	// next is builtin_next. A PVM generator is resumed directly (gen_iternext
	// in CPython), and its return value becomes StopIteration's value. For an
	// instance the class's __next__ is called; with a default, StopIteration
	// and its subclasses are swallowed, as in CPython, where a subclass of
	// StopIteration also ends the iteration.
	def("next", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("next", args, 1, 2); err != nil {
			return nil, err
		}
		if g, ok := args[0].(*Generator); ok {
			v, more, err := g.resume(object.None, nil)
			if err != nil {
				return nil, err
			}
			if !more {
				if len(args) == 2 {
					return args[1], nil
				}
				return nil, object.Raise(object.NewException(object.StopIteration, stopArgs(v)...))
			}
			return v, nil
		}
		switch it := args[0].(type) {
		case object.Iterator:
		case *object.Instance:
			if m, _ := it.Class.Lookup("__next__"); m != nil {
				r, err := c.Call(m, []object.Value{it}, nil)
				if err != nil && len(args) == 2 {
					if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.StopIteration) {
						return args[1], nil
					}
				}
				return r, err
			}
			return nil, object.Errorf(object.TypeError, "'%s' object is not an iterator", object.TypeName(it))
		default:
			return nil, object.Errorf(object.TypeError, "'%s' object is not an iterator", object.TypeName(it))
		}
		v, ok, err := object.Next(c, args[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			if len(args) == 2 {
				return args[1], nil
			}
			return nil, object.Raise(object.NewException(object.StopIteration))
		}
		return v, nil
	})
	// enumerate is a class (Objects/enumobject.c, enum_new) rather than a
	// function, so that isinstance(x, enumerate) and subclassing work; its
	// instances share enumerateClass's MRO. The counter starts at a Go int64.
	b.Set("enumerate", &object.Class{Name: "enumerate", Module: "builtins", Dict: object.NewStrDict(), MRO: enumerateClass.MRO, New: func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("enumerate", args, kw, "iterable", "start?")
		if err != nil {
			return nil, err
		}
		start := int64(0)
		if a[1] != nil {
			if a[1], err = object.IndexArg(c, a[1]); err != nil {
				return nil, err
			}
			n, ok := object.AsInt64(a[1])
			if _, big := object.BaseOf(a[1]).(*object.BigInt); big || (ok && n > math.MaxInt64-1<<40) {
				// A start beyond 64 bits, or so near the top that the Go
				// counter could pass it (2^40 items is more than any call
				// can pay for), counts in ints (enum_next's slow path).
				it, err := object.Iter(c, a[0])
				if err != nil {
					return nil, err
				}
				return newEnumerateBig(it, object.BaseOf(a[1])), nil
			}
			s, ok := object.AsInt64(a[1])
			if !ok {
				return nil, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(a[1]))
			}
			start = s
		}
		it, err := object.Iter(c, a[0])
		if err != nil {
			return nil, err
		}
		return newEnumerate(c, it, start), nil
	}})
	// zip is zip_new (3.10+ with strict=). Every argument is turned into an
	// iterator before any is advanced, so a non-iterable argument fails at the
	// call, as in CPython.
	def("zip", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		strict := false
		for _, k := range kw {
			if k.Name != "strict" {
				return nil, object.Errorf(object.TypeError, "zip() got an unexpected keyword argument '%s'", k.Name)
			}
			strict, _ = object.Truth(c, k.Value)
		}
		its := make([]object.Value, len(args))
		for i, a := range args {
			it, err := object.Iter(c, a)
			if err != nil {
				return nil, err // CPython 3.11: "'int' object is not iterable"
			}
			its[i] = it
		}
		return newZip(its, strict), nil
	})
	// map and filter (map_new, filter_new) are lazy: each step costs what
	// calling the function costs, charged when the iterator is advanced.
	def("map", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) < 2 {
			return nil, object.Errorf(object.TypeError, "map() must have at least two arguments.")
		}
		its := make([]object.Value, len(args)-1)
		for i, a := range args[1:] {
			it, err := object.Iter(c, a)
			if err != nil {
				return nil, err
			}
			its[i] = it
		}
		return newMap(args[0], its), nil
	})
	def("filter", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("filter", args, 2, 2); err != nil {
			return nil, err
		}
		it, err := object.Iter(c, args[1])
		if err != nil {
			return nil, err
		}
		return newFilter(args[0], it), nil
	})
	// reversed is reversed_new (Objects/enumobject.c). A list is copied first,
	// so that a list changed while reversed is iterated over yields its old
	// elements; CPython's listreverseiterator reads the live list instead, which
	// differs only for a program that mutates a list it is iterating over
	// backwards. Other sequences are copied through ListOf, which charges per
	// element. For an instance, __reversed__ wins; otherwise anything with a
	// __len__ is iterated into a list.
	def("reversed", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("reversed", args, 1, 1); err != nil {
			return nil, err
		}
		switch x := args[0].(type) {
		case *object.List:
			return newReversed(append([]object.Value(nil), x.Elems...)), nil
		case object.Tuple, object.Str, *object.Range, object.Bytes, *object.ByteArray, *object.DictView, *object.Dict:
			l, err := object.ListOf(c, x)
			if err != nil {
				return nil, err
			}
			return newReversed(l.Elems), nil
		case *object.Instance:
			if m, _ := x.Class.Lookup("__reversed__"); m != nil {
				return c.Call(m, []object.Value{x}, nil)
			}
			// The sequence protocol: __len__ and __getitem__ (an object
			// with __len__ and __iter__ only is not reversible).
			if gi, _ := x.Class.Lookup("__getitem__"); gi == nil {
				break
			}
			if _, err := object.Len(c, x); err == nil {
				l, err := object.ListOf(c, x)
				if err != nil {
					return nil, err
				}
				return newReversed(l.Elems), nil
			}
		}
		return nil, object.Errorf(object.TypeError, "'%s' object is not reversible", object.TypeName(args[0]))
	})
	// sorted is builtin_sorted: a new list, then list.sort (object.SortValues,
	// a stable merge sort charged n log n, the same algorithmic contract as
	// CPython's timsort but not its comparison sequence: a key or __lt__ that
	// prints or counts its calls can see a different order of calls).
	def("sorted", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 1 {
			return nil, object.Errorf(object.TypeError, "sorted expected 1 argument, got %d", len(args))
		}
		a, err := object.UnpackArgs("sorted", nil, kw, "key?", "reverse?")
		if err != nil {
			return nil, err
		}
		l, err := object.ListOf(c, args[0]) // a new list, sorted in place
		if err != nil {
			return nil, err
		}
		return l, object.SortValues(c, l.Elems, a[0], a[1])
	})
	// min and max are min_max: with one positional argument it is iterated,
	// with several they are the candidates. The first of equal candidates wins
	// because the comparison is strict (OpLt, OpGt), as in CPython.
	def("min", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return minMax(c, "min", args, kw, object.OpLt)
	})
	def("max", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return minMax(c, "max", args, kw, object.OpGt)
	})
	// sum is builtin_sum: start + each element in turn, through the generic
	// addition, so every step is charged as a BINARY_OP on its operands would
	// be. CPython refuses str and bytes starts with a hint to use join (a
	// quadratic pattern); floats are summed left to right without compensation,
	// which is 3.11's behaviour (3.12 switched to Neumaier summation).
	def("sum", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("sum", args, kw, "iterable", "start?")
		if err != nil {
			return nil, err
		}
		var acc object.Value = object.Int(0)
		if a[1] != nil {
			acc = a[1]
			switch object.BaseOf(acc).(type) {
			case object.Str:
				return nil, object.Errorf(object.TypeError, "sum() can't sum strings [use ''.join(seq) instead]")
			case object.Bytes:
				return nil, object.Errorf(object.TypeError, "sum() can't sum bytes [use b''.join(seq) instead]")
			case *object.ByteArray:
				return nil, object.Errorf(object.TypeError, "sum() can't sum bytearray [use b''.join(seq) instead]")
			}
		}
		err = object.Iterate(c, a[0], func(v object.Value) error {
			r, err := object.Binary(c, object.OpAdd, acc, v)
			acc = r
			return err
		})
		return acc, err
	})
	// any and all (builtin_any, builtin_all) stop at the first deciding element,
	// so a long iterable is charged only up to it.
	def("any", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("any", args, 1, 1); err != nil {
			return nil, err
		}
		return anyAll(c, args[0], true)
	})
	def("all", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("all", args, 1, 1); err != nil {
			return nil, err
		}
		return anyAll(c, args[0], false)
	})
	// divmod is PyNumber_Divmod, computed as (a // b, a % b) through the
	// generic operators: for ints and floats these give the same pair as
	// CPython's int_divmod and float_divmod (floor semantics, the sign of the
	// remainder follows the divisor). An instance's __divmod__ is tried first.
	// ZeroDivisionError keeps CPython's wording: "float divmod()" when either
	// operand is a float.
	def("divmod", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("divmod", args, 2, 2); err != nil {
			return nil, err
		}
		if r, ok, err := divmodDunders(c, args[0], args[1]); ok || err != nil {
			return r, err
		}
		q, err := object.Binary(c, object.OpFloorDiv, args[0], args[1])
		if err != nil {
			if e := asException(err); e != nil && e.Value.Class == object.TypeError {
				return nil, object.Errorf(object.TypeError, "unsupported operand type(s) for divmod(): '%s' and '%s'", object.TypeName(args[0]), object.TypeName(args[1]))
			}
			if e := asException(err); e != nil && e.Value.Class == object.ZeroDivisionError {
				if _, ok := args[0].(object.Float); ok {
					return nil, object.Errorf(object.ZeroDivisionError, "float divmod()")
				}
				if _, ok := args[1].(object.Float); ok {
					return nil, object.Errorf(object.ZeroDivisionError, "float divmod()")
				}
			}
			return nil, err
		}
		r, err := object.Binary(c, object.OpMod, args[0], args[1])
		if err != nil {
			return nil, err
		}
		return object.Tuple{q, r}, nil
	})
	// pow is builtin_pow: with a modulus it is PyNumber_Power's three-argument
	// form (object.PowMod, including a negative exponent as a modular inverse,
	// 3.8+); without one it is the ** operator.
	def("pow", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("pow", args, kw, "base", "exp", "mod?")
		if err != nil {
			return nil, err
		}
		if a[2] == nil || a[2] == object.None {
			return object.Binary(c, object.OpPow, a[0], a[1])
		}
		return object.PowMod(c, a[0], a[1], a[2])
	})
	// round is builtin_round: __round__ of the number's class (int_round,
	// float___round__).
	def("round", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		a, err := object.UnpackArgs("round", args, kw, "number", "ndigits?")
		if err != nil {
			return nil, err
		}
		return round(c, a[0], a[1])
	})
	// chr is builtin_chr: CPython converts through a C int first, so a value
	// that does not fit 32 bits is OverflowError before the range check's
	// ValueError.
	def("chr", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("chr", args, 1, 1); err != nil {
			return nil, err
		}
		arg, err := object.IndexArg(c, args[0])
		if err != nil {
			return nil, err
		}
		i, ok := object.AsInt64(arg)
		if _, big := arg.(*object.BigInt); big || ok && int64(int32(i)) != i {
			return nil, object.Errorf(object.OverflowError, "Python int too large to convert to C int")
		}
		if !ok {
			return nil, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(arg))
		}
		if i < 0 || i > 0x10ffff {
			return nil, object.Errorf(object.ValueError, "chr() arg not in range(0x110000)")
		}
		return object.Str(string(rune(i))), nil
	})
	// ord is builtin_ord: one code point of a str, one byte of bytes.
	def("ord", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("ord", args, 1, 1); err != nil {
			return nil, err
		}
		switch s := args[0].(type) {
		case object.Str:
			rs := []rune(string(s))
			if len(rs) != 1 {
				return nil, object.Errorf(object.TypeError, "ord() expected a character, but string of length %d found", len(rs))
			}
			return object.Int(rs[0]), nil
		case object.Bytes:
			if len(s) != 1 {
				return nil, object.Errorf(object.TypeError, "ord() expected a character, but string of length %d found", len(s))
			}
			return object.Int(s[0]), nil
		case *object.ByteArray:
			if len(s.B) != 1 {
				return nil, object.Errorf(object.TypeError, "ord() expected a character, but string of length %d found", len(s.B))
			}
			return object.Int(s.B[0]), nil
		}
		return nil, object.Errorf(object.TypeError, "ord() expected string of length 1, but %s found", object.TypeName(args[0]))
	})
	// hex, oct and bin are PyNumber_ToBase: the argument goes through
	// __index__, then the alternate-form format spec ("#x") gives CPython's
	// prefix and sign placement ('-0x1f').
	for _, spec := range [][2]string{{"hex", "#x"}, {"oct", "#o"}, {"bin", "#b"}} {
		spec := spec
		def(spec[0], func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if err := object.ArgCount(spec[0], args, 1, 1); err != nil {
				return nil, err
			}
			v, err := object.Index(c, args[0])
			if err != nil {
				return nil, err
			}
			s, err := object.Format(c, v, spec[1])
			return object.Str(s), err
		})
	}
	// format is PyObject_Format: object.Format dispatches to __format__ of the
	// value's class, with the builtin types' format-spec mini-language in
	// pvm/object.
	def("format", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("format", args, 1, 2); err != nil {
			return nil, err
		}
		spec := ""
		if len(args) == 2 {
			s, ok := args[1].(object.Str)
			if !ok {
				return nil, object.Errorf(object.TypeError, "format() argument 2 must be str, not %s", object.TypeName(args[1]))
			}
			spec = string(s)
		}
		s, err := object.Format(c, args[0], spec)
		return object.Str(s), err
	})
	// dir with no argument would read the caller's frame (locals), which the
	// PVM does not expose to code; with one it lists the names reachable through
	// the value (dirOf), sorted as CPython's dir() sorts them.
	def("dir", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("dir", args, 1, 1); err != nil {
			return nil, object.Errorf(object.DeterminismError, "dir() without an argument is forbidden in the PVM (reflection)")
		}
		return dirOf(c, args[0])
	})
	// vars(x) is x.__dict__ (builtin_vars); without an argument it is locals(),
	// refused for the same reason.
	def("vars", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 1 {
			return nil, object.Errorf(object.DeterminismError, "vars() without an argument is forbidden in the PVM (reflection)")
		}
		d, err := object.GetAttr(c, args[0], "__dict__")
		var exc *object.Exception
		if errors.As(err, &exc) && exc.Value.Class.IsSubclass(object.AttributeError) {
			return nil, object.Errorf(object.TypeError, "vars() argument must have __dict__ attribute")
		}
		return d, err
	})
	// super is reached only in its explicit two-argument form: the compiler
	// rewrites a zero-argument super() in a method into super(__class__,
	// first argument), which is what CPython's super_init finds by reading the
	// frame's __class__ cell and first local. obj may be an instance of the
	// class (a method call) or a subclass of it (a classmethod, or __new__).
	b.Set("super", object.NewBuiltin("super", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 2 {
			return nil, object.Errorf(object.RuntimeError, "super(): no arguments")
		}
		k, ok := args[0].(*object.Class)
		if !ok {
			return nil, object.Errorf(object.TypeError, "super() argument 1 must be a type, not %s", object.TypeName(args[0]))
		}
		obj := args[1]
		if oc, isClass := obj.(*object.Class); isClass && oc.IsSubclass(k) {
			return &object.Super{Start: k, Obj: obj}, nil
		}
		if !obj.Type().IsSubclass(k) {
			return nil, object.Errorf(object.TypeError, "super(type, obj): obj must be an instance or subtype of type")
		}
		return &object.Super{Start: k, Obj: obj}, nil
	}))
	// open is the scratch-file open of the thread's ScratchFS (scratch.go):
	// files live in the call's /tmp scratch space, which the chain wipes
	// after the handler.
	def("open", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return threadOf(c).builtinOpen(c, args, kw)
	})
	// forbidden builtins exist under their names so that calling one raises
	// DeterminismError with the reason, instead of NameError, which would
	// suggest a typo. eval, exec and compile would need a compiler at run time
	// (and code from strings defeats review of the deployed source); globals
	// and locals would hand out the namespaces the compiler's scope analysis
	// relies on; input and breakpoint have no console on chain.
	forbidden := func(name, why string) {
		def(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return nil, object.Errorf(object.DeterminismError, "%s() is forbidden in the PVM (%s)", name, why)
		})
	}
	forbidden("eval", "reflection")
	forbidden("exec", "reflection")
	forbidden("compile", "reflection")
	forbidden("input", "no input on chain")
	forbidden("globals", "reflection")
	forbidden("locals", "reflection")
	forbidden("breakpoint", "no debugger on chain")
	// __import__ is refused: imports must be statements, so the modules an
	// actor can reach are visible in its source and resolved by the import
	// machinery, which charges them (snapshot.go, module.go).
	def("__import__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return nil, object.Errorf(object.ImportError, "dynamic __import__() is forbidden in the PVM; use an import statement")
	})
	// The classes here are shared by every thread like the namespace
	// itself; module snapshots refer to them instead of copying them.
	b.Each(func(_ string, v object.Value) {
		if k, ok := v.(*object.Class); ok {
			object.MarkShared(k)
		}
	})
	return b
}

// checkHook finds the __instancecheck__ or __subclasscheck__ that
// isinstance and issubclass defer to: on a user metaclass (abc.ABCMeta) or
// on an instance used as a class (typing.List).
func checkHook(spec object.Value, name string) object.Value {
	switch s := spec.(type) {
	case *object.Class:
		return object.MetaMethod(s, name)
	case *object.Instance:
		m, _ := s.Class.Lookup(name)
		return m
	}
	return nil
}

// classCheck is the recursive part of PyObject_IsInstance and
// PyObject_IsSubclass: a class, a tuple of specs (nested tuples are
// allowed, as in CPython) or a union (int | str). Anything else is the
// TypeError with the caller's message.
func classCheck(k *object.Class, spec object.Value, msg string) (bool, error) {
	switch s := spec.(type) {
	case *object.Class:
		return k.IsSubclass(s), nil
	case object.Tuple:
		for _, x := range s {
			r, err := classCheck(k, x, msg)
			if err != nil || r {
				return r, err
			}
		}
		return false, nil
	case *object.GenericAlias:
		if r, isUnion := s.Contains(k); isUnion {
			return r, nil
		}
	}
	return false, object.Errorf(object.TypeError, "%s", msg)
}

// builtinPrint is builtin_print writing to the thread's stdout. The whole
// line is built first and written once: the charge is one cycle per byte
// of output (CostPerChar), taken before anything is written, so a call that
// runs out of cycles prints nothing rather than part of a line. sep and end
// follow CPython's type rules (None means the default); flush is accepted
// and ignored (nothing is buffered between calls); file= is refused, as
// there is no sys.stderr to write to on chain. Output counts as an effect:
// a module whose top level printed cannot be replayed from a snapshot.
func (t *Thread) builtinPrint(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	sep, end := " ", "\n"
	for _, k := range kw {
		switch k.Name {
		case "sep", "end":
			if k.Value == object.None {
				continue
			}
			s, ok := k.Value.(object.Str)
			if !ok {
				return nil, object.Errorf(object.TypeError, "%s must be None or a string, not %s", k.Name, object.TypeName(k.Value))
			}
			if k.Name == "sep" {
				sep = string(s)
			} else {
				end = string(s)
			}
		case "flush":
		case "file":
			if k.Value != object.None {
				return nil, object.Errorf(object.DeterminismError, "print(file=...) is not supported in the PVM")
			}
		default:
			return nil, object.Errorf(object.TypeError, "'%s' is an invalid keyword argument for print()", k.Name)
		}
	}
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteString(sep)
		}
		s, err := object.ToStr(c, a)
		if err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	b.WriteString(end)
	if err := t.meter.Charge(uint64(b.Len()) * meter.CostPerChar); err != nil {
		return nil, err
	}
	t.effects++
	if _, err := t.stdout.Write([]byte(b.String())); err != nil {
		return nil, object.Errorf(object.OSError, "print: %v", err)
	}
	return object.None, nil
}

// minMax is CPython's min_max (Python/bltinmodule.c): key=None means no key;
// default is allowed only with a single iterable argument; the key is
// called once per element, and the first best element is kept on ties.
func minMax(c object.Ctx, name string, args []object.Value, kw []object.Kw, op object.Op) (object.Value, error) {
	var key, def object.Value
	for _, k := range kw {
		switch k.Name {
		case "key":
			if k.Value != object.None {
				key = k.Value
			}
		case "default":
			def = k.Value
		default:
			return nil, object.Errorf(object.TypeError, "%s() got an unexpected keyword argument '%s'", name, k.Name)
		}
	}
	var src object.Value
	switch len(args) {
	case 0:
		return nil, object.Errorf(object.TypeError, "%s expected at least 1 argument, got 0", name)
	case 1:
		src = args[0]
	default:
		if def != nil {
			return nil, object.Errorf(object.TypeError, "Cannot specify a default for %s() with multiple positional arguments", name)
		}
		src = object.Tuple(append([]object.Value(nil), args...))
	}
	var best, bestKey object.Value
	err := object.Iterate(c, src, func(v object.Value) error {
		k := v
		if key != nil {
			r, err := c.Call(key, []object.Value{v}, nil)
			if err != nil {
				return err
			}
			k = r
		}
		if best == nil {
			best, bestKey = v, k
			return nil
		}
		r, err := object.Compare(c, op, k, bestKey)
		if err != nil {
			return err
		}
		better, err := object.Truth(c, r)
		if err != nil {
			return err
		}
		if better {
			best, bestKey = v, k
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if best == nil {
		if def != nil {
			return def, nil
		}
		return nil, object.Errorf(object.ValueError, "%s() arg is an empty sequence", name)
	}
	return best, nil
}

// anyAll is builtin_any (any true) and builtin_all (any false, negated):
// iteration stops through errStop at the first element that decides.
func anyAll(c object.Ctx, v object.Value, any bool) (object.Value, error) {
	result := !any
	stop := errStop{}
	err := object.Iterate(c, v, func(x object.Value) error {
		b, err := object.Truth(c, x)
		if err != nil {
			return err
		}
		if b == any {
			result = any
			return stop
		}
		return nil
	})
	if err != nil && err != error(stop) {
		return nil, err
	}
	return object.MakeBool(result), nil
}

// errStop ends an object.Iterate early without being an error.
type errStop struct{}

func (errStop) Error() string { return "stop" }

// bigOf is an int value (small or big) as a *big.Int for round's exact
// arithmetic.
func bigOf(v object.Value) *big.Int {
	if i, ok := object.AsInt64(v); ok {
		return big.NewInt(i)
	}
	return v.(*object.BigInt).Big()
}

// round is builtin_round for ints and floats, with __round__ of a user
// class first. For an int and a negative ndigits it is int___round___impl:
// round half to even at a power of ten, computed exactly with math/big (a
// float detour would lose digits above 2**53). ndigits below -1300 rounds
// any int the PVM can hold (at most 4096 bits, about 1233 digits) to 0, so
// 10**-ndigits is never built for it. A float goes to object.RoundFloat,
// which rounds the exact decimal value as CPython's float___round___impl
// does (correctly rounded, not x*10**n).
func round(c object.Ctx, x, nd object.Value) (object.Value, error) {
	if in, ok := x.(*object.Instance); ok {
		if m, _ := in.Class.Lookup("__round__"); m != nil {
			args := []object.Value{in}
			if nd != nil {
				args = append(args, nd)
			}
			return c.Call(m, args, nil)
		}
	}
	switch v := object.BaseOf(x).(type) {
	case object.Int, *object.BigInt, object.Bool:
		if nd == nil || nd == object.None {
			return object.Binary(c, object.OpAdd, v, object.Int(0))
		}
		nd, err := object.IndexArg(c, nd)
		if err != nil {
			return nil, err
		}
		n, ok := object.AsInt64(nd)
		if !ok {
			return nil, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(nd))
		}
		if n >= 0 {
			return object.Binary(c, object.OpAdd, v, object.Int(0))
		}
		if n < -1300 {
			return object.Int(0), nil
		}
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(-n), nil)
		B := bigOf(v)
		q, r := new(big.Int).DivMod(B, p, new(big.Int))
		// Round half to even.
		twice := new(big.Int).Lsh(r, 1)
		cmp := twice.Cmp(p)
		if cmp > 0 || (cmp == 0 && q.Bit(0) == 1) {
			q.Add(q, big.NewInt(1))
		}
		return object.MakeBigInt(q.Mul(q, p))
	case object.Float:
		if nd != nil {
			var err error
			if nd, err = object.IndexArg(c, nd); err != nil {
				return nil, err
			}
		}
		return object.RoundFloat(c, v, nd)
	}
	return nil, object.Errorf(object.TypeError, "type %s doesn't define __round__ method", object.TypeName(x))
}

// dirOf lists an instance's own attributes and those of its class's MRO, a
// class's MRO, a module's globals, or the MRO of a builtin value's type.
// The names are deduplicated and sorted, so the order of the dicts read
// (insertion order) never shows.
func dirOf(c object.Ctx, v object.Value) (object.Value, error) {
	seen := map[string]bool{}
	var names []string
	add := func(n string, _ object.Value) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	switch x := v.(type) {
	case *object.Instance:
		x.Dict.Each(add)
		for _, k := range x.Class.MRO {
			k.Dict.Each(add)
		}
	case *object.Class:
		for _, k := range x.MRO {
			k.Dict.Each(add)
		}
	case *Module:
		x.Globals.Each(add)
	default:
		for _, k := range v.Type().MRO {
			k.Dict.Each(add)
		}
	}
	sort.Strings(names)
	out := make([]object.Value, len(names))
	for i, n := range names {
		out[i] = object.Str(n)
	}
	return object.NewList(c, out)
}

// noKeywords are the builtins CPython declares positional-only without
// keyword parameters: a keyword argument is a TypeError before anything
// else is checked.
var noKeywords = map[string]bool{
	"len": true, "repr": true, "ascii": true, "abs": true, "hash": true, "id": true,
	"callable": true, "isinstance": true, "issubclass": true, "getattr": true,
	"setattr": true, "delattr": true, "hasattr": true, "iter": true, "next": true,
	"map": true, "filter": true, "reversed": true, "any": true, "all": true,
	"divmod": true, "chr": true, "ord": true, "format": true, "dir": true, "vars": true,
}

// isCallable is callable(v): functions, methods, classes and instances of
// a class with __call__.
func isCallable(v object.Value) bool {
	switch x := v.(type) {
	case *Function, *object.Builtin, *object.BoundMethod, *object.Class:
		return true
	case *object.Instance:
		m, _ := x.Class.Lookup("__call__")
		return m != nil
	}
	return false
}

// divmodDunders is divmod(x, y) when either operand is an instance:
// x.__divmod__(y), then y.__rdivmod__(x) (the right operand first when
// its class is a subclass of the left's), as binary_op1 orders them;
// neither taking it is TypeError, as CPython never falls back to // and
// %. ok is false when neither operand is an instance.
func divmodDunders(c object.Ctx, x, y object.Value) (object.Value, bool, error) {
	xi, xInst := x.(*object.Instance)
	yi, yInst := y.(*object.Instance)
	if !xInst && !yInst {
		return nil, false, nil
	}
	call := func(self *object.Instance, name string, arg object.Value) (object.Value, bool, error) {
		if self == nil {
			return nil, false, nil
		}
		m, _ := self.Class.Lookup(name)
		if m == nil {
			return nil, false, nil
		}
		r, err := c.Call(m, []object.Value{self, arg}, nil)
		if err != nil || r == object.NotImplemented {
			return nil, false, err
		}
		return r, true, nil
	}
	swap := xInst && yInst && yi.Class != xi.Class && yi.Class.IsSubclass(xi.Class)
	if swap {
		if r, ok, err := call(yi, "__rdivmod__", x); ok || err != nil {
			return r, true, err
		}
	}
	if r, ok, err := call(xi, "__divmod__", y); ok || err != nil {
		return r, true, err
	}
	if !swap && (!xInst || !yInst || xi.Class != yi.Class) {
		if r, ok, err := call(yi, "__rdivmod__", x); ok || err != nil {
			return r, true, err
		}
	}
	return nil, true, object.Errorf(object.TypeError, "unsupported operand type(s) for divmod(): '%s' and '%s'", object.TypeName(x), object.TypeName(y))
}
