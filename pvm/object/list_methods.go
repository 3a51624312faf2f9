package object

import (
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

func listMethod(name string, fn func(c Ctx, l *List, args []Value, kw []Kw) (Value, error)) {
	ListClass.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeError, "descriptor '%s' of 'list' object needs an argument", name)
		}
		l, ok := args[0].(*List)
		if !ok {
			return nil, Errorf(TypeError, "descriptor '%s' for 'list' objects doesn't apply to a '%s' object", name, TypeName(args[0]))
		}
		return fn(c, l, args[1:], kw)
	}))
}

func indexOf(c Ctx, elems []Value, x Value, args []Value) (int, error) {
	start, end := 0, len(elems)
	if len(args) > 0 {
		v, err := sliceIndexArg(c, args[0], sliceIndexMsg)
		if err != nil {
			return 0, err
		}
		start = clampIdx(v, len(elems))
	}
	if len(args) > 1 {
		v, err := sliceIndexArg(c, args[1], sliceIndexMsg)
		if err != nil {
			return 0, err
		}
		end = clampIdx(v, len(elems))
	}
	for i := start; i < end && i < len(elems); i++ {
		if err := Charge(c, meter.CostPerElem); err != nil {
			return 0, err
		}
		eq, err := Equal(c, elems[i], x)
		if err != nil {
			return 0, err
		}
		if eq {
			return i, nil
		}
	}
	return -1, nil
}

func countOf(c Ctx, elems []Value, x Value) (Value, error) {
	n := 0
	for i := 0; i < len(elems); i++ {
		if err := Charge(c, meter.CostPerElem); err != nil {
			return nil, err
		}
		eq, err := Equal(c, elems[i], x)
		if err != nil {
			return nil, err
		}
		if eq {
			n++
		}
	}
	return Int(n), nil
}

func initListMethods() {
	listMethod("append", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("list.append", args, 1, 1); err != nil {
			return nil, err
		}
		return None, l.Append(c, args[0])
	})
	listMethod("extend", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("list.extend", args, 1, 1); err != nil {
			return nil, err
		}
		return None, extendList(c, l, args[0])
	})
	listMethod("insert", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("insert", args, 2, 2); err != nil {
			return nil, err
		}
		at, err := IndexArg(c, args[0])
		if err != nil {
			return nil, err
		}
		i, ok := AsInt64(at)
		if !ok {
			return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(args[0]))
		}
		if err := Alloc(c, meter.SizePointer); err != nil {
			return nil, err
		}
		if err := Charge(c, uint64(len(l.Elems))/8); err != nil {
			return nil, err
		}
		k := clampIdx(i, len(l.Elems))
		l.Elems = append(l.Elems, nil)
		copy(l.Elems[k+1:], l.Elems[k:])
		l.Elems[k] = args[1]
		return None, nil
	})
	listMethod("pop", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("pop", args, 0, 1); err != nil {
			return nil, err
		}
		if len(l.Elems) == 0 {
			return nil, Errorf(IndexError, "pop from empty list")
		}
		k := len(l.Elems) - 1
		if len(args) == 1 {
			at, err := IndexArg(c, args[0])
			if err != nil {
				return nil, err
			}
			i, ok := AsInt64(at)
			if !ok {
				return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(at))
			}
			if i < 0 {
				i += int64(len(l.Elems))
			}
			if i < 0 || i >= int64(len(l.Elems)) {
				return nil, Errorf(IndexError, "pop index out of range")
			}
			k = int(i)
		}
		v := l.Elems[k]
		copy(l.Elems[k:], l.Elems[k+1:])
		l.Elems[len(l.Elems)-1] = nil
		l.Elems = l.Elems[:len(l.Elems)-1]
		return v, nil
	})
	listMethod("remove", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("list.remove", args, 1, 1); err != nil {
			return nil, err
		}
		i, err := indexOf(c, l.Elems, args[0], nil)
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, Errorf(ValueError, "list.remove(x): x not in list")
		}
		l.Elems = append(l.Elems[:i], l.Elems[i+1:]...)
		return None, nil
	})
	listMethod("index", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("index", args, 1, 3); err != nil {
			return nil, err
		}
		i, err := indexOf(c, l.Elems, args[0], args[1:])
		if err != nil {
			return nil, err
		}
		if i < 0 {
			r, err := Repr(c, args[0])
			if err != nil {
				return nil, err
			}
			return nil, Errorf(ValueError, "%s is not in list", r)
		}
		return Int(i), nil
	})
	listMethod("count", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("count", args, 1, 1); err != nil {
			return nil, err
		}
		return countOf(c, l.Elems, args[0])
	})
	listMethod("reverse", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := Charge(c, uint64(len(l.Elems))*meter.CostPerElem); err != nil {
			return nil, err
		}
		for i, j := 0, len(l.Elems)-1; i < j; i, j = i+1, j-1 {
			l.Elems[i], l.Elems[j] = l.Elems[j], l.Elems[i]
		}
		return None, nil
	})
	listMethod("copy", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if err := Charge(c, uint64(len(l.Elems))*meter.CostPerElem); err != nil {
			return nil, err
		}
		return NewList(c, append([]Value(nil), l.Elems...))
	})
	listMethod("clear", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		l.Elems = nil
		return None, nil
	})
	listMethod("sort", func(c Ctx, l *List, args []Value, kw []Kw) (Value, error) {
		if len(args) > 0 {
			return nil, Errorf(TypeError, "sort() takes no positional arguments")
		}
		a, err := UnpackArgs("sort", nil, kw, "key?", "reverse?")
		if err != nil {
			return nil, err
		}
		return None, SortValues(c, l.Elems, a[0], a[1])
	})
	RangeClass.Dict.Set("index", method("index", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("index", args[1:], 1, 1); err != nil {
			return nil, err
		}
		r := args[0].(*Range)
		if ok, err := Contains(c, r, args[1]); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			s, _ := Repr(c, args[1])
			return nil, Errorf(ValueError, "%s is not in range", s)
		}
		v, _ := AsInt64(args[1])
		return Int((v - r.Start) / r.Step), nil
	}))
	RangeClass.Dict.Set("count", method("count", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("count", args[1:], 1, 1); err != nil {
			return nil, err
		}
		ok, err := Contains(c, args[0], args[1])
		if ok {
			return Int(1), err
		}
		return Int(0), err
	}))
	TupleClass.Dict.Set("index", method("index", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		t := args[0].(Tuple)
		if err := ArgCount("index", args[1:], 1, 3); err != nil {
			return nil, err
		}
		i, err := indexOf(c, t, args[1], args[2:])
		if err != nil {
			return nil, err
		}
		if i < 0 {
			return nil, Errorf(ValueError, "tuple.index(x): x not in tuple")
		}
		return Int(i), nil
	}))
	TupleClass.Dict.Set("count", method("count", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("count", args[1:], 1, 1); err != nil {
			return nil, err
		}
		return countOf(c, args[0].(Tuple), args[1])
	}))
}
