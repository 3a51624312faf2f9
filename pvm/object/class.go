package object

import (
	"fmt"
	"strings"
)

// Class is a Python class: builtin types (int, str, list, ValueError, ...) and
// user classes alike. Builtin types have Go values as instances; user classes
// have *Instance.
type Class struct {
	Name   string
	Module string // "builtins" for builtin types, else the defining module
	Bases  []*Class
	MRO    []*Class
	Dict   *StrDict
	// New constructs an instance of a builtin type when the class is called
	// (int("3"), list(x)); nil for classes whose instances are *Instance.
	New func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error)
	// generic: k[item] is a types.GenericAlias (MarkGeneric).
	generic bool
	// builtinType is set for types whose instances are Go values; user code
	// cannot subclass those.
	builtinType bool
	isExc       bool
	// Meta is the metaclass (type(k)) when it is not type itself.
	Meta *Class
	// Solid is the builtin type (int, str, tuple, list, dict, set, ...)
	// whose values this class's instances extend, nil when they extend
	// none; such an instance keeps its builtin value in Instance.Base.
	Solid *Class

	// QualName is __qualname__ (PEP 3155: Outer.Inner, f.<locals>.C),
	// which the class repr shows; "" for builtin types, whose qualname is
	// their name (Qual).
	QualName string

	// epoch, when set, enables the lookup cache: it is shared by every
	// cached user class of one thread and bumped whenever any of them is
	// mutated, which empties all their caches at once.
	epoch  *uint64
	lepoch uint64
	lcache map[string]lookupHit
	// dcache holds the lookups of the dunders the object model asks for
	// on every truth test, iteration or len() of an instance (lookupDunder),
	// under the same epoch as lcache.
	dcache *dunderCache
	// shared marks the builtin classes every thread uses (clone.go).
	shared bool
	// pattern is collectionSequence or collectionMapping when a match
	// statement's sequence or mapping patterns accept k's instances
	// (CPython's Py_TPFLAGS_SEQUENCE and Py_TPFLAGS_MAPPING), else 0.
	pattern uint8
}

// The values of Class.pattern.
const (
	collectionSequence uint8 = 1 + iota
	collectionMapping
)

// MatchesSequence reports whether a sequence pattern accepts instances of
// k: list, tuple, range and collections.deque and their subclasses, never
// str, bytes or bytearray (PEP 634).
func (k *Class) MatchesSequence() bool { return k.pattern == collectionSequence }

// MatchesMapping reports whether a mapping pattern accepts instances of
// k: dict and its subclasses (OrderedDict, defaultdict, Counter).
func (k *Class) MatchesMapping() bool { return k.pattern == collectionMapping }

// MarkSequence makes sequence patterns accept k and the subclasses made
// after it: a class the PVM writes in Python that CPython writes in C with
// Py_TPFLAGS_SEQUENCE (collections.deque), marked when its module loads.
func (k *Class) MarkSequence() { k.pattern = collectionSequence }

// MarkGeneric makes k[item] (and a subclass's) a types.GenericAlias: a
// class the PVM writes in Python that CPython writes in C with
// __class_getitem__ = GenericAlias (collections.deque[int]). A flag and
// not a class attribute, so the module's objects, which the live-heap
// walk measures, stay as they were.
func (k *Class) MarkGeneric() { k.generic = true }

type lookupHit struct {
	v     Value
	owner *Class
}

// EnableLookupCache turns on MRO lookup caching for k, invalidated through
// epoch. The caller (the interpreter) passes one epoch per thread and only
// for classes whose whole MRO is builtin or shares that epoch, so no
// mutation can go unseen.
func (k *Class) EnableLookupCache(epoch *uint64) {
	for _, m := range k.MRO[1:] {
		if m.Module != "builtins" && m.epoch != epoch {
			return
		}
	}
	k.epoch = epoch
}

// LookupVersion identifies the state of everything Lookup on k reads: while
// it returns the same version with ok set, Lookup(name) returns the same
// result for every name, so callers may cache results keyed by k and the
// version (the interpreter's inline caches). Builtin types are never
// mutated after initialisation (version 0); user classes are versioned by
// their thread's class epoch when their lookup cache is enabled; other
// classes report ok false.
func (k *Class) LookupVersion() (version uint64, ok bool) {
	if k.epoch != nil {
		return *k.epoch, true
	}
	return 0, k.builtinType
}

