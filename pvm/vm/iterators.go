package vm

import (
	"errors"
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// goIter is a lazy iterator implemented in Go (enumerate, zip, map, filter,
// reversed).
// They are CPython's enumobject.c and bltinmodule.c iterator types
// reduced to one Go shape: a closure holds the state, and each step is
// charged by what it does (the Next of the underlying iterator, the call
// of map's or filter's function), while FOR_ITER charges CostIterNext
// for the step itself, as it does for a list's iterator. A goIter is a
// Python object like any other (type, repr, truth, hash) but has no
// attributes or methods beyond iteration.
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

// iterClass makes the class of one kind of goIter. The classes are
// shared by every thread (MarkShared) and never changed, so module
// snapshots refer to them instead of copying them.
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
// A goIter hashes by its class name's length, not by address: CPython's
// default hash is the object's id, which the PVM never exposes, and any
// value that is the same on every node keeps set and dict order
// deterministic (equal iterators are only ever identical ones).
func (g *goIter) Hash(object.Ctx) (int64, error) { return int64(len(g.cls.Name)) * 0x1f3d, nil }

// Next implements object.Iterator.
func (g *goIter) Next(c object.Ctx) (object.Value, bool, error) { return g.next(c) }

// newCallableIter is iter(fn, sentinel): fn() until it returns a value
// equal to sentinel.
// It is CPython's calliterobject: once the sentinel is seen (or the call
// fails) the iterator is exhausted for good, and fn is not called again.
// A StopIteration fn raises also ends it, as in CPython.
func newCallableIter(fn, sentinel object.Value) object.Value {
	done := false
	return &goIter{cls: callIterClass, refs: []object.Value{fn, sentinel}, next: func(c object.Ctx) (object.Value, bool, error) {
		if done {
			return nil, false, nil
		}
		v, err := c.Call(fn, nil, nil)
		var exc *object.Exception
		if errors.As(err, &exc) && exc.Value.Class.IsSubclass(object.StopIteration) {
			// A StopIteration from fn ends the iteration (calliter_iternext).
			done = true
			return nil, false, nil
		}
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

// newEnumerateBig is enumerate with a start beyond 64 bits: the count is
// an int, advanced by int addition (charged as such).
func newEnumerateBig(it, start object.Value) object.Value {
	n := start
	return &goIter{cls: enumerateClass, refs: []object.Value{it}, next: func(c object.Ctx) (object.Value, bool, error) {
		v, ok, err := object.Next(c, it)
		if !ok || err != nil {
			return nil, false, err
		}
		cur := n
		if n, err = object.Binary(c, object.OpAdd, n, object.Int(1)); err != nil {
			return nil, false, err
		}
		return object.Tuple{cur, v}, true, nil
	}}
}

// newEnumerate is enum_next: the count is a Go int64 turned into an int
// per item (MakeInt stores small values without a Go allocation), and
// pair gives FOR_ITER + UNPACK_SEQUENCE 2 the count and the item without
// the tuple (nextPair in interp_ops.go).
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

// newZip is zip_next with PEP 618's strict mode: the iterators are
// advanced left to right and the first exhausted one ends the zip. With
// strict, an exhausted first iterator makes zip check that every other is
// exhausted too (advancing each once), and a later one being exhausted is
// "shorter than argument 1"; the messages are CPython's.
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

// newMap is map_next: one item from each iterator, left to right, then
// the call; the shortest iterator ends it, the items already taken from
// the others being lost, as in CPython.
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

// newFilter is filter_next: filter(None, it) keeps the true items without
// a call; otherwise each item costs a call of fn.
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

// newReversed walks a snapshot of the sequence from the end (see the
// reversed builtin); the snapshot is the refs the heap walk reads, so
// its elements stay counted while the iterator lives.
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
// Reading the itab from a real conversion keeps newPair correct for
// whatever layout the Go compiler gives interfaces: the value built by
// newPair is bit for bit one the compiler could have built.
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
