package vm

import (
	"sort"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Class creation: the class statement (__build_class__), type(name, bases,
// ns) and type.__new__ called from a metaclass all end in newClass, which
// runs the hooks CPython's type.__new__ runs (__set_name__ on descriptors,
// then the parent's __init_subclass__).

func init() {
	k := object.TypeClass
	k.Dict.Set("__new__", &object.StaticMethod{Fn: object.NewBuiltin("__new__", typeNew)})
	k.Dict.Set("__init__", &object.Builtin{Name: "__init__", Method: true, Fn: func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return object.None, nil
	}})
	k.Dict.Set("__call__", &object.Builtin{Name: "__call__", Method: true, Fn: func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) == 0 {
			return nil, object.Errorf(object.TypeError, "descriptor '__call__' of 'type' object needs an argument")
		}
		cls, ok := args[0].(*object.Class)
		if !ok {
			return nil, object.Errorf(object.TypeError, "descriptor '__call__' requires a 'type' object but received a '%s'", object.TypeName(args[0]))
		}
		return c.(*Thread).instantiate(cls, args[1:], kw)
	}})
	k.Dict.Set("__setattr__", &object.Builtin{Name: "__setattr__", Method: true, Fn: func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("__setattr__", args, 3, 3); err != nil {
			return nil, err
		}
		cls, ok := args[0].(*object.Class)
		name, ok2 := args[1].(object.Str)
		if !ok || !ok2 {
			return nil, object.Errorf(object.TypeError, "type.__setattr__() needs a type and an attribute name")
		}
		return object.None, object.SetClassAttr(c, cls, string(name), args[2])
	}})
	object.ObjectClass.Dict.Set("__init_subclass__", &object.ClassMethod{Fn: object.NewBuiltin("__init_subclass__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(kw) > 0 {
			name := "object"
			if len(args) > 0 {
				if k, ok := args[0].(*object.Class); ok {
					name = k.Name
				}
			}
			return nil, object.Errorf(object.TypeError, "%s.__init_subclass__() takes no keyword arguments", name)
		}
		return object.None, nil
	})})
	typeOne := object.TypeClass.New
	object.TypeClass.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 3 {
			return typeOne(c, cls, args, kw)
		}
		return typeNew(c, append([]object.Value{cls}, args...), kw)
	}
}

// typeNew is type.__new__(mcs, name, bases, ns, **kw).
func typeNew(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	t := c.(*Thread)
	// The class statement charges its opcode; a class made by a call
	// (type(...) or a metaclass) costs the same here.
	if err := t.meter.Charge(meter.CostMakeFunction); err != nil {
		return nil, err
	}
	if len(args) != 4 {
		return nil, object.Errorf(object.TypeError, "type.__new__() takes exactly 3 arguments (%d given)", len(args)-1)
	}
	mcs, ok := args[0].(*object.Class)
	if !ok || !mcs.IsSubclass(object.TypeClass) {
		return nil, object.Errorf(object.TypeError, "type.__new__(X): X is not a type object (%s)", object.TypeName(args[0]))
	}
	name, ok1 := args[1].(object.Str)
	bases, ok2 := args[2].(object.Tuple)
	d, ok3 := args[3].(*object.Dict)
	if !ok1 || !ok2 || !ok3 {
		return nil, object.Errorf(object.TypeError, "type.__new__() argument 1 must be str, 2 a tuple, 3 a dict")
	}
	ns := object.NewStrDict()
	for _, kv := range d.Items() {
		k, ok := kv[0].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "attribute name must be string, not '%s'", object.TypeName(kv[0]))
		}
		ns.Set(string(k), kv[1])
	}
	if mcs == object.TypeClass {
		// type(name, bases, ns) defers to the most derived metaclass of
		// the bases, as CPython does.
		m, err := calculateMeta(nil, bases)
		if err != nil {
			return nil, err
		}
		if mk, ok := m.(*object.Class); ok && mk != object.TypeClass {
			return t.Call(mk, []object.Value{name, bases, d}, kw)
		}
	}
	return t.newClass(mcs, string(name), bases, ns, kw)
}

// resolveBases applies __mro_entries__ to bases that are not classes
// (PEP 560: class Stack(Generic[T]), class P(NamedTuple)).
func (t *Thread) resolveBases(bases []object.Value) ([]object.Value, error) {
	var out []object.Value
	changed := false
	for i, b := range bases {
		if _, ok := b.(*object.Class); ok {
			if changed {
				out = append(out, b)
			}
			continue
		}
		m, err := object.GetAttr(t, b, "__mro_entries__")
		if err != nil {
			if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.AttributeError) {
				if changed {
					out = append(out, b)
				}
				continue
			}
			return nil, err
		}
		if !changed {
			out = append(out, bases[:i]...)
			changed = true
		}
		r, err := t.Call(m, []object.Value{object.Tuple(bases)}, nil)
		if err != nil {
			return nil, err
		}
		tup, ok := r.(object.Tuple)
		if !ok {
			return nil, object.Errorf(object.TypeError, "__mro_entries__ must return a tuple")
		}
		out = append(out, tup...)
	}
	if !changed {
		return bases, nil
	}
	return out, nil
}

