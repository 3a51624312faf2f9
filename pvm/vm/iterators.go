package vm

import (
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// goIter is a lazy iterator implemented in Go (enumerate, zip, map, filter,
// reversed).
type goIter struct {
	cls  *object.Class
	next func(c object.Ctx) (object.Value, bool, error)
	// pair, when not nil, is next for an iterator of pairs (enumerate)
	// that returns the pair's items without making the tuple: FOR_ITER
	// followed by UNPACK_SEQUENCE 2 (`for i, x in enumerate(xs)`) needs
	// only the items.
	pair func(c object.Ctx) (a, b object.Value, ok bool, err error)
	// refs are the values next holds, for the live-heap walk (heap.go).
	refs []object.Value
}

var (
	enumerateClass = iterClass("enumerate")
	zipClass       = iterClass("zip")
	mapClass       = iterClass("map")
	filterClass    = iterClass("filter")
	reversedClass  = iterClass("reversed")
	callIterClass  = iterClass("callable_iterator")
)

func iterClass(name string) *object.Class {
	k := &object.Class{Name: name, Module: "builtins", Dict: object.NewStrDict(), MRO: nil}
	object.MarkShared(k)
	return k
}

func init() {
	for _, k := range []*object.Class{enumerateClass, zipClass, mapClass, filterClass, reversedClass, callIterClass} {
		k.MRO = []*object.Class{k, object.ObjectClass}
		k.Bases = []*object.Class{object.ObjectClass}
	}
}

// Type implements object.Value.
func (g *goIter) Type() *object.Class { return g.cls }

// Repr implements object.Value.
func (g *goIter) Repr(object.Ctx) (string, error) { return "<" + g.cls.Name + " object>", nil }

// Truth implements object.Value.
func (*goIter) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (g *goIter) Hash(object.Ctx) (int64, error) { return int64(len(g.cls.Name)) * 0x1f3d, nil }

// Next implements object.Iterator.
func (g *goIter) Next(c object.Ctx) (object.Value, bool, error) { return g.next(c) }

// newCallableIter is iter(fn, sentinel): fn() until it returns a value
// equal to sentinel.
func newCallableIter(fn, sentinel object.Value) object.Value {
	done := false
	return &goIter{cls: callIterClass, refs: []object.Value{fn, sentinel}, next: func(c object.Ctx) (object.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		v, err := c.Call(fn, nil, nil)
		if err != nil {
			return nil, false, err
		}
		if eq, err := object.Equal(c, v, sentinel); err != nil || eq {
			done = true
			return nil, false, err
		}
		return v, true, nil
	}}
}

func newEnumerate(c object.Ctx, it object.Value, start int64) object.Value {
	i := start
	pair := func(c object.Ctx) (object.Value, object.Value, bool, error) {
		v, ok, err := object.Next(c, it)
		if !ok || err != nil {
			return nil, nil, false, err
		}
		n := object.MakeInt(i)
		i++
		return n, v, true, nil
	}
	return &goIter{cls: enumerateClass, refs: []object.Value{it}, pair: pair, next: func(c object.Ctx) (object.Value, bool, error) {
		n, v, ok, err := pair(c)
		if !ok {
			return nil, false, err
		}
		return newPair(n, v), true, nil
	}}
}

func newZip(its []object.Value, strict bool) object.Value {
	done := false
	return &goIter{cls: zipClass, refs: its, next: func(c object.Ctx) (object.Value, bool, error) {
		if done || len(its) == 0 {
			return nil, false, nil
		}
		out := make(object.Tuple, len(its))
		for i, it := range its {
			v, ok, err := object.Next(c, it)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				done = true
				if strict && i > 0 {
					return nil, false, object.Errorf(object.ValueError, "zip() argument %d is shorter than argument 1", i+1)
				}
				if strict && i == 0 {
					for j := 1; j < len(its); j++ {
						if _, ok, err := object.Next(c, its[j]); err != nil {
							return nil, false, err
						} else if ok {
							return nil, false, object.Errorf(object.ValueError, "zip() argument %d is longer than argument 1", j+1)
						}
					}
				}
				return nil, false, nil
			}
			out[i] = v
		}
		return out, true, nil
	}}
}

func newMap(fn object.Value, its []object.Value) object.Value {
	return &goIter{cls: mapClass, refs: append([]object.Value{fn}, its...), next: func(c object.Ctx) (object.Value, bool, error) {
		args := make([]object.Value, len(its))
		for i, it := range its {
			v, ok, err := object.Next(c, it)
			if !ok || err != nil {
				return nil, false, err
			}
			args[i] = v
		}
		r, err := c.Call(fn, args, nil)
		return r, err == nil, err
	}}
}

func newFilter(fn object.Value, it object.Value) object.Value {
	return &goIter{cls: filterClass, refs: []object.Value{fn, it}, next: func(c object.Ctx) (object.Value, bool, error) {
		for {
			v, ok, err := object.Next(c, it)
			if !ok || err != nil {
				return nil, false, err
			}
			keep := v
			if fn != object.None {
				keep, err = c.Call(fn, []object.Value{v}, nil)
				if err != nil {
					return nil, false, err
				}
			}
			b, err := object.Truth(c, keep)
			if err != nil {
				return nil, false, err
			}
			if b {
				return v, true, nil
			}
		}
	}}
}

func newReversed(elems []object.Value) object.Value {
	i := len(elems)
	return &goIter{cls: reversedClass, refs: elems, next: func(c object.Ctx) (object.Value, bool, error) {
		if i <= 0 {
			return nil, false, nil
		}
		i--
		return elems[i], true, nil
	}}
}

// pair is a 2-tuple allocated together with its array, so that making one
// as a Value is one Go allocation instead of two (the array, then the
// slice header the interface conversion copies to the heap).
type pair struct {
	t   object.Tuple
	arr [2]object.Value
}

// tupleItab is the interface table of Tuple as a Value, taken from the
// compiler's own conversion.
var tupleItab = func() unsafe.Pointer {
	var v object.Value = object.Tuple{}
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0]
}()

// newPair returns the Value object.Tuple{a, b}: the same tuple, length
// and capacity 2 (an append copies it out), whose header is never written
// after it is handed out. Nothing a program or the meter sees changes: a
// tuple is walked, compared and hashed by its elements, and the caller
// charges what it charged before.
func newPair(a, b object.Value) object.Value {
	p := &pair{arr: [2]object.Value{a, b}}
	p.t = p.arr[:]
	var v object.Value
	w := (*[2]unsafe.Pointer)(unsafe.Pointer(&v))
	w[0], w[1] = tupleItab, unsafe.Pointer(&p.t)
	return v
}
