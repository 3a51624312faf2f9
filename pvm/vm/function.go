package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Cell holds a variable shared between a function and its closures.
type Cell struct{ V object.Value }

// Type implements object.Value.
func (*Cell) Type() *object.Class { return object.CellClass }

// Repr implements object.Value.
func (*Cell) Repr(object.Ctx) (string, error) { return "<cell>", nil }

// Truth implements object.Value.
func (*Cell) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (*Cell) Hash(object.Ctx) (int64, error) { return 0x63656c6c, nil }

// Function is a Python function or closure.
type Function struct {
	Code       *compile.Code
	Globals    *object.StrDict
	Module     string
	Defaults   []object.Value
	KwDefaults *object.Dict
	Closure    []*Cell
	Name       string
	QualName   string
	Dict       *object.StrDict
	// gcache remembers where each global name of Code was found, valid
	// while the globals' layout is unchanged.
	gcache []globalSlot
	// acache holds the inline caches of the attribute instructions of
	// Code (see inline.go), allocated at the first attribute access.
	acache []attrSite

	// Annotations is __annotations__: the dict MAKE_FUNCTION was given,
	// or the empty one made when a def without annotations is asked.
	Annotations *object.Dict
}

type globalSlot struct {
	layout  uint64 // globals layout when cached; 0 = empty
	idx     int32
	builtin bool
}

// Type implements object.Value.
func (*Function) Type() *object.Class { return object.FunctionClass }

// Repr implements object.Value.
func (f *Function) Repr(object.Ctx) (string, error) {
	return "<function " + f.QualName + ">", nil
}

// Truth implements object.Value.
func (*Function) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (f *Function) Hash(object.Ctx) (int64, error) {
	return int64(f.Code.FirstLine)*1000003 + int64(len(f.QualName)), nil
}

// Bindable implements object.Bindable: functions become methods.
func (*Function) Bindable() bool { return true }

// FuncName is the function's __name__.
func (f *Function) FuncName() string { return f.Name }

// GetAttr implements object.AttrGetter.
func (f *Function) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "__name__":
		return object.Str(f.Name), true, nil
	case "__qualname__":
		return object.Str(f.QualName), true, nil
	case "__module__":
		return object.Str(f.Module), true, nil
	case "__doc__":
		if f.Dict != nil {
			if v, ok := f.Dict.Get(name); ok {
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
		if len(f.Defaults) == 0 {
			return object.None, true, nil
		}
		return object.Tuple(f.Defaults), true, nil
	case "__kwdefaults__":
		// The dict MAKE_FUNCTION was given (CPython hands out the same
		// object, not a copy), or None without keyword-only defaults.
		if f.KwDefaults == nil {
			return object.None, true, nil
		}
		return f.KwDefaults, true, nil
	case "__annotations__":
		// CPython makes the empty dict on first access and keeps it, so
		// that what is stored in it stays.
		if f.Annotations == nil {
			f.Annotations = object.NewDict()
		}
		return f.Annotations, true, nil
	case "__dict__":
		d := object.NewDict()
		if f.Dict != nil {
			var err error
			f.Dict.Each(func(k string, v object.Value) {
				if err == nil {
					err = d.Set(c, object.Str(k), v)
				}
			})
			if err != nil {
				return nil, false, err
			}
		}
		return d, true, nil
	}
	if f.Dict != nil {
		if v, ok := f.Dict.Get(name); ok {
			return v, true, nil
		}
	}
	return nil, false, nil
}

// docFirst reports whether the code's first constant is its docstring.
func docFirst(c *compile.Code) bool { return c.HasDoc }

// SetAttr implements object.AttrSetter (function attributes).
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
		f.Annotations = d
		return nil
	}
	if f.Dict == nil {
		f.Dict = object.NewStrDict()
	}
	f.Dict.Set(name, v)
	return nil
}

// Module is an imported module.
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
func (m *Module) Hash(object.Ctx) (int64, error) { return int64(len(m.Name)) * 0x9e3779b9, nil }

// Namespace is the module's globals (for attribute suggestions).
func (m *Module) Namespace() *object.StrDict { return m.Globals }

// ModuleName is used in AttributeError messages.
func (m *Module) ModuleName() string { return m.Name }

// GetAttr implements object.AttrGetter.
func (m *Module) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	if name == "__name__" {
		return object.Str(m.Name), true, nil
	}
	v, ok := m.Globals.Get(name)
	return v, ok, nil
}

// SetAttr implements object.AttrSetter.
func (m *Module) SetAttr(c object.Ctx, name string, v object.Value) error {
	m.Globals.Set(name, v)
	return nil
}
