package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Cell holds a variable shared between a function and its closures.
// It is CPython's cell object (PyCellObject): LOAD_DEREF and STORE_DEREF
// read and write V, and a nil V is an unbound variable (NameError or
// UnboundLocalError, as the compiler's scope decides). A frame and the
// closures made in it share the same *Cell, which is what makes a
// closure see later assignments in its defining function.
type Cell struct{ V object.Value }

// Type implements object.Value.
func (*Cell) Type() *object.Class { return object.CellClass }

// Repr implements object.Value.
func (*Cell) Repr(object.Ctx) (string, error) { return "<cell>", nil }

// Truth implements object.Value.
func (*Cell) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
// Cells are never dict keys in Python code; the constant keeps Hash
// total and deterministic.
func (*Cell) Hash(object.Ctx) (int64, error) { return 0x63656c6c, nil }

// Function is a Python function or closure.
// It is CPython's PyFunctionObject: the shared, immutable Code plus what
// one execution of the def statement made (the defining module's
// globals, the default values evaluated then, the closure's cells).
// Name and QualName start as the code's and can be reassigned. The
// caches belong to this function object and so to one thread (a Function
// is never shared between threads: module snapshots copy it with empty
// caches).
//
// What most functions do not have (defaults, annotations, attributes) is
// behind one pointer, extra, nil until something is set: a generator
// expression or lambda made in a loop is then a 144-byte Go allocation
// (160 with its one-cell closure, functionCell) instead of 192 (208), so
// a loop that makes them allocates that much less (TestFunctionSize).
// The meter never sees Go sizes: a function is charged
// meter.SizeFunction whatever its layout.
type Function struct {
	Code     *compile.Code
	Globals  *object.StrDict
	Module   string
	Closure  []*Cell
	Name     string
	QualName string
	// gcache remembers where each global name of Code was found, valid
	// while the globals' layout is unchanged.
	gcache []globalSlot
	// acache holds the inline caches of the attribute instructions of
	// Code (see inline.go), allocated at the first attribute access.
	acache []attrSite
	// extra holds the rarely set fields; nil while all are empty.
	extra *funcExtra
}

// funcExtra is the part of a Function that most functions leave empty.
type funcExtra struct {
	// defaults are __defaults__, the positional defaults evaluated by
	// the def statement.
	defaults []object.Value
	// kwDefaults is __kwdefaults__, the keyword-only defaults.
	kwDefaults *object.Dict
	// annotations is __annotations__: the dict MAKE_FUNCTION was given,
	// or the empty one made when a def without annotations is asked.
	annotations *object.Dict
	// dict holds the function's other attributes, made on the first
	// store.
	dict *object.StrDict
}

// more is f's extra part, made on the first store into it.
func (f *Function) more() *funcExtra {
	if f.extra == nil {
		f.extra = &funcExtra{}
	}
	return f.extra
}

// defaults is __defaults__ as a slice (nil without defaults).
func (f *Function) defaults() []object.Value {
	if f.extra == nil {
		return nil
	}
	return f.extra.defaults
}

// kwDefaults is __kwdefaults__ (nil without keyword-only defaults).
func (f *Function) kwDefaults() *object.Dict {
	if f.extra == nil {
		return nil
	}
	return f.extra.kwDefaults
}

// annotations is __annotations__ (nil until given or asked for).
func (f *Function) annotations() *object.Dict {
	if f.extra == nil {
		return nil
	}
	return f.extra.annotations
}

// dict holds the function's own attributes (nil before the first store).
func (f *Function) dict() *object.StrDict {
	if f.extra == nil {
		return nil
	}
	return f.extra.dict
}

// globalSlot is one LOAD_GLOBAL site's cache: the index of the name in
// the globals (or, builtin set, the builtins) when the globals had
// layout; a StrDict's layout changes whenever a key is added or removed,
// so a hit needs only a layout comparison and an indexed read, and a
// stale entry is looked up again, never used.
type globalSlot struct {
	layout  uint64 // globals layout when cached; 0 = empty
	idx     int32
	builtin bool
}

