package object

import "github.com/cowboy-chain/cowboy/pvm/meter"

// AttrGetter is implemented by values with attributes of their own beyond
// their class's (modules, functions, generators).
type AttrGetter interface {
	GetAttr(c Ctx, name string) (Value, bool, error)
}

// AttrSetter is implemented by values whose attributes can be assigned
// (modules, functions).
type AttrSetter interface {
	SetAttr(c Ctx, name string, v Value) error
}

// AttrDeleter is implemented by values whose own attributes can be
// deleted (functions): DelAttr reports false when name is not one.
type AttrDeleter interface {
	DelAttr(c Ctx, name string) (bool, error)
}

// bind applies the descriptor protocol to a class attribute a found for
// receiver self (an instance or a class when onClass is true).
func bind(c Ctx, a Value, self Value, cls *Class, onClass bool) (Value, error) {
	switch d := a.(type) {
	case *Property:
		if onClass {
			return d, nil
		}
		if d.Get == nil || d.Get == None {
			return nil, Errorf(AttributeError, "unreadable attribute")
		}
		return callSelf(c, d.Get, self)
	case *StaticMethod:
		return d.Fn, nil
	case *ClassMethod:
		return &BoundMethod{Self: cls, Fn: d.Fn}, nil
	case *Instance:
		// A user descriptor: type(d).__get__(d, instance or None, owner).
		if get, _ := d.Class.Lookup("__get__"); get != nil {
			var obj Value = None
			if !onClass {
				obj = self
			}
			return c.Call(get, []Value{d, obj, cls}, nil)
		}
	case Bindable:
		if !onClass && d.Bindable() {
			return &BoundMethod{Self: self, Fn: d}, nil
		}
	}
	return a, nil
}

// GetAttr is getattr(v, name).
func GetAttr(c Ctx, v Value, name string) (Value, error) {
	switch x := v.(type) {
	case *Instance:
		a, _ := x.Class.Lookup(name)
		if p, ok := a.(*Property); ok {
			return bind(c, p, x, x.Class, false)
		}
		if d, ok := a.(*Instance); ok && isDataDescriptor(d) {
			return bind(c, d, x, x.Class, false)
		}
		if r, ok := x.Dict.Get(name); ok {
			return r, nil
		}
		if x.Exc != nil {
			if r, ok := excAttr(x, name); ok {
				return r, nil
			}
		}
		if a != nil {
			return bind(c, a, x, x.Class, false)
		}
		switch name {
		case "__class__":
			return x.Class, nil
		case "__doc__":
			// The class's docstring, None without one (as the class
			// itself answers, classAttr).
			return None, nil
		case "__dict__":
			// The live namespace, not a copy (AttrDict).
			return AttrDict(c, x.Dict)
		}
		if ga, _ := x.Class.Lookup("__getattr__"); ga != nil {
			return c.Call(ga, []Value{x, Str(name)}, nil)
		}
		return nil, attrError(v, name)
	case *Class:
		return classAttr(c, x, name)
	case *Super:
		return superAttr(c, x, name)
	case *BoundMethod:
		switch name {
		case "__self__":
			return x.Self, nil
		case "__func__":
			return x.Fn, nil
		}
		return GetAttr(c, x.Fn, name)
	case AttrGetter:
		r, ok, err := x.GetAttr(c, name)
		if err != nil || ok {
			return r, err
		}
	case *Property:
		switch name {
		case "fget":
			return x.Get, nil
		case "fset":
			return x.Set, nil
		case "fdel":
			return x.Del, nil
		case "__isabstractmethod__":
			return isAbstract(c, x.Get, x.Set, x.Del)
		}
	case *ClassMethod:
		switch name {
		case "__func__", "__wrapped__":
			return x.Fn, nil
		case "__isabstractmethod__":
			return isAbstract(c, x.Fn)
		}
	case *StaticMethod:
		switch name {
		case "__func__", "__wrapped__":
			return x.Fn, nil
		case "__isabstractmethod__":
			return isAbstract(c, x.Fn)
		}
	}
	if name == "__class__" {
		return v.Type(), nil
	}
	if sl, ok := v.(*SliceObj); ok {
		switch name {
		case "start":
			return sl.Start, nil
		case "stop":
			return sl.Stop, nil
		case "step":
			return sl.Step, nil
		case "indices":
			return NewBuiltin("indices", func(c Ctx, args []Value, kw []Kw) (Value, error) {
				if err := ArgCount("indices", args, 1, 1); err != nil {
					return nil, err
				}
				n, err := IndexValue(c, args[0], "'"+TypeName(args[0])+"' object cannot be interpreted as an integer")
				if err != nil {
					return nil, err
				}
				if n < 0 {
					return nil, Errorf(ValueError, "length should not be negative")
				}
				start, stop, step, _, err := sl.Indices(c, clampInt(n))
				if err != nil {
					return nil, err
				}
				return Tuple{Int(start), Int(stop), Int(step)}, nil
			}), nil
		}
	}
	switch v.(type) {
	case Int, *BigInt, Bool, Float:
		switch name {
		case "real":
			if f, ok := v.(Float); ok {
				return f, nil
			}
			return Binary(c, OpAdd, v, Int(0))
		case "imag":
			if _, ok := v.(Float); ok {
				return Float(0), nil
			}
			return Int(0), nil
		case "numerator":
			if _, ok := v.(Float); !ok {
				return Binary(c, OpAdd, v, Int(0))
			}
		case "denominator":
			if _, ok := v.(Float); !ok {
				return Int(1), nil
			}
		}
	}
	cls := v.Type()
	if a, _ := cls.Lookup(name); a != nil {
		return bind(c, a, v, cls, false)
	}
	if m := iteratorDunder(v, name); m != nil {
		return m, nil
	}
	return nil, attrError(v, name)
}

