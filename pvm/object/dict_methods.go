package object

func dictMethod(name string, fn func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error)) {
	DictClass.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeError, "descriptor '%s' of 'dict' object needs an argument", name)
		}
		d, ok := args[0].(*Dict)
		if !ok {
			return nil, Errorf(TypeError, "descriptor '%s' for 'dict' objects doesn't apply to a '%s' object", name, TypeName(args[0]))
		}
		if err := Charge(c, 3); err != nil {
			return nil, err
		}
		return fn(c, d, args[1:], kw)
	}))
}

func initDictMethods() {
	dictMethod("get", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("get", args, 1, 2); err != nil {
			return nil, err
		}
		v, ok, err := d.Get(c, args[0])
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
		if len(args) == 2 {
			return args[1], nil
		}
		return None, nil
	})
	dictMethod("keys", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) { return &DictView{D: d, Kind: 0}, nil })
	dictMethod("values", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) { return &DictView{D: d, Kind: 1}, nil })
	dictMethod("items", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) { return &DictView{D: d, Kind: 2}, nil })
	dictMethod("pop", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("pop", args, 1, 2); err != nil {
			return nil, err
		}
		v, ok, err := d.Delete(c, args[0])
		if err != nil {
			return nil, err
		}
		if ok {
			return v, nil
		}
		if len(args) == 2 {
			return args[1], nil
		}
		return nil, Raise(NewException(KeyError, args[0]))
	})
	dictMethod("popitem", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if d.ns != nil {
			if kv := d.Items(); len(kv) > 0 {
				last := kv[len(kv)-1]
				d.ns.Delete(string(last[0].(Str)))
				return Tuple{last[0], last[1]}, nil
			}
			return nil, Errorf(KeyError, "popitem(): dictionary is empty")
		}
		for i := len(d.ht.entries) - 1; i >= 0; i-- {
			e := d.ht.entries[i]
			if !e.dead() {
				d.ht.removeAt(i)
				return Tuple{e.key, e.value}, nil
			}
		}
		return nil, Errorf(KeyError, "popitem(): dictionary is empty")
	})
	dictMethod("setdefault", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("setdefault", args, 1, 2); err != nil {
			return nil, err
		}
		v, ok, err := d.Get(c, args[0])
		if err != nil || ok {
			return v, err
		}
		var def Value = None
		if len(args) == 2 {
			def = args[1]
		}
		return def, d.Set(c, args[0], def)
	})
	dictMethod("update", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("update", args, 0, 1); err != nil {
			return nil, err
		}
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
		return None, nil
	})
	dictMethod("copy", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		out := NewDict()
		for _, kv := range d.Items() {
			if err := out.Set(c, kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	dictMethod("clear", func(c Ctx, d *Dict, args []Value, kw []Kw) (Value, error) {
		if d.ns != nil {
			for _, k := range d.Keys() {
				d.ns.Delete(string(k.(Str)))
			}
			return None, nil
		}
		d.ht.clear()
		return None, nil
	})
	DictClass.Dict.Set("fromkeys", &ClassMethod{Fn: NewBuiltin("fromkeys", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("fromkeys", args[1:], 1, 2); err != nil {
			return nil, err
		}
		var v Value = None
		if len(args) == 3 {
			v = args[2]
		}
		d := NewDict()
		return d, Iterate(c, args[1], func(k Value) error { return d.Set(c, k, v) })
	})})
}

func setMethod(name string, mutates bool, fn func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error)) {
	f := func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeError, "descriptor '%s' needs an argument", name)
		}
		s, ok := args[0].(*Set)
		if !ok {
			return nil, Errorf(TypeError, "descriptor '%s' for 'set' objects doesn't apply to a '%s' object", name, TypeName(args[0]))
		}
		return fn(c, s, args[1:], kw)
	}
	SetClass.Dict.Set(name, method(name, f))
	if !mutates {
		FrozenSetClass.Dict.Set(name, method(name, f))
	}
}

func toSet(c Ctx, v Value) (*Set, error) {
	if s, ok := v.(*Set); ok {
		return s, nil
	}
	s := NewSet(false)
	return s, IterateInto(c, v, s, func(x Value) error { return s.Add(c, x) })
}

func initSetMethods() {
	setMethod("add", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("add", args, 1, 1); err != nil {
			return nil, err
		}
		return None, s.Add(c, args[0])
	})
	setMethod("remove", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("remove", args, 1, 1); err != nil {
			return nil, err
		}
		ok, err := s.Remove(c, args[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, Raise(NewException(KeyError, args[0]))
		}
		return None, nil
	})
	setMethod("discard", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("discard", args, 1, 1); err != nil {
			return nil, err
		}
		_, err := s.Remove(c, args[0])
		return None, err
	})
	setMethod("pop", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		for i, e := range s.ht.entries {
			if !e.dead() {
				s.ht.removeAt(i)
				return e.key, nil
			}
		}
		return nil, Errorf(KeyError, "pop from an empty set")
	})
	setMethod("clear", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		s.ht.clear()
		return None, nil
	})
	setMethod("copy", false, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
		out := NewSet(s.Frozen)
		for _, x := range s.Elems() {
			if err := out.Add(c, x); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	binops := map[string]Op{"union": OpOr, "intersection": OpAnd, "difference": OpSub, "symmetric_difference": OpXor}
	for _, name := range []string{"union", "intersection", "difference", "symmetric_difference"} {
		op := binops[name]
		setMethod(name, false, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
			var acc Value = s
			if len(args) == 0 {
				return setBinary(c, OpOr, s, NewSet(false))
			}
			for _, a := range args {
				o, err := toSet(c, a)
				if err != nil {
					return nil, err
				}
				acc, err = setBinary(c, op, acc.(*Set), o)
				if err != nil {
					return nil, err
				}
			}
			return acc, nil
		})
		setMethod(name+"_update", true, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
			for _, a := range args {
				o, err := toSet(c, a)
				if err != nil {
					return nil, err
				}
				r, err := setBinary(c, op, s, o)
				if err != nil {
					return nil, err
				}
				s.ht = r.(*Set).ht
			}
			return None, nil
		})
	}
	union, _ := SetClass.Dict.Get("union_update")
	SetClass.Dict.Set("update", union)
	SetClass.Dict.Delete("union_update")
	for _, name := range []string{"issubset", "issuperset", "isdisjoint"} {
		name := name
		setMethod(name, false, func(c Ctx, s *Set, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 1); err != nil {
				return nil, err
			}
			o, err := toSet(c, args[0])
			if err != nil {
				return nil, err
			}
			switch name {
			case "issubset":
				r, err := setSubset(c, s, o)
				return MakeBool(r), err
			case "issuperset":
				r, err := setSubset(c, o, s)
				return MakeBool(r), err
			}
			r, err := setBinary(c, OpAnd, s, o)
			if err != nil {
				return nil, err
			}
			return MakeBool(r.(*Set).Len() == 0), nil
		})
	}
}