// Type implements object.Value.
func (*Function) Type() *object.Class { return object.FunctionClass }

// Repr implements object.Value.
// CPython's repr adds " at 0x..."; the PVM never shows an address.
func (f *Function) Repr(object.Ctx) (string, error) {
	return "<function " + f.QualName + ">", nil
}

// Truth implements object.Value.
func (*Function) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
// A function's hash is derived from where it was defined (first line
// and qualname length), not its address, so it is the same on every
// node; two functions with the same hash are still different keys, as
// function equality is identity.
func (f *Function) Hash(object.Ctx) (int64, error) {
	return int64(f.Code.FirstLine)*1000003 + int64(len(f.QualName)), nil
}

// Bindable implements object.Bindable: functions become methods.
func (*Function) Bindable() bool { return true }

// FuncName is the function's __name__.
func (f *Function) FuncName() string { return f.Name }

// GetAttr implements object.AttrGetter.
// The dunder names are answered from the fields, as CPython's function
// getset descriptors do; __dict__ is the attributes as a dict
// (a live view of the attributes, object.AttrDict); every other name
// reads Dict, so an attribute set on a function is found again, as
// func.attr is in CPython.
func (f *Function) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "__name__":
		return object.Str(f.Name), true, nil
	case "__qualname__":
		return object.Str(f.QualName), true, nil
	case "__module__":
		return object.Str(f.Module), true, nil
	// __doc__ is the docstring the compiler left as the first constant
	// (Code.HasDoc), unless a store replaced it.
	case "__doc__":
		if d := f.dict(); d != nil {
			if v, ok := d.Get(name); ok {
				return v, true, nil
			}
		}
		if len(f.Code.Consts) > 0 {
			if s, ok := f.Code.Consts[0].(object.Str); ok && f.Code.Consts[0] != nil && docFirst(f.Code) {
				return s, true, nil
			}
		}
		return object.None, true, nil
	case "__defaults__":
		// None when there are none; a stored () stays (), as CPython
		// keeps whatever tuple was set.
		if f.defaults() == nil {
			return object.None, true, nil
		}
		return object.Tuple(f.defaults()), true, nil
	case "__kwdefaults__":
		// The dict MAKE_FUNCTION was given (CPython hands out the same
		// object, not a copy), or None without keyword-only defaults.
		if f.kwDefaults() == nil {
			return object.None, true, nil
		}
		return f.kwDefaults(), true, nil
	case "__annotations__":
		// CPython makes the empty dict on first access and keeps it, so
		// that what is stored in it stays.
		if f.annotations() == nil {
			f.more().annotations = object.NewDict()
		}
		return f.annotations(), true, nil
	case "__dict__":
		x := f.more()
		if x.dict == nil {
			x.dict = object.NewStrDict()
		}
		d, err := object.AttrDict(c, x.dict)
		return d, err == nil, err
	}
	if d := f.dict(); d != nil {
		if v, ok := d.Get(name); ok {
			return v, true, nil
		}
	}
	return nil, false, nil
}

// docFirst reports whether the code's first constant is its docstring.
func docFirst(c *compile.Code) bool { return c.HasDoc }

// SetAttr implements object.AttrSetter (function attributes).
// __name__, __qualname__ and __module__ must be strings (CPython's
// func_set_name and func_set_qualname refuse others with this message);
// any other name becomes a function attribute.
func (f *Function) SetAttr(c object.Ctx, name string, v object.Value) error {
	switch name {
	case "__name__", "__qualname__", "__module__":
		s, ok := v.(object.Str)
		if !ok {
			return object.Errorf(object.TypeError, "%s must be set to a string object", name)
		}
		switch name {
		case "__name__":
			f.Name = string(s)
		case "__qualname__":
			f.QualName = string(s)
		default:
			f.Module = string(s)
		}
		return nil
	case "__annotations__":
		d, ok := v.(*object.Dict)
		if !ok {
			return object.Errorf(object.TypeError, "__annotations__ must be set to a dict object")
		}
		f.more().annotations = d
		return nil
	case "__defaults__", "__kwdefaults__":
		return f.setDefaults(name, v)
	}
	x := f.more()
	if x.dict == nil {
		x.dict = object.NewStrDict()
	}
	if name == "__dict__" {
		return object.ReplaceNamespace(c, x.dict, v, nil)
	}
	x.dict.Set(name, v)
	return nil
}