func attrError(v Value, name string) error {
	var err error
	if m, ok := v.(interface{ ModuleName() string }); ok {
		err = Errorf(AttributeError, "module '%s' has no attribute '%s'", m.ModuleName(), name)
	} else {
		err = Errorf(AttributeError, "'%s' object has no attribute '%s'", TypeName(v), name)
	}
	e := err.(*Exception)
	e.Value.Exc.SuggestName, e.Value.Exc.SuggestObj = name, v
	return err
}

// classOwn names the attributes classAttr answers from the class itself,
// before its MRO: classOwnName is the one list of them, which both
// classAttr and ClassAttrFixed (the interpreter's class inline cache)
// read, so a name added here is one the cache defers to GetAttr.
type classOwn uint8

const (
	notClassOwn classOwn = iota
	ownName
	ownModule
	ownMRO
	ownBases
	ownClass
	ownAnnotations
	ownDict
)

// classOwnName is the classOwn kind of name, notClassOwn for the names
// classAttr looks up in the MRO.
func classOwnName(name string) classOwn {
	switch name {
	case "__name__", "__qualname__":
		return ownName
	case "__module__":
		return ownModule
	case "__mro__":
		return ownMRO
	case "__bases__":
		return ownBases
	case "__class__":
		return ownClass
	case "__annotations__":
		return ownAnnotations
	case "__dict__":
		return ownDict
	}
	return notClassOwn
}