// mutated records a change to k's namespace for the lookup caches.
func (k *Class) mutated() {
	if k.epoch != nil {
		*k.epoch++
	}
}

// Type implements Value.
func (k *Class) Type() *Class {
	if k.Meta != nil {
		return k.Meta
	}
	return TypeClass
}

// Repr implements Value.
func (k *Class) Repr(c Ctx) (string, error) {
	if m := MetaMethod(k, "__repr__"); m != nil {
		return callStrDunder(c, m, k, "__repr__")
	}
	if k.Module == "builtins" || k.Module == "" {
		return "<class '" + k.Qual() + "'>", nil
	}
	return "<class '" + k.Module + "." + k.Qual() + "'>", nil
}

// Qual is the class's __qualname__: QualName, or the name when it has
// none (the builtin types).
func (k *Class) Qual() string {
	if k.QualName != "" {
		return k.QualName
	}
	return k.Name
}

// Truth implements Value.
func (*Class) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (k *Class) Hash(Ctx) (int64, error) { return strHash(k.Module + "." + k.Name), nil }

// IsException reports whether k derives from BaseException.
func (k *Class) IsException() bool { return k.isExc }

// IsSubclass reports whether k is sub or a subclass of it.
func (k *Class) IsSubclass(sup *Class) bool {
	if sup == ObjectClass {
		return true
	}
	for _, m := range k.MRO {
		if m == sup {
			return true
		}
	}
	return false
}

// Lookup finds name along the MRO, the way type attribute lookup does.
func (k *Class) Lookup(name string) (Value, *Class) {
	if k.epoch == nil {
		return k.lookupSlow(name)
	}
	if k.lepoch != *k.epoch || k.lcache == nil {
		k.lcache = map[string]lookupHit{}
		k.lepoch = *k.epoch
	}
	if h, ok := k.lcache[name]; ok {
		return h.v, h.owner
	}
	v, owner := k.lookupSlow(name)
	k.lcache[name] = lookupHit{v, owner}
	return v, owner
}

// The dunders lookupDunder caches, by index.
const (
	dBool = iota
	dLen
	dIter
	dNext
	dHash
	dNew
	dInit
	nDunders
)

// dunderNames are the names of the dunders lookupDunder caches.
var dunderNames = [nDunders]string{dBool: "__bool__", dLen: "__len__", dIter: "__iter__", dNext: "__next__", dHash: "__hash__", dNew: "__new__", dInit: "__init__"}

// dunderCache is a class's cached lookups of dunderNames at one epoch.
type dunderCache struct {
	epoch uint64
	have  uint8 // bit i: v[i] holds Lookup(dunderNames[i])
	v     [nDunders]Value
}

// lookupDunder is Lookup(dunderNames[i]) without hashing the name: the
// result is kept in k's dunder cache, emptied when k's epoch moves, as
// Lookup's own cache is.
func (k *Class) lookupDunder(i int) Value {
	if k.epoch == nil {
		v, _ := k.lookupSlow(dunderNames[i])
		return v
	}
	d := k.dcache
	if d == nil {
		d = &dunderCache{epoch: *k.epoch}
		k.dcache = d
	} else if d.epoch != *k.epoch {
		d.epoch, d.have = *k.epoch, 0
	}
	if d.have&(1<<i) == 0 {
		d.v[i], _ = k.Lookup(dunderNames[i])
		d.have |= 1 << i
	}
	return d.v[i]
}

// LookupNew is Lookup("__new__")'s value through the dunder cache, for
// instantiation.
func (k *Class) LookupNew() Value { return k.lookupDunder(dNew) }

// LookupInit is Lookup("__init__")'s value through the dunder cache, for
// instantiation.
func (k *Class) LookupInit() Value { return k.lookupDunder(dInit) }

func (k *Class) lookupSlow(name string) (Value, *Class) {
	for _, m := range k.MRO {
		if v, ok := m.Dict.Get(name); ok {
			return v, m
		}
	}
	return nil, nil
}

// NewBuiltinClass makes a builtin type with the given bases.
func newBuiltinClass(name string, builtinType bool, bases ...*Class) *Class {
	k := &Class{Name: name, Module: "builtins", Bases: bases, Dict: NewStrDict(), builtinType: builtinType}
	MarkShared(k)
	mro, ok := c3(k)
	if !ok {
		panic("pvm/object: inconsistent builtin class hierarchy for " + name)
	}
	k.MRO = mro
	for _, b := range bases {
		if b.isExc {
			k.isExc = true
		}
	}
	return k
}