// calculateMeta picks the metaclass of a new class: the explicit one or the
// most derived metaclass among the bases.
func calculateMeta(meta object.Value, bases []object.Value) (object.Value, error) {
	if meta == nil {
		if len(bases) == 0 {
			return object.TypeClass, nil
		}
		meta = bases[0].Type()
	}
	winner, ok := meta.(*object.Class)
	if !ok {
		return meta, nil // a function used as metaclass is simply called
	}
	for _, b := range bases {
		bt := b.Type()
		if winner.IsSubclass(bt) {
			continue
		}
		if bt.IsSubclass(winner) {
			winner = bt
			continue
		}
		return nil, object.Errorf(object.TypeError, "metaclass conflict: the metaclass of a derived class must be a (non-strict) subclass of the metaclasses of all its bases")
	}
	return winner, nil
}

// newClass creates a class of metaclass meta from a finished namespace and
// runs __set_name__ and __init_subclass__.
func (t *Thread) newClass(meta *object.Class, name string, bases []object.Value, ns *object.StrDict, kw []object.Kw) (*object.Class, error) {
	bs := make([]*object.Class, len(bases))
	for i, b := range bases {
		k, ok := b.(*object.Class)
		if !ok {
			return nil, object.Errorf(object.TypeError, "bases must be types")
		}
		bs[i] = k
	}
	modName := "__main__"
	if v, ok := ns.Get("__module__"); ok {
		if s, ok := v.(object.Str); ok {
			modName = string(s)
		}
	}
	ns.Delete("__module__")
	// __qualname__ is the class statement's (the compiler's qualified
	// name, which buildClass puts in the namespace), or one the body or
	// type()'s dict set; else the name.
	qual := name
	if v, ok := ns.Get("__qualname__"); ok {
		s, ok := v.(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "type __qualname__ must be a str, not %s", object.TypeName(v))
		}
		qual = string(s)
	}
	ns.Delete("__qualname__")
	// CPython gives every class its own __doc__ (None without a
	// docstring), so a docstring is never inherited. The PVM stores
	// None only where a base's would otherwise show through; a class
	// with no docstring anywhere in its bases finds None by default.
	if !ns.Has("__doc__") {
		for _, b := range bs {
			if d, _ := b.Lookup("__doc__"); d != nil {
				ns.Set("__doc__", object.None)
				break
			}
		}
	}
	for _, n := range []string{"__init_subclass__", "__class_getitem__"} {
		if v, ok := ns.Get(n); ok {
			if fn, ok := v.(*Function); ok {
				ns.Set(n, &object.ClassMethod{Fn: fn})
			}
		}
	}
	if v, ok := ns.Get("__new__"); ok {
		if fn, ok := v.(*Function); ok {
			ns.Set("__new__", &object.StaticMethod{Fn: fn})
		}
	}
	k, err := object.NewClass(name, modName, bs, ns)
	if err != nil {
		return nil, err
	}
	k.QualName = qual
	if meta != object.TypeClass {
		k.Meta = meta
	}
	k.EnableLookupCache(&t.classEpoch)
	var names []string
	var vals []object.Value
	ns.Each(func(n string, v object.Value) {
		if in, ok := v.(*object.Instance); ok {
			names = append(names, n)
			vals = append(vals, in)
		}
	})
	for i, v := range vals {
		in := v.(*object.Instance)
		if m, _ := in.Class.Lookup("__set_name__"); m != nil {
			if _, err := t.Call(m, []object.Value{in, k, object.Str(names[i])}, nil); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range k.MRO[1:] {
		a, ok := m.Dict.Get("__init_subclass__")
		if !ok {
			continue
		}
		if cm, ok := a.(*object.ClassMethod); ok {
			a = cm.Fn
		}
		if m == object.ObjectClass && len(kw) == 0 {
			break // object.__init_subclass__ does nothing
		}
		if _, err := t.Call(a, []object.Value{k}, kw); err != nil {
			return nil, err
		}
		break
	}
	return k, nil
}

// strDictToDict copies a class namespace into a dict for a metaclass.
func strDictToDict(c object.Ctx, ns *object.StrDict) (*object.Dict, error) {
	d := object.NewDict()
	var err error
	ns.Each(func(n string, v object.Value) {
		if err == nil {
			err = d.Set(c, object.Str(n), v)
		}
	})
	return d, err
}

// checkAbstract refuses to instantiate a class whose __abstractmethods__
// (set by abc.ABCMeta) is not empty, with CPython's message.
func (t *Thread) checkAbstract(k *object.Class) error {
	v, ok := k.Dict.Get("__abstractmethods__")
	if !ok {
		return nil
	}
	var names []string
	err := object.Iterate(t, v, func(x object.Value) error {
		s, err := object.ToStr(t, x)
		names = append(names, s)
		return err
	})
	if err != nil || len(names) == 0 {
		return err
	}
	sort.Strings(names)
	s := ""
	if len(names) > 1 {
		s = "s"
	}
	return object.Errorf(object.TypeError, "Can't instantiate abstract class %s with abstract method%s %s", k.Name, s, strings.Join(names, ", "))
}