func classAttr(c Ctx, k *Class, name string) (Value, error) {
	switch classOwnName(name) {
	case ownName:
		if name == "__qualname__" {
			return Str(k.Qual()), nil
		}
		return Str(k.Name), nil
	case ownModule:
		return Str(k.Module), nil
	case ownMRO:
		t := make(Tuple, len(k.MRO))
		for i, m := range k.MRO {
			t[i] = m
		}
		return t, nil
	case ownBases:
		t := make(Tuple, len(k.Bases))
		for i, m := range k.Bases {
			t[i] = m
		}
		return t, nil
	case ownClass:
		return k.Type(), nil
	case ownAnnotations:
		// type.__annotations__ reads the class's own namespace only.
		if v, ok := k.Dict.Get(name); ok {
			return v, nil
		}
		if !k.builtinType {
			d := NewDict()
			k.Dict.Set(name, d)
			k.mutated()
			return d, nil
		}
	case ownDict:
		d := NewDict()
		var err error
		k.Dict.Each(func(n string, val Value) {
			if err == nil {
				err = d.Set(c, Str(n), val)
			}
		})
		return d, err
	}
	if a, _ := k.Lookup(name); a != nil {
		return bind(c, a, k, k, true)
	}
	if k.Meta != nil {
		// Attributes of the metaclass (EnumMeta.__members__), bound to the
		// class as their instance.
		if a, _ := k.Meta.Lookup(name); a != nil {
			return bind(c, a, k, k.Meta, false)
		}
	}
	if name == "__doc__" {
		return None, nil
	}
	if name == "mro" {
		return NewBuiltin("mro", func(c Ctx, args []Value, kw []Kw) (Value, error) {
			out := make([]Value, len(k.MRO))
			for i, m := range k.MRO {
				out[i] = m
			}
			return &List{Elems: out}, nil
		}), nil
	}
	err := Errorf(AttributeError, "type object '%s' has no attribute '%s'", k.Name, name)
	e := err.(*Exception)
	e.Value.Exc.SuggestName, e.Value.Exc.SuggestObj = name, k
	return nil, err
}

func superAttr(c Ctx, s *Super, name string) (Value, error) {
	var cls *Class
	onClass := false
	switch o := s.Obj.(type) {
	case *Class:
		if o.IsSubclass(s.Start) {
			cls, onClass = o, true
		} else {
			cls = o.Type() // a metaclass method: the class is the instance
		}
	default:
		cls = o.Type()
	}
	mro := cls.MRO
	i := 0
	for i < len(mro) && mro[i] != s.Start {
		i++
	}
	for _, m := range mro[i+1:] {
		if a, ok := m.Dict.Get(name); ok {
			if onClass {
				if cm, ok := a.(*ClassMethod); ok {
					return &BoundMethod{Self: cls, Fn: cm.Fn}, nil
				}
				return bind(c, a, cls, cls, true)
			}
			return bind(c, a, s.Obj, cls, false)
		}
	}
	if !onClass && name == "__init__" {
		// object.__init__ when nothing else defines it.
		a, _ := ObjectClass.Dict.Get("__init__")
		return &BoundMethod{Self: s.Obj, Fn: a}, nil
	}
	return nil, Errorf(AttributeError, "'super' object has no attribute '%s'", name)
}

// ClassAttrFixed is what GetAttr(k, name) returns when k's lookup decides
// it and the answer stays the same while k.LookupVersion does: v is the
// value itself, or, when bindClass is set, a classmethod's function that
// GetAttr would return bound to k (a new BoundMethod each time). ok is
// false when GetAttr must run: the names classAttr answers itself, a name
// k's MRO does not bind, and a user descriptor (an instance, whose
// __get__ may run). Nothing here charges, as classAttr does not.
func ClassAttrFixed(k *Class, name string) (v Value, bindClass, ok bool) {
	if classOwnName(name) != notClassOwn {
		return nil, false, false
	}
	a, _ := k.Lookup(name)
	switch d := a.(type) {
	case nil, *Instance:
		return nil, false, false
	case *StaticMethod:
		return d.Fn, false, true
	case *ClassMethod:
		return d.Fn, true, true
	}
	return a, false, true // bind on the class returns a (a property too)
}

// InstanceDictFirst reports whether GetAttr on an instance of k looks name
// up in the instance's dictionary before anything else has an effect: the
// class attribute it finds, if any, is neither a property nor a
// user-defined descriptor. Its result changes only with k's LookupVersion.
func InstanceDictFirst(k *Class, name string) bool {
	switch a, _ := k.Lookup(name); a.(type) {
	case *Property, *Instance:
		return false
	}
	return true
}