// NewClass makes a user class (the class statement), computing the C3 MRO.
func NewClass(name, module string, bases []*Class, dict *StrDict) (*Class, error) {
	if len(bases) == 0 {
		bases = []*Class{ObjectClass}
	}
	k := &Class{Name: name, Module: module, Bases: bases, Dict: dict}
	for _, b := range bases {
		if b == BoolClass {
			return nil, Errorf(TypeError, "type 'bool' is not an acceptable base type")
		}
		if b.builtinType && b != ObjectClass && !subclassable(b) {
			return nil, Errorf(TypeError, "type '%s' is not an acceptable base type", b.Name)
		}
		solid := b.Solid
		if b.builtinType && b != ObjectClass {
			solid = b
		}
		if solid != nil {
			if k.Solid != nil && k.Solid != solid {
				return nil, Errorf(TypeError, "multiple bases have instance lay-out conflict")
			}
			k.Solid = solid
		}
		if b.isExc {
			k.isExc = true
		}
	}
	mro, ok := c3(k)
	if !ok {
		names := make([]string, len(bases))
		for i, b := range bases {
			names[i] = b.Name
		}
		return nil, Errorf(TypeError, "Cannot create a consistent method resolution\norder (MRO) for bases %s", strings.Join(names, ", "))
	}
	k.MRO = mro
	// The pattern flags are inherited, as type_new copies them from the
	// base (the first base in the MRO that has them stands in for
	// CPython's tp_base).
	for _, m := range mro[1:] {
		if m.pattern != 0 {
			k.pattern = m.pattern
			break
		}
	}
	return k, nil
}

// c3 computes the C3 linearisation of k's bases.
func c3(k *Class) ([]*Class, bool) {
	if len(k.Bases) == 1 && len(k.Bases[0].MRO) > 0 && k.Bases[0].MRO[0] == k.Bases[0] {
		// One base: merge(L[B], [B]) is L[B], so the MRO is k + L[B].
		b := k.Bases[0]
		out := make([]*Class, 0, len(b.MRO)+1)
		return append(append(out, k), b.MRO...), true
	}
	return c3merge(k)
}

// c3merge is the C3 merge itself.
func c3merge(k *Class) ([]*Class, bool) {
	seqs := make([][]*Class, 0, len(k.Bases)+1)
	for _, b := range k.Bases {
		seqs = append(seqs, append([]*Class(nil), b.MRO...))
	}
	seqs = append(seqs, append([]*Class(nil), k.Bases...))
	out := []*Class{k}
	for {
		nonEmpty := seqs[:0]
		for _, s := range seqs {
			if len(s) > 0 {
				nonEmpty = append(nonEmpty, s)
			}
		}
		seqs = nonEmpty
		if len(seqs) == 0 {
			return out, true
		}
		var cand *Class
		for _, s := range seqs {
			c := s[0]
			inTail := false
			for _, t := range seqs {
				for _, x := range t[1:] {
					if x == c {
						inTail = true
					}
				}
			}
			if !inTail {
				cand = c
				break
			}
		}
		if cand == nil {
			return nil, false
		}
		out = append(out, cand)
		for i, s := range seqs {
			if s[0] == cand {
				seqs[i] = s[1:]
			}
		}
	}
}

// Instance is an object of a user class (including user exceptions and
// instances of builtin exception classes).
type Instance struct {
	Class *Class
	Dict  *StrDict
	// Exc holds exception state when Class derives from BaseException.
	Exc *ExcState
	// ID is the deterministic identity (id()), from a per-call counter.
	ID int64
	// Base is the builtin value (an Int, Str, Tuple, *List, *Dict, ...) an
	// instance of a subclass of a builtin type extends; nil otherwise.
	Base Value
}

// instanceMem is an Instance allocated together with its dictionary and
// the first four slots of the dictionary's names and values.
type instanceMem struct {
	Instance
	dict StrDict
	keys [4]string
	vals [4]Value
}

