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
	// type's own slots, defined here rather than in pvm/object because they
	// run Python code (metaclass __call__, __init_subclass__, __set_name__)
	// through the thread. type.__init__ accepts and ignores its arguments, as
	// type_init does once type_new has done the work.
	k.Dict.Set("__new__", &object.StaticMethod{Fn: object.NewBuiltin("__new__", typeNew)})
	k.Dict.Set("__init__", &object.Builtin{Name: "__init__", Method: true, Fn: func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return object.None, nil
	}})
	// type.__call__ is type_call: what a metaclass's __call__ reaches through
	// super().__call__(*args), so it must be the same instantiation a plain
	// class gets (instantiate, which charges CostCall).
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
	// type.__setattr__ is type_setattro: a class attribute store goes through
	// SetClassAttr, which advances the thread's class epoch (Class.mutated)
	// so that every cached lookup (inline caches, dunder caches) sees the new
	// attribute.
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
	// object.__init_subclass__ is the end of the super() chain of
	// __init_subclass__ hooks: it accepts no keywords, so a class keyword that
	// no hook consumed is a TypeError naming the class, as in CPython.
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
	// type(x) (one argument) is handled by pvm/object; type(name, bases, ns)
	// needs the thread, so the three-argument form is routed to typeNew.
	typeOne := object.TypeClass.New
	object.TypeClass.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 3 {
			return typeOne(c, cls, args, kw)
		}
		return typeNew(c, append([]object.Value{cls}, args...), kw)
	}
}

// typeNew is type.__new__(mcs, name, bases, ns, **kw).
// It mirrors type_new (Objects/typeobject.c) for what Python code can
// observe: argument checks, the winning metaclass, the namespace copied
// into the class, __set_name__ and __init_subclass__ (in newClass).
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
// CPython's update_bases (in builtin___build_class__): a base that is not
// a class but has __mro_entries__ is replaced by the tuple it returns.
// (CPython also keeps the original bases as __orig_bases__; the PVM does
// not.) The slice is copied only when something is replaced, the common
// case allocating nothing.
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
// CPython's _PyType_CalculateMetaclass: the winner must be a subclass of
// every base's metaclass, else the "metaclass conflict" TypeError. Bases
// are read in order, so the error, when there is one, is the same as
// CPython's for the same class statement.
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
// The steps follow type_new_impl and type_new_set_attrs: __module__ comes
// from the namespace (the class body sets it from the defining module's
// __name__); __init_subclass__ and __class_getitem__ become classmethods
// and __new__ a staticmethod implicitly; the class gets the thread's
// class epoch, so its lookup caches are invalidated by any class change
// in this thread; then __set_name__ is called on each namespace value that
// defines it, in namespace order, and finally the nearest
// __init_subclass__ up the MRO with the class keywords. Deleting
// __qualname__ from the namespace drops the qualname the body set (CPython
// keeps it: A.B.__qualname__ is 'A.B'); a PVM class has one name, which
// serves as both __name__ and __qualname__.
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
	// The pairs are collected before any __set_name__ runs, since a hook
	// may change the namespace (set a class attribute) while it is walked.
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
	// super(k, k).__init_subclass__(**kw): the first class after k in its
	// MRO that defines the hook. object's version is skipped when there are
	// no keywords, as it would do nothing.
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
// A metaclass's __new__ receives the namespace as a real dict; the
// copy's cost is charged by Dict.Set like any dict the program builds.
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
// The names are sorted because __abstractmethods__ is a frozenset in
// CPython, whose order in the message is its iteration order; sorting
// gives one fixed message on every node. CPython 3.11 happens to sort it
// too (object_new sorts the names before joining them).
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
