package object

import (
	"errors"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Value is any Python value.
type Value interface {
	// Type is the value's class (type(v)).
	Type() *Class
	// Repr is repr(v).
	Repr(c Ctx) (string, error)
	// Truth is bool(v).
	Truth(c Ctx) (bool, error)
	// Hash is hash(v), or a TypeError for unhashable values.
	Hash(c Ctx) (int64, error)
}

// Kw is one keyword argument of a call.
type Kw struct {
	Name  string
	Value Value
}

// Ctx is what operations need from the interpreter running them: the meter
// and a way to call Python callables (user functions, dunder methods).
type Ctx interface {
	// Meter is the call's meter; operations charge size-dependent surcharges
	// and allocations to it.
	Meter() *meter.Meter
	// Call calls any callable value.
	Call(fn Value, args []Value, kw []Kw) (Value, error)
	// Nest guards native recursion (repr, ==, hash of nested containers,
	// builtins calling back into Python) and returns RecursionError when it
	// is too deep; every successful Nest is paired with Unnest.
	Nest() error
	// Unnest ends a Nest.
	Unnest()
	// NextID returns a fresh deterministic object identity for id() and
	// identity hashing (never a memory address).
	NextID() int64
}

// MaxNativeNesting bounds native recursion through nested containers so a
// deeply nested value cannot overflow the Go stack.
const MaxNativeNesting = 200

// Iterator is a value that yields a sequence (Python's iterator protocol).
type Iterator interface {
	Value
	// Next returns the next item, or ok == false when exhausted.
	Next(c Ctx) (v Value, ok bool, err error)
}

// Lener is a value with a builtin length.
type Lener interface {
	Len() int
}

// Charge charges n cycles to the context's meter.
func Charge(c Ctx, n uint64) error { return c.Meter().Charge(n) }

// Alloc records n bytes of new objects, turning a memory-limit failure into a
// Python MemoryError so it is raised before anything is allocated.
func Alloc(c Ctx, n uint64) error {
	err := c.Meter().Alloc(n)
	if err != nil {
		var le *meter.LimitError
		if errors.As(err, &le) && le.Kind == meter.OutOfMemory {
			return Errorf(MemoryError, "")
		}
		return err
	}
	return nil
}

// AllocSlots checks and records memory for n slots of size each plus a header,
// guarding against overflow of the product.
func AllocSlots(c Ctx, header, n, size uint64) error {
	if n > (1<<40)/size {
		return Errorf(MemoryError, "")
	}
	return Alloc(c, header+n*size)
}

// NoneType is the type of None.
type NoneType struct{}

// None is Python's None.
var None Value = NoneType{}

// IsNone reports whether v is None. It is v == None as a type test, which
// the compiler inlines, where comparing the two interfaces calls the
// runtime (every NoneType value is None).
func IsNone(v Value) bool {
	_, ok := v.(NoneType)
	return ok
}

// Type implements Value.
func (NoneType) Type() *Class { return NoneClass }

// Repr implements Value.
func (NoneType) Repr(Ctx) (string, error) { return "None", nil }

// Truth implements Value.
func (NoneType) Truth(Ctx) (bool, error) { return false, nil }

// Hash implements Value.
func (NoneType) Hash(Ctx) (int64, error) { return 0xFCA86420, nil }

// Bool is True or False; a subclass of int.
type Bool bool

// True and False.
const (
	True  = Bool(true)
	False = Bool(false)
)

// Type implements Value.
func (Bool) Type() *Class { return BoolClass }

// Repr implements Value.
func (b Bool) Repr(Ctx) (string, error) {
	if b {
		return "True", nil
	}
	return "False", nil
}

// Truth implements Value.
func (b Bool) Truth(Ctx) (bool, error) { return bool(b), nil }

// Hash implements Value.
func (b Bool) Hash(Ctx) (int64, error) {
	if b {
		return 1, nil
	}
	return 0, nil
}

// Singleton is a unique named value such as NotImplemented or Ellipsis.
type Singleton struct {
	name string
	cls  *Class
}

// Type implements Value.
func (s *Singleton) Type() *Class { return s.cls }

// Repr implements Value.
func (s *Singleton) Repr(Ctx) (string, error) { return s.name, nil }

// Truth implements Value.
func (s *Singleton) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (s *Singleton) Hash(Ctx) (int64, error) { return int64(len(s.name)) * 7919, nil }

// NotImplemented is returned by binary dunders that do not handle an operand.
var NotImplemented = &Singleton{name: "NotImplemented"}

// Ellipsis is the value of `...`.
var Ellipsis = &Singleton{name: "Ellipsis"}

// MakeBool converts a Go bool.
func MakeBool(b bool) Value {
	if b {
		return True
	}
	return False
}

// ArgStacker is implemented by a Ctx with an argument stack (the VM's
// thread): PushArgs returns n slots for the arguments of a call, which
// PopArgs gives back, last pushed first. Callees never keep their args.
type ArgStacker interface {
	PushArgs(n int) []Value
	PopArgs(s []Value)
}

// callSelf calls fn(self): a dunder method on an instance (__iter__,
// __len__, __bool__, a property's getter, ...), through the context's
// argument stack when it has one. Callees never keep their args.
func callSelf(c Ctx, fn, self Value) (Value, error) {
	if as, ok := c.(ArgStacker); ok {
		args := as.PushArgs(1)
		args[0] = self
		r, err := c.Call(fn, args, nil)
		as.PopArgs(args)
		return r, err
	}
	return c.Call(fn, []Value{self}, nil)
}