// NewInstance allocates an instance of a user class.
func NewInstance(c Ctx, k *Class) (*Instance, error) {
	if err := Alloc(c, 64+48); err != nil {
		return nil, err
	}
	// One Go allocation for the instance, its dictionary and room for its
	// first four attributes (StrDict.add would make that room at the
	// first store anyway); the meter charges what it charged before.
	w := &instanceMem{}
	w.dict.keys, w.dict.vals = w.keys[:0:len(w.keys)], w.vals[:0:len(w.vals)]
	in := &w.Instance
	in.Class, in.Dict, in.ID = k, &w.dict, c.NextID()
	if k.Solid != nil {
		in.Base = zeroOf(k.Solid)
	}
	if k.isExc {
		in.Exc = &ExcState{Args: Tuple{}}
	}
	return in, nil
}

// Type implements Value.
func (in *Instance) Type() *Class { return in.Class }

// Repr implements Value.
func (in *Instance) Repr(c Ctx) (string, error) {
	if m, _ := in.Class.Lookup("__repr__"); m != nil && !isObjectSlot(m) {
		return callStrDunder(c, m, in, "__repr__")
	}
	if in.Exc != nil {
		return excRepr(c, in)
	}
	return fmt.Sprintf("<%s.%s object at %#x>", in.Class.Module, in.Class.Name, in.ID), nil
}

// Truth implements Value.
func (in *Instance) Truth(c Ctx) (bool, error) {
	if m := in.Class.lookupDunder(dBool); m != nil {
		r, err := callSelf(c, m, in)
		if err != nil {
			return false, err
		}
		b, ok := r.(Bool)
		if !ok {
			return false, Errorf(TypeError, "__bool__ should return bool, returned %s", r.Type().Name)
		}
		return bool(b), nil
	}
	if m := in.Class.lookupDunder(dLen); m != nil {
		n, err := callLen(c, m, in)
		return n != 0, err
	}
	return true, nil
}

// Hash implements Value.
func (in *Instance) Hash(c Ctx) (int64, error) {
	m := in.Class.lookupDunder(dHash)
	if IsNone(m) {
		return 0, Errorf(TypeError, "unhashable type: '%s'", in.Class.Name)
	}
	if m != nil && !isObjectSlot(m) {
		r, err := callSelf(c, m, in)
		if err != nil {
			return 0, err
		}
		switch r := r.(type) {
		case Int:
			return int64(r), nil
		case Bool:
			h, _ := r.Hash(c)
			return h, nil
		case *BigInt:
			return r.Hash(c)
		}
		return 0, Errorf(TypeError, "__hash__ method should return an integer")
	}
	if implicitHashNone(in.Class) {
		return 0, Errorf(TypeError, "unhashable type: '%s'", in.Class.Name)
	}
	return identityHash(in), nil
}

// implicitHashNone reports whether a class of k's MRO defines __eq__
// without __hash__ before any class defines __hash__: CPython then sets
// that class's __hash__ to None, so its instances are unhashable, while
// `__hash__ = object.__hash__` beside __eq__ keeps them hashable.
func implicitHashNone(k *Class) bool {
	for _, m := range k.MRO {
		if m.Dict.Has("__hash__") {
			return false
		}
		if eq, ok := m.Dict.Get("__eq__"); ok && !isObjectSlot(eq) {
			return true
		}
	}
	return false
}

// identityHash is object identity hashing without memory addresses: the
// per-call allocation counter is the identity.
func identityHash(in *Instance) int64 { return in.ID }

func callLen(c Ctx, m, self Value) (int, error) {
	r, err := callSelf(c, m, self)
	if err != nil {
		return 0, err
	}
	n, ok := r.(Int)
	if !ok {
		if b, isb := r.(Bool); isb {
			if b {
				return 1, nil
			}
			return 0, nil
		}
		return 0, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", r.Type().Name)
	}
	if n < 0 {
		return 0, Errorf(ValueError, "__len__() should return >= 0")
	}
	return int(n), nil
}

func callStrDunder(c Ctx, m, self Value, name string) (string, error) {
	r, err := callSelf(c, m, self)
	if err != nil {
		return "", err
	}
	s, ok := r.(Str)
	if !ok {
		return "", Errorf(TypeError, "%s returned non-string (type %s)", name, r.Type().Name)
	}
	return string(s), nil
}

func isObjectSlot(v Value) bool {
	b, ok := v.(*Builtin)
	return ok && b.objectSlot
}