// setDefaults stores __defaults__ or __kwdefaults__, which argument
// binding reads on every call (CPython's func_set_defaults and
// func_set_kwdefaults): None clears them, and anything but a tuple (a
// dict for __kwdefaults__) is refused with CPython's message. A tuple or
// dict subclass instance stores its builtin part, so reading the
// attribute back gives a plain tuple or dict where CPython gives the
// instance; binding sees the same values either way.
func (f *Function) setDefaults(name string, v object.Value) error {
	if v == object.None {
		if f.extra != nil {
			if name == "__defaults__" {
				f.extra.defaults = nil
			} else {
				f.extra.kwDefaults = nil
			}
		}
		return nil
	}
	if in, ok := v.(*object.Instance); ok && in.Base != nil {
		v = in.Base
	}
	if name == "__defaults__" {
		t, ok := v.(object.Tuple)
		if !ok {
			return object.Errorf(object.TypeError, "__defaults__ must be set to a tuple object")
		}
		if t == nil {
			t = object.Tuple{} // () set explicitly reads back as (), not None
		}
		f.more().defaults = t
		return nil
	}
	d, ok := v.(*object.Dict)
	if !ok {
		return object.Errorf(object.TypeError, "__kwdefaults__ must be set to a dict object")
	}
	f.more().kwDefaults = d
	return nil
}

// DelAttr implements object.AttrDeleter: del f.attr removes an attribute
// set on the function; del f.__defaults__ and del f.__kwdefaults__ clear
// them, as CPython's setters do when given NULL.
func (f *Function) DelAttr(c object.Ctx, name string) (bool, error) {
	if name == "__defaults__" || name == "__kwdefaults__" {
		return true, f.setDefaults(name, object.None)
	}
	d := f.dict()
	if d == nil {
		return false, nil
	}
	return d.Delete(name), nil
}

// Module is an imported module.
// It is a module object: a name and the globals its code ran in. The
// globals dict is the one the module's functions hold, so an attribute
// set from outside (m.x = 1) is what the module's code reads as x.
type Module struct {
	Name    string
	Globals *object.StrDict
}

// Type implements object.Value.
func (*Module) Type() *object.Class { return object.ModuleClass }

// Repr implements object.Value.
func (m *Module) Repr(object.Ctx) (string, error) { return "<module '" + m.Name + "'>", nil }

// Truth implements object.Value.
func (*Module) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
// Modules hash by name length, like the other identity-compared objects,
// rather than by address.
func (m *Module) Hash(object.Ctx) (int64, error) { return int64(len(m.Name)) * 0x9e3779b9, nil }

// Namespace is the module's globals (for attribute suggestions).
func (m *Module) Namespace() *object.StrDict { return m.Globals }

// ModuleName is used in AttributeError messages.
func (m *Module) ModuleName() string { return m.Name }

// GetAttr implements object.AttrGetter.
// __name__ is answered from the field, so a Module is named even when
// its globals hold no __name__ (a snapshot's placeholders are made with
// empty globals).
func (m *Module) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	if name == "__name__" {
		return object.Str(m.Name), true, nil
	}
	v, ok := m.Globals.Get(name)
	return v, ok, nil
}

// SetAttr implements object.AttrSetter.
// A store on a module writes its globals: the module's own functions
// then see the new value through their LOAD_GLOBAL caches, which check
// the globals' layout, not the values.
func (m *Module) SetAttr(c object.Ctx, name string, v object.Value) error {
	m.Globals.Set(name, v)
	return nil
}