// InstancePlainStore reports whether SetAttr of name on an instance of k
// is a plain store into the instance's dictionary: no property or
// user-defined descriptor for name, no user __setattr__. Its result changes
// only with k's LookupVersion.
func InstancePlainStore(k *Class, name string) bool {
	if name == "__class__" || name == "__dict__" {
		return false
	}
	switch a, _ := k.Lookup(name); a.(type) {
	case *Property, *Instance:
		return false
	}
	sa, _ := k.Lookup("__setattr__")
	return sa == nil || isObjectSlot(sa)
}

// SetAttr is setattr(v, name, val).
func SetAttr(c Ctx, v Value, name string, val Value) error {
	switch x := v.(type) {
	case *Instance:
		a, _ := x.Class.Lookup(name)
		if p, ok := a.(*Property); ok {
			if p.Set == nil || p.Set == None {
				return Errorf(AttributeError, "property '%s' of '%s' object has no setter", name, x.Class.Name)
			}
			_, err := c.Call(p.Set, []Value{x, val}, nil)
			return err
		}
		if d, ok := a.(*Instance); ok {
			if set, _ := d.Class.Lookup("__set__"); set != nil {
				_, err := c.Call(set, []Value{d, x, val}, nil)
				return err
			}
		}
		if sa, _ := x.Class.Lookup("__setattr__"); sa != nil && !isObjectSlot(sa) {
			_, err := c.Call(sa, []Value{x, Str(name), val}, nil)
			return err
		}
		return instanceSet(c, x, name, val)
	case *Class:
		if m := MetaMethod(x, "__setattr__"); m != nil {
			_, err := c.Call(m, []Value{x, Str(name), val}, nil)
			return err
		}
		return SetClassAttr(c, x, name, val)
	case AttrSetter:
		return x.SetAttr(c, name, val)
	}
	if name == "__class__" {
		if _, ok := val.(*Class); !ok {
			return Errorf(TypeError, "__class__ must be set to a class, not '%s' object", TypeName(val))
		}
		return Errorf(TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses")
	}
	if _, ok := v.Type().Lookup(name); ok != nil {
		return Errorf(AttributeError, "'%s' object attribute '%s' is read-only", TypeName(v), name)
	}
	return Errorf(AttributeError, "'%s' object has no attribute '%s'", TypeName(v), name)
}

// isAbstract is the __isabstractmethod__ of a wrapper (property,
// classmethod, staticmethod): true when any wrapped function has it.
func isAbstract(c Ctx, fns ...Value) (Value, error) {
	for _, f := range fns {
		if f == nil || f == None {
			continue
		}
		v, err := GetAttr(c, f, "__isabstractmethod__")
		if err != nil {
			if e, ok := err.(*Exception); ok && e.Value.Class.IsSubclass(AttributeError) {
				continue
			}
			return nil, err
		}
		if t, err := Truth(c, v); err != nil || t {
			return True, err
		}
	}
	return False, nil
}

// SetClassAttr is type.__setattr__: it stores name in k's namespace
// (__name__, __qualname__ and __module__ rename the class).
func SetClassAttr(c Ctx, k *Class, name string, val Value) error {
	if k.builtinType || k.Module == "builtins" {
		return Errorf(TypeError, "cannot set '%s' attribute of immutable type '%s'", name, k.Name)
	}
	switch name {
	case "__class__":
		m, err := classAssignable(k.Type(), val)
		if err != nil {
			return err
		}
		k.Meta = m
		k.mutated()
		return nil
	case "__name__", "__qualname__", "__module__":
		s, ok := val.(Str)
		if !ok {
			return Errorf(TypeError, "can only assign string to %s.%s, not '%s'", k.Name, name, TypeName(val))
		}
		switch name {
		case "__module__":
			k.Module = string(s)
		case "__qualname__":
			k.QualName = string(s)
		default:
			k.Name = string(s)
		}
		return nil
	}
	k.Dict.Set(name, val)
	k.mutated()
	return nil
}

// isDataDescriptor reports whether a class attribute that is a user
// instance defines __set__ or __delete__ (and so overrides the instance
// dict).
func isDataDescriptor(d *Instance) bool {
	if m, _ := d.Class.Lookup("__set__"); m != nil {
		return true
	}
	m, _ := d.Class.Lookup("__delete__")
	return m != nil
}

func instanceSet(c Ctx, x *Instance, name string, val Value) error {
	if name == "__class__" {
		k, err := classAssignable(x.Class, val)
		if err != nil {
			return err
		}
		x.Class = k
		return nil
	}
	if name == "__dict__" {
		return setInstanceDict(c, x, val)
	}
	if x.Dict.Put(name, val) {
		return chargeNewAttr(c, x, name)
	}
	return nil
}

// setInstanceDict is obj.__dict__ = val: CPython makes val the
// instance's storage; here the namespace stays and takes val's entries
// (ReplaceNamespace), each new name charged as a new attribute.
func setInstanceDict(c Ctx, x *Instance, val Value) error {
	return ReplaceNamespace(c, x.Dict, val, func(name string) error { return chargeNewAttr(c, x, name) })
}

// ReplaceNamespace is the store of val into the __dict__ of an object
// whose attributes live in ns: ns drops its names and takes val's
// entries, val's keys being str, calling added (if not nil) for each
// name bound. A later change of val does not reach ns, where in CPython
// val becomes the storage.
func ReplaceNamespace(c Ctx, ns *StrDict, val Value, added func(name string) error) error {
	d, ok := val.(*Dict)
	if !ok {
		return Errorf(TypeError, "__dict__ must be set to a dictionary, not a '%s'", TypeName(val))
	}
	if d.ns == ns {
		return nil
	}
	items := d.Items()
	for _, kv := range items {
		if _, ok := kv[0].(Str); !ok {
			return Errorf(TypeError, "attribute dictionary keys must be str in the PVM, not '%s'", TypeName(kv[0]))
		}
	}
	var names []string
	ns.Each(func(name string, _ Value) { names = append(names, name) })
	for _, name := range names {
		ns.Delete(name)
	}
	for _, kv := range items {
		name := string(kv[0].(Str))
		if ns.Put(name, kv[1]) && added != nil {
			if err := added(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// AddInstanceAttr binds name, which x's dictionary does not bind, to val
// as instanceSet would, when m's allocation counter has room for the new
// entry (meter.Meter.Alloc's first test, which takes the charge without a
// live-heap walk): then that charge cannot fail, and the store is
// SetAttr's own binding and charge without its class lookups. The
// interpreter's STORE_ATTR cache calls it when InstancePlainStore holds
// for x's class, after its rebinding found no binding. Without room it
// changes nothing and reports false: SetAttr must run, as its charge may
// walk the heap or fail.
func AddInstanceAttr(m *meter.Meter, x *Instance, name string, val Value) bool {
	if lim, used := m.MemoryLimit(), m.MemoryUsed(); used > lim || meter.SizeDictEntry > lim-used {
		return false
	}
	x.Dict.add(name, val)
	_ = m.Alloc(meter.SizeDictEntry) // room checked above: Alloc only adds to the counter
	return true
}

// chargeNewAttr charges the dictionary entry of x's new attribute name.
// If it does not fit, it undoes the binding so the failed store leaves
// no trace.
func chargeNewAttr(c Ctx, x *Instance, name string) error {
	if err := Alloc(c, meter.SizeDictEntry); err != nil {
		x.Dict.Delete(name)
		return err
	}
	return nil
}

// classAssignable checks obj.__class__ = val for an object of class old
// (CPython's object_set_class): val must be a class, neither class may be a
// builtin (immutable) type, and both must have the same instance layout.
func classAssignable(old *Class, val Value) (*Class, error) {
	k, ok := val.(*Class)
	if !ok {
		return nil, Errorf(TypeError, "__class__ must be set to a class, not '%s' object", TypeName(val))
	}
	if staticType(old) || staticType(k) {
		return nil, Errorf(TypeError, "__class__ assignment only supported for mutable types or ModuleType subclasses")
	}
	if !sameLayout(old, k) {
		return nil, Errorf(TypeError, "__class__ assignment: '%s' object layout differs from '%s'", k.Name, old.Name)
	}
	return k, nil
}

// staticType reports whether k is a builtin type (CPython's immutable,
// non-heap types): the builtins and the classes of Go-implemented modules.
func staticType(k *Class) bool {
	return k.builtinType || k.Module == "builtins" || k.New != nil
}

// sameLayout approximates CPython's compatible_for_assignment: instances of
// a and b are interchangeable when the nearest builtin class in their MROs
// (object, list, Exception, ValueError, ...) is the same and they declare
// the same __slots__ along the way.
func sameLayout(a, b *Class) bool {
	if layoutBase(a) != layoutBase(b) || a.Solid != b.Solid || a.isExc != b.isExc {
		return false
	}
	return slotsKey(a) == slotsKey(b)
}

func layoutBase(k *Class) *Class {
	for _, m := range k.MRO {
		if staticType(m) {
			return m
		}
	}
	return ObjectClass
}

// slotsKey describes the __slots__ declared by the user classes in k's MRO
// (the PVM does not restrict attributes by __slots__, but CPython's layout
// check depends on them); "" when none declares any.
func slotsKey(k *Class) string {
	key := ""
	for _, m := range k.MRO {
		if staticType(m) {
			break
		}
		v, ok := m.Dict.Get("__slots__")
		if !ok {
			continue
		}
		switch s := v.(type) {
		case Str:
			key += "|" + string(s)
		case Tuple:
			key += "|"
			for _, e := range s {
				if n, ok := e.(Str); ok {
					key += string(n) + ","
				}
			}
		case *List:
			key += "|"
			for _, e := range s.Elems {
				if n, ok := e.(Str); ok {
					key += string(n) + ","
				}
			}
		default:
			key += "|?"
		}
	}
	return key
}

// DelAttr is delattr(v, name).
func DelAttr(c Ctx, v Value, name string) error {
	switch x := v.(type) {
	case *Instance:
		if name == "__class__" {
			return Errorf(TypeError, "can't delete __class__ attribute")
		}
		a, _ := x.Class.Lookup(name)
		if p, ok := a.(*Property); ok {
			if p.Del == nil || p.Del == None {
				return Errorf(AttributeError, "property '%s' of '%s' object has no deleter", name, x.Class.Name)
			}
			_, err := c.Call(p.Del, []Value{x}, nil)
			return err
		}
		if d, ok := a.(*Instance); ok {
			if del, _ := d.Class.Lookup("__delete__"); del != nil {
				_, err := c.Call(del, []Value{d, x}, nil)
				return err
			}
		}
		if da, _ := x.Class.Lookup("__delattr__"); da != nil && !isObjectSlot(da) {
			_, err := c.Call(da, []Value{x, Str(name)}, nil)
			return err
		}
		if name == "__dict__" {
			// CPython gives the instance a new, empty dict.
			return setInstanceDict(c, x, NewDict())
		}
		if x.Dict.Delete(name) {
			return nil
		}
	case *Class:
		if x.builtinType || x.Module == "builtins" {
			// Builtin classes are shared by every thread of the process
			// (and assumed immutable by the lookup caches).
			return Errorf(TypeError, "cannot set '%s' attribute of immutable type '%s'", name, x.Name)
		}
		if x.Dict.Delete(name) {
			x.mutated()
			return nil
		}
	case AttrDeleter:
		ok, err := x.DelAttr(c, name)
		if ok || err != nil {
			return err
		}
	}
	return attrError(v, name)
}

// HasAttr is hasattr(v, name): AttributeError means false, other errors
// propagate.
func HasAttr(c Ctx, v Value, name string) (bool, error) {
	_, err := GetAttr(c, v, name)
	if err == nil {
		return true, nil
	}
	if e, ok := err.(*Exception); ok && e.Value.Class.IsSubclass(AttributeError) {
		return false, nil
	}
	return false, err
}