// Builtin is a function implemented in Go (len, list.append, ...).
type Builtin struct {
	Name string
	Fn   func(c Ctx, args []Value, kw []Kw) (Value, error)
	// Method is set for functions stored in a class dict: attribute access
	// through an instance binds the instance as args[0].
	Method     bool
	objectSlot bool
}

// NewBuiltin wraps a Go function as a Python builtin function.
func NewBuiltin(name string, fn func(c Ctx, args []Value, kw []Kw) (Value, error)) *Builtin {
	return &Builtin{Name: name, Fn: fn}
}

// Type implements Value.
func (*Builtin) Type() *Class { return BuiltinFunctionClass }

// Repr implements Value.
func (b *Builtin) Repr(Ctx) (string, error) {
	if b.Method {
		return "<method '" + b.Name + "'>", nil
	}
	return "<built-in function " + b.Name + ">", nil
}

// Truth implements Value.
func (*Builtin) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (b *Builtin) Hash(Ctx) (int64, error) { return strHash(b.Name), nil }

// Bindable marks callables that become bound methods when found on a class
// through an instance (Python functions and builtin methods).
type Bindable interface {
	Value
	Bindable() bool
}

// Bindable implements Bindable: only builtin methods bind.
func (b *Builtin) Bindable() bool { return b.Method }

// BoundMethod is a callable bound to its receiver.
type BoundMethod struct {
	Self Value
	Fn   Value
}

// Type implements Value.
func (*BoundMethod) Type() *Class { return MethodClass }

// Repr implements Value.
func (m *BoundMethod) Repr(c Ctx) (string, error) {
	name := "?"
	if n, ok := m.Fn.(interface{ FuncName() string }); ok {
		name = n.FuncName()
	} else if b, ok := m.Fn.(*Builtin); ok {
		name = b.Name
	}
	if k, ok := m.Self.(*Class); ok {
		return "<bound method " + k.Name + "." + name + " of " + mustRepr(c, k) + ">", nil
	}
	return "<bound method " + m.Self.Type().Name + "." + name + ">", nil
}

func mustRepr(c Ctx, v Value) string {
	s, err := v.Repr(c)
	if err != nil {
		return "?"
	}
	return s
}

// Truth implements Value.
func (*BoundMethod) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (m *BoundMethod) Hash(c Ctx) (int64, error) {
	h, err := m.Fn.Hash(c)
	return h ^ 0x5bd1e995, err
}

// Property is the property descriptor.
type Property struct {
	Get, Set, Del Value // None when absent
}

// Type implements Value.
func (*Property) Type() *Class { return PropertyClass }

// Repr implements Value.
func (*Property) Repr(Ctx) (string, error) { return "<property object>", nil }

// Truth implements Value.
func (*Property) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*Property) Hash(Ctx) (int64, error) { return 0x70726f70, nil }

// StaticMethod wraps a function so that it does not bind.
type StaticMethod struct{ Fn Value }

// Type implements Value.
func (*StaticMethod) Type() *Class { return StaticMethodClass }

// Repr implements Value.
func (*StaticMethod) Repr(Ctx) (string, error) { return "<staticmethod object>", nil }

// Truth implements Value.
func (*StaticMethod) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*StaticMethod) Hash(Ctx) (int64, error) { return 0x73746174, nil }

// ClassMethod wraps a function so that it binds to the class.
type ClassMethod struct{ Fn Value }

// Type implements Value.
func (*ClassMethod) Type() *Class { return ClassMethodClass }

// Repr implements Value.
func (*ClassMethod) Repr(Ctx) (string, error) { return "<classmethod object>", nil }

// Truth implements Value.
func (*ClassMethod) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*ClassMethod) Hash(Ctx) (int64, error) { return 0x636c6173, nil }

// Super is the value of super(): attribute lookup starts after Start in the
// MRO of Obj's class.
type Super struct {
	Start *Class
	Obj   Value // an instance, or a class for classmethods
}

// Type implements Value.
func (*Super) Type() *Class { return SuperClass }

// Repr implements Value.
func (s *Super) Repr(Ctx) (string, error) { return "<super: <class '" + s.Start.Name + "'>>", nil }

// Truth implements Value.
func (*Super) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*Super) Hash(Ctx) (int64, error) { return 0x73757065, nil }
