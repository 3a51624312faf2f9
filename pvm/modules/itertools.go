package modules

import (
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// _itertools: the itertools iterators in Go (count, cycle, repeat,
// accumulate, chain, compress, dropwhile, filterfalse, groupby, islice,
// pairwise, starmap, takewhile, zip_longest, product, permutations,
// combinations, combinations_with_replacement). py/itertools.py imports
// them, as CPython's modules import their C halves; tee stays in Python. Each follows CPython 3.11's Modules/itertoolsmodule.c step by
// step, argument errors included.
//
// Cost (docs/decisions.md, "PVM: itertools in Go"): every item produced
// charges meter.CostItertoolsItem, plus meter.CostPerElem for each element
// placed in a result tuple, whose memory is recorded like any tuple's.
// Items consumed from an input iterator charge what that iterator charges;
// count and accumulate charge the addition or call they make like the
// operator would, and a function they call is charged as any call. The pools product, permutations and the
// combinations copy from their inputs are charged as tuple(iterable).

func init() { register(vm.ModuleDef{Name: "_itertools", Load: loadItertools}) }

// The iterator classes are shared by every thread: like CPython's itertools
// types they are immutable builtin types, so no call can change them for
// the next.
var (
	countClass        = itertoolsClass("count")
	repeatClass       = itertoolsClass("repeat")
	accumulateClass   = itertoolsClass("accumulate")
	chainClass        = itertoolsClass("chain")
	isliceClass       = itertoolsClass("islice")
	productClass      = itertoolsClass("product")
	permutationsClass = itertoolsClass("permutations")
	combinationsClass = itertoolsClass("combinations")
	cwrClass          = itertoolsClass("combinations_with_replacement")
	pairwiseClass     = itertoolsClass("pairwise")
	starmapClass      = itertoolsClass("starmap")
	compressClass     = itertoolsClass("compress")
	takewhileClass    = itertoolsClass("takewhile")
	dropwhileClass    = itertoolsClass("dropwhile")
	filterfalseClass  = itertoolsClass("filterfalse")
	zipLongestClass   = itertoolsClass("zip_longest")
	cycleClass        = itertoolsClass("cycle")
	groupbyClass      = itertoolsClass("groupby")
	grouperClass      = itertoolsClass("_grouper")
)

func itertoolsClass(name string) *object.Class {
	k := &object.Class{Name: name, Module: "itertools", Dict: object.NewStrDict(), Bases: []*object.Class{object.ObjectClass}}
	k.MRO = []*object.Class{k, object.ObjectClass}
	addMethod(k, "__iter__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("__iter__", args, 1, 1); err != nil {
			return nil, err
		}
		return args[0], nil
	})
	addMethod(k, "__next__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("__next__", args, 1, 1); err != nil {
			return nil, err
		}
		v, ok, err := object.Next(c, args[0])
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, object.Raise(object.NewException(object.StopIteration))
		}
		return v, nil
	})
	object.MarkShared(k)
	return k
}

func init() {
	chainClass.Dict.Set("from_iterable", object.NewBuiltin("from_iterable", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.NoKw("chain.from_iterable", kw); err != nil {
			return nil, err
		}
		if err := object.ArgCount("chain.from_iterable", args, 1, 1); err != nil {
			return nil, err
		}
		src, err := object.Iter(c, args[0])
		if err != nil {
			return nil, err
		}
		return newChain(src), nil
	}))
	countClass.New = newCount
	repeatClass.New = newRepeat
	accumulateClass.New = newAccumulate
	chainClass.New = func(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.NoKw("chain", kw); err != nil {
			return nil, err
		}
		src, err := object.Iter(c, object.Tuple(append([]object.Value(nil), args...)))
		if err != nil {
			return nil, err
		}
		return newChain(src), nil
	}
	isliceClass.New = newIslice
	productClass.New = newProduct
	permutationsClass.New = newPermutations
	combinationsClass.New = func(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		return newCombinations(c, "combinations", args, kw)
	}
	cwrClass.New = func(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		return newCombinations(c, "combinations_with_replacement", args, kw)
	}
	pairwiseClass.New = newPairwise
	starmapClass.New = newStarmap
	compressClass.New = newCompress
	takewhileClass.New = newTakewhile
	dropwhileClass.New = newDropwhile
	filterfalseClass.New = newFilterfalse
	zipLongestClass.New = newZipLongest
	cycleClass.New = newCycle
	groupbyClass.New = newGroupby
	grouperClass.New = func(object.Ctx, *object.Class, []object.Value, []object.Kw) (object.Value, error) {
		return nil, object.Errorf(object.TypeError, "cannot create 'itertools._grouper' instances")
	}
	repeatClass.Dict.Set("__length_hint__", &object.Builtin{Name: "__length_hint__", Method: true, Fn: func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if err := object.ArgCount("__length_hint__", args, 1, 1); err != nil {
			return nil, err
		}
		r, ok := args[0].(*itIter)
		if !ok || r.cls != repeatClass {
			return nil, object.Errorf(object.TypeError, "descriptor '__length_hint__' requires a 'itertools.repeat' object")
		}
		if r.left < 0 {
			return nil, object.Errorf(object.TypeError, "len() of unsized object")
		}
		return object.MakeInt(r.left), nil
	}})
}

func loadItertools(*vm.Thread) (*vm.Module, error) {
	m := vm.NewModule("_itertools")
	for _, k := range []*object.Class{countClass, repeatClass, accumulateClass, chainClass, isliceClass, productClass, permutationsClass, combinationsClass, cwrClass,
		pairwiseClass, starmapClass, compressClass, takewhileClass, dropwhileClass, filterfalseClass, zipLongestClass, cycleClass, groupbyClass} {
		m.Globals.Set(k.Name, k)
	}
	return m, nil
}

// itIter is one itertools iterator.
type itIter struct {
	cls  *object.Class
	next func(c object.Ctx) (object.Value, bool, error)
	// refs are the values next holds, for the live-heap walk; slots the
	// int slots it keeps (indices, cycles).
	refs  []object.Value
	slots int
	// repr, when set, is the iterator's repr (count, repeat).
	repr func(c object.Ctx) (string, error)
	// left is what repeat has left to yield, -1 forever.
	left int64
}

// Type implements object.Value.
func (it *itIter) Type() *object.Class { return it.cls }

// Repr implements object.Value.
func (it *itIter) Repr(c object.Ctx) (string, error) {
	if it.repr != nil {
		return it.repr(c)
	}
	return "<itertools." + it.cls.Name + " object>", nil
}

// Truth implements object.Value.
func (*itIter) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (it *itIter) Hash(object.Ctx) (int64, error) { return int64(len(it.cls.Name)) * 0x1f3b, nil }

// Next implements object.Iterator.
func (it *itIter) Next(c object.Ctx) (object.Value, bool, error) { return it.next(c) }

// HeapRefs implements object.HeapRefs.
func (it *itIter) HeapRefs(w *object.HeapWalk) uint64 {
	for _, v := range it.refs {
		w.Visit(v)
	}
	return meter.SizeObject + meter.SizePointer*uint64(len(it.refs)+it.slots)
}

// clinicArgs binds arguments as CPython's argument clinic does for these
// constructors: at most len(names) in all, at most maxPos positionally,
// the first required ones mandatory, then unknown or repeated keywords.
func clinicArgs(fname string, args []object.Value, kw []object.Kw, names []string, required, maxPos int) ([]object.Value, error) {
	if n := len(args) + len(kw); n > len(names) {
		return nil, object.Errorf(object.TypeError, "%s() takes at most %d argument%s (%d given)", fname, len(names), plural(len(names)), n)
	}
	if len(args) > maxPos {
		return nil, object.Errorf(object.TypeError, "%s() takes at most %d positional argument%s (%d given)", fname, maxPos, plural(maxPos), len(args))
	}
	out := make([]object.Value, len(names))
	copy(out, args)
	for _, k := range kw {
		for i, n := range names {
			if n == k.Name && i >= len(args) {
				out[i] = k.Value
			}
		}
	}
	for i := 0; i < required; i++ {
		if out[i] == nil {
			return nil, object.Errorf(object.TypeError, "%s() missing required argument '%s' (pos %d)", fname, names[i], i+1)
		}
	}
	for _, k := range kw {
		known := false
		for i, n := range names {
			if n != k.Name {
				continue
			}
			if i < len(args) {
				return nil, object.Errorf(object.TypeError, "argument for %s() given by name ('%s') and position (%d)", fname, n, i+1)
			}
			known = true
		}
		if !known {
			return nil, object.Errorf(object.TypeError, "'%s' is an invalid keyword argument for %s()", k.Name, fname)
		}
	}
	return out, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ssize converts an argument as PyNumber_AsSsize_t(v, OverflowError):
// ints and __index__, a TypeError for anything else.
func ssize(c object.Ctx, v object.Value) (int64, error) {
	switch x := v.(type) {
	case object.Int:
		return int64(x), nil
	case object.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case *object.BigInt:
		return 0, object.Errorf(object.OverflowError, "Python int too large to convert to C ssize_t")
	case *object.Instance:
		if m, _ := x.Class.Lookup("__index__"); m != nil {
			r, err := object.Index(c, x)
			if err != nil {
				return 0, err
			}
			return ssize(c, r)
		}
	}
	return 0, object.Errorf(object.TypeError, "'%s' object cannot be interpreted as an integer", object.TypeName(v))
}

// pool is tuple(iterable), charged as tuple() charges.
func pool(c object.Ctx, v object.Value) (object.Tuple, error) {
	if t, ok := v.(object.Tuple); ok {
		return t, nil
	}
	l, err := object.ListOf(c, v)
	if err != nil {
		return nil, err
	}
	return object.Tuple(l.Elems), nil
}

// itemTuple charges one item of r elements and records its memory.
func itemTuple(c object.Ctx, r int) (object.Tuple, error) {
	if err := object.Charge(c, meter.CostItertoolsItem+meter.CostPerElem*uint64(r)); err != nil {
		return nil, err
	}
	if err := object.AllocSlots(c, meter.SizeTupleHeader, uint64(r), meter.SizePointer); err != nil {
		return nil, err
	}
	return make(object.Tuple, r), nil
}

// intSlots records the memory of n machine-int slots (indices, cycles).
func intSlots(c object.Ctx, n int64) error {
	return object.AllocSlots(c, 0, uint64(n), meter.SizePointer)
}

// permutations(iterable, r=None)
func newPermutations(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("permutations", args, kw, []string{"iterable", "r"}, 1, 2)
	if err != nil {
		return nil, err
	}
	p, err := pool(c, a[0])
	if err != nil {
		return nil, err
	}
	n := len(p)
	r := n
	if a[1] != nil && a[1] != object.None {
		switch a[1].(type) {
		case object.Int, object.Bool, *object.BigInt:
		default:
			return nil, object.Errorf(object.TypeError, "Expected int as r")
		}
		rr, err := ssize(c, a[1])
		if err != nil {
			return nil, err
		}
		if rr < 0 {
			return nil, object.Errorf(object.ValueError, "r must be non-negative")
		}
		if rr > int64(n) {
			// Yields nothing; CPython's index arrays are never read.
			return &itIter{cls: permutationsClass, next: exhausted}, nil
		}
		r = int(rr)
	}
	if err := intSlots(c, int64(n+r)); err != nil {
		return nil, err
	}
	indices := make([]int, n)
	for i := range indices {
		indices[i] = i
	}
	cycles := make([]int, r)
	for i := range cycles {
		cycles[i] = n - i
	}
	first, stopped := true, false
	it := &itIter{cls: permutationsClass, refs: []object.Value{p}, slots: n + r}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if stopped {
			return nil, false, nil
		}
		if first {
			first = false
		} else {
			if n == 0 {
				stopped = true
				return nil, false, nil
			}
			i := r - 1
			for ; i >= 0; i-- {
				cycles[i]--
				if cycles[i] == 0 {
					index := indices[i]
					copy(indices[i:], indices[i+1:])
					indices[n-1] = index
					cycles[i] = n - i
					continue
				}
				j := cycles[i]
				indices[i], indices[n-j] = indices[n-j], indices[i]
				break
			}
			if i < 0 {
				stopped = true
				return nil, false, nil
			}
		}
		out, err := itemTuple(c, r)
		if err != nil {
			return nil, false, err
		}
		for k := range out {
			out[k] = p[indices[k]]
		}
		return out, true, nil
	}
	return it, nil
}

func exhausted(object.Ctx) (object.Value, bool, error) { return nil, false, nil }

// combinations(iterable, r) and combinations_with_replacement(iterable, r)
func newCombinations(c object.Ctx, fname string, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs(fname, args, kw, []string{"iterable", "r"}, 2, 2)
	if err != nil {
		return nil, err
	}
	p, err := pool(c, a[0])
	if err != nil {
		return nil, err
	}
	r64, err := ssize(c, a[1])
	if err != nil {
		return nil, err
	}
	if r64 < 0 {
		return nil, object.Errorf(object.ValueError, "r must be non-negative")
	}
	n := len(p)
	cls, repl := combinationsClass, fname != "combinations"
	if repl {
		cls = cwrClass
	}
	if (!repl && r64 > int64(n)) || (repl && n == 0 && r64 > 0) {
		return &itIter{cls: cls, next: exhausted}, nil
	}
	if err := intSlots(c, r64); err != nil {
		return nil, err
	}
	r := int(r64)
	indices := make([]int, r)
	if !repl {
		for i := range indices {
			indices[i] = i
		}
	}
	first, stopped := true, false
	it := &itIter{cls: cls, refs: []object.Value{p}, slots: r}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if stopped {
			return nil, false, nil
		}
		if first {
			first = false
		} else {
			i := r - 1
			if repl {
				for i >= 0 && indices[i] == n-1 {
					i--
				}
			} else {
				for i >= 0 && indices[i] == i+n-r {
					i--
				}
			}
			if i < 0 {
				stopped = true
				return nil, false, nil
			}
			if repl {
				v := indices[i] + 1
				for j := i; j < r; j++ {
					indices[j] = v
				}
			} else {
				indices[i]++
				for j := i + 1; j < r; j++ {
					indices[j] = indices[j-1] + 1
				}
			}
		}
		out, err := itemTuple(c, r)
		if err != nil {
			return nil, false, err
		}
		for k := range out {
			out[k] = p[indices[k]]
		}
		return out, true, nil
	}
	return it, nil
}

// product(*iterables, repeat=1)
func newProduct(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	repeat := int64(1)
	if len(kw) > 1 {
		return nil, object.Errorf(object.TypeError, "product() takes at most 1 keyword argument (%d given)", len(kw))
	}
	if len(kw) == 1 {
		if kw[0].Name != "repeat" {
			return nil, object.Errorf(object.TypeError, "'%s' is an invalid keyword argument for product()", kw[0].Name)
		}
		r, err := ssize(c, kw[0].Value)
		if err != nil {
			return nil, err
		}
		if r < 0 {
			return nil, object.Errorf(object.ValueError, "repeat argument cannot be negative")
		}
		repeat = r
	}
	nargs := int64(len(args))
	if repeat != 0 && nargs > (1<<62)/repeat {
		return nil, object.Errorf(object.OverflowError, "repeat argument too large")
	}
	npools := nargs * repeat
	// The pools tuple and the indices: two slots per pool.
	if err := object.AllocSlots(c, meter.SizeTupleHeader, uint64(npools)*2, meter.SizePointer); err != nil {
		return nil, err
	}
	each := make([]object.Tuple, 0, nargs)
	for _, a := range args {
		p, err := pool(c, a)
		if err != nil {
			return nil, err
		}
		each = append(each, p)
	}
	pools := make([]object.Tuple, 0, npools)
	for i := int64(0); i < repeat; i++ {
		pools = append(pools, each...)
	}
	refs := make([]object.Value, len(pools))
	for i, p := range pools {
		refs[i] = p
	}
	indices := make([]int, npools)
	started, stopped := false, false
	it := &itIter{cls: productClass, refs: refs, slots: int(npools)}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if stopped {
			return nil, false, nil
		}
		if !started {
			started = true
			for _, p := range pools {
				if len(p) == 0 {
					stopped = true
					return nil, false, nil
				}
			}
		} else {
			i := len(pools) - 1
			for ; i >= 0; i-- {
				indices[i]++
				if indices[i] == len(pools[i]) {
					indices[i] = 0
					continue
				}
				break
			}
			if i < 0 {
				stopped = true
				return nil, false, nil
			}
		}
		out, err := itemTuple(c, len(pools))
		if err != nil {
			return nil, false, err
		}
		for k, p := range pools {
			out[k] = p[indices[k]]
		}
		return out, true, nil
	}
	return it, nil
}

// newChain is chain over the iterables src yields.
func newChain(src object.Value) object.Value {
	var active object.Value
	it := &itIter{cls: chainClass, refs: []object.Value{src, nil}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		for src != nil {
			if active == nil {
				iterable, ok, err := object.Next(c, src)
				if err != nil || !ok {
					src, it.refs[0] = nil, nil
					return nil, false, err
				}
				if active, err = object.Iter(c, iterable); err != nil {
					src, it.refs[0] = nil, nil
					return nil, false, err
				}
				it.refs[1] = active
			}
			v, ok, err := object.Next(c, active)
			if err != nil {
				return nil, false, err
			}
			if ok {
				if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
					return nil, false, err
				}
				return v, true, nil
			}
			active, it.refs[1] = nil, nil
		}
		return nil, false, nil
	}
	return it
}

// islice(iterable, stop) or islice(iterable, start, stop[, step])
func newIslice(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := object.NoKw("islice", kw); err != nil {
		return nil, err
	}
	if err := object.ArgCount("islice", args, 2, 4); err != nil {
		return nil, err
	}
	// As CPython: a value PyNumber_AsSsize_t refuses reads as -1.
	conv := func(v object.Value, def int64) int64 {
		if v == object.None {
			return def
		}
		n, err := ssize(c, v)
		if err != nil {
			return -1
		}
		return n
	}
	const stopMsg = "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."
	start, stop, step := int64(0), int64(-1), int64(1)
	if len(args) == 2 {
		if args[1] != object.None {
			if stop = conv(args[1], -1); stop == -1 {
				return nil, object.Errorf(object.ValueError, stopMsg)
			}
		}
	} else {
		start = conv(args[1], 0)
		if args[2] != object.None {
			if stop = conv(args[2], -1); stop == -1 {
				return nil, object.Errorf(object.ValueError, stopMsg)
			}
		}
	}
	if start < 0 || stop < -1 {
		return nil, object.Errorf(object.ValueError, "Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
	}
	if len(args) == 4 {
		step = conv(args[3], 1)
	}
	if step < 1 {
		return nil, object.Errorf(object.ValueError, "Step for islice() must be a positive integer or None.")
	}
	src, err := object.Iter(c, args[0])
	if err != nil {
		return nil, err
	}
	cnt, next := int64(0), start
	it := &itIter{cls: isliceClass, refs: []object.Value{src}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if src == nil {
			return nil, false, nil
		}
		empty := func(err error) (object.Value, bool, error) {
			src, it.refs[0] = nil, nil
			return nil, false, err
		}
		for cnt < next {
			if _, ok, err := object.Next(c, src); err != nil || !ok {
				return empty(err)
			}
			if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
				return nil, false, err
			}
			cnt++
		}
		if stop != -1 && cnt >= stop {
			return empty(nil)
		}
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return empty(err)
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		cnt++
		old := next
		next += step
		if next < old || (stop != -1 && next > stop) {
			next = stop
		}
		return v, true, nil
	}
	return it, nil
}

// isNumber is PyNumber_Check: int, float, or a value whose type has
// __index__, __int__, __float__ or __complex__.
func isNumber(v object.Value) bool {
	switch v.(type) {
	case object.Int, object.Bool, *object.BigInt, object.Float:
		return true
	}
	k := v.Type()
	for _, m := range []string{"__index__", "__int__", "__float__", "__complex__"} {
		if f, _ := k.Lookup(m); f != nil {
			return true
		}
	}
	return false
}

// count(start=0, step=1)
func newCount(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("count", args, kw, []string{"start", "step"}, 0, 2)
	if err != nil {
		return nil, err
	}
	var cur, step object.Value = object.Int(0), object.Int(1)
	if a[0] != nil {
		cur = a[0]
	}
	if a[1] != nil {
		step = a[1]
	}
	if !isNumber(cur) || !isNumber(step) {
		return nil, object.Errorf(object.TypeError, "a number is required")
	}
	stepOne := false
	switch s := step.(type) {
	case object.Int:
		stepOne = s == 1
	case object.Bool:
		stepOne = bool(s)
	}
	// CPython's fast mode (int start, step 1) counts in C: a bool start
	// yields ints.
	if b, ok := cur.(object.Bool); ok && stepOne {
		if b {
			cur = object.Int(1)
		} else {
			cur = object.Int(0)
		}
	}
	it := &itIter{cls: countClass, refs: []object.Value{cur, step}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if err := object.Charge(c, meter.CostItertoolsItem+meter.CostArith); err != nil {
			return nil, false, err
		}
		v := cur
		n, err := object.Binary(c, object.OpAdd, cur, step)
		if err != nil {
			return nil, false, err
		}
		cur, it.refs[0] = n, n
		return v, true, nil
	}
	it.repr = func(c object.Ctx) (string, error) {
		s, err := object.Repr(c, cur)
		if err != nil || stepOne {
			return "count(" + s + ")", err
		}
		t, err := object.Repr(c, step)
		return "count(" + s + ", " + t + ")", err
	}
	return it, nil
}

// repeat(object[, times])
func newRepeat(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("repeat", args, kw, []string{"object", "times"}, 1, 2)
	if err != nil {
		return nil, err
	}
	v := a[0]
	it := &itIter{cls: repeatClass, refs: []object.Value{v}, left: -1}
	if a[1] != nil {
		n, err := ssize(c, a[1])
		if err != nil {
			return nil, err
		}
		it.left = max(n, 0)
	}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if it.left == 0 {
			return nil, false, nil
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		if it.left > 0 {
			it.left--
		}
		return v, true, nil
	}
	it.repr = func(c object.Ctx) (string, error) {
		s, err := object.Repr(c, v)
		if err != nil || it.left < 0 {
			return "repeat(" + s + ")", err
		}
		t, _ := object.Int(it.left).Repr(c)
		return "repeat(" + s + ", " + t + ")", nil
	}
	return it, nil
}

// accumulate(iterable, func=None, *, initial=None)
func newAccumulate(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("accumulate", args, kw, []string{"iterable", "func", "initial"}, 1, 2)
	if err != nil {
		return nil, err
	}
	src, err := object.Iter(c, a[0])
	if err != nil {
		return nil, err
	}
	fn, initial := a[1], a[2]
	if fn == object.None {
		fn = nil
	}
	if initial == object.None {
		initial = nil
	}
	var total object.Value
	it := &itIter{cls: accumulateClass, refs: []object.Value{src, fn, initial, nil}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if initial != nil {
			total, initial = initial, nil
			it.refs[2], it.refs[3] = nil, total
			if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
				return nil, false, err
			}
			return total, true, nil
		}
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return nil, false, err
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		if total == nil {
			total, it.refs[3] = v, v
			return v, true, nil
		}
		var n object.Value
		if fn == nil {
			if err := object.Charge(c, meter.CostArith); err != nil {
				return nil, false, err
			}
			n, err = object.Binary(c, object.OpAdd, total, v)
		} else {
			n, err = c.Call(fn, []object.Value{total, v}, nil)
		}
		if err != nil {
			return nil, false, err
		}
		total, it.refs[3] = n, n
		return n, true, nil
	}
	return it, nil
}

// checkPositional is CPython's _PyArg_CheckPositional message.
func checkPositional(fname string, args []object.Value, min, max int) error {
	n := len(args)
	switch {
	case n < min:
		q := "at least "
		if min == max {
			q = ""
		}
		return object.Errorf(object.TypeError, "%s expected %s%d argument%s, got %d", fname, q, min, plural(min), n)
	case n > max:
		q := "at most "
		if min == max {
			q = ""
		}
		return object.Errorf(object.TypeError, "%s expected %s%d argument%s, got %d", fname, q, max, plural(max), n)
	}
	return nil
}

// simpleArgs checks the arguments of the iterators that take positional
// arguments only (no keywords first, then the count, as CPython does).
func simpleArgs(fname string, args []object.Value, kw []object.Kw, n int) error {
	if err := object.NoKw(fname, kw); err != nil {
		return err
	}
	return checkPositional(fname, args, n, n)
}

// pairwise(iterable)
func newPairwise(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := simpleArgs("pairwise", args, kw, 1); err != nil {
		return nil, err
	}
	src, err := object.Iter(c, args[0])
	if err != nil {
		return nil, err
	}
	var old object.Value
	it := &itIter{cls: pairwiseClass, refs: []object.Value{src, nil}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if src == nil {
			return nil, false, nil
		}
		done := func(err error) (object.Value, bool, error) {
			src, old, it.refs[0], it.refs[1] = nil, nil, nil, nil
			return nil, false, err
		}
		if old == nil {
			v, ok, err := object.Next(c, src)
			if err != nil || !ok {
				return done(err)
			}
			old = v
		}
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return done(err)
		}
		out, err := itemTuple(c, 2)
		if err != nil {
			return nil, false, err
		}
		out[0], out[1] = old, v
		old, it.refs[1] = v, v
		return out, true, nil
	}
	return it, nil
}

// starmap(function, iterable)
func newStarmap(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := simpleArgs("starmap", args, kw, 2); err != nil {
		return nil, err
	}
	fn := args[0]
	src, err := object.Iter(c, args[1])
	if err != nil {
		return nil, err
	}
	it := &itIter{cls: starmapClass, refs: []object.Value{fn, src}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return nil, false, err
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		a, ok := v.(object.Tuple)
		if !ok {
			l, err := object.ListOf(c, v)
			if err != nil {
				return nil, false, err
			}
			a = object.Tuple(l.Elems)
		}
		r, err := c.Call(fn, a, nil)
		return r, err == nil, err
	}
	return it, nil
}

// compress(data, selectors)
func newCompress(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("compress", args, kw, []string{"data", "selectors"}, 2, 2)
	if err != nil {
		return nil, err
	}
	data, err := object.Iter(c, a[0])
	if err != nil {
		return nil, err
	}
	sel, err := object.Iter(c, a[1])
	if err != nil {
		return nil, err
	}
	it := &itIter{cls: compressClass, refs: []object.Value{data, sel}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		for {
			d, ok, err := object.Next(c, data)
			if err != nil || !ok {
				return nil, false, err
			}
			s, ok, err := object.Next(c, sel)
			if err != nil || !ok {
				return nil, false, err
			}
			if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
				return nil, false, err
			}
			keep, err := object.Truth(c, s)
			if err != nil {
				return nil, false, err
			}
			if keep {
				return d, true, nil
			}
		}
	}
	return it, nil
}

// predicateArgs is the shared start of takewhile, dropwhile, filterfalse.
func predicateArgs(c object.Ctx, fname string, args []object.Value, kw []object.Kw) (object.Value, object.Value, error) {
	if err := simpleArgs(fname, args, kw, 2); err != nil {
		return nil, nil, err
	}
	src, err := object.Iter(c, args[1])
	return args[0], src, err
}

// test calls pred on v and takes the truth of the result.
func test(c object.Ctx, pred, v object.Value) (bool, error) {
	r, err := c.Call(pred, []object.Value{v}, nil)
	if err != nil {
		return false, err
	}
	return object.Truth(c, r)
}

// takewhile(predicate, iterable)
func newTakewhile(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	pred, src, err := predicateArgs(c, "takewhile", args, kw)
	if err != nil {
		return nil, err
	}
	stop := false
	it := &itIter{cls: takewhileClass, refs: []object.Value{pred, src}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if stop {
			return nil, false, nil
		}
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return nil, false, err
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		good, err := test(c, pred, v)
		if err != nil {
			return nil, false, err
		}
		if !good {
			stop = true
			return nil, false, nil
		}
		return v, true, nil
	}
	return it, nil
}

// dropwhile(predicate, iterable)
func newDropwhile(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	pred, src, err := predicateArgs(c, "dropwhile", args, kw)
	if err != nil {
		return nil, err
	}
	started := false
	it := &itIter{cls: dropwhileClass, refs: []object.Value{pred, src}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		for {
			v, ok, err := object.Next(c, src)
			if err != nil || !ok {
				return nil, false, err
			}
			if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
				return nil, false, err
			}
			if started {
				return v, true, nil
			}
			good, err := test(c, pred, v)
			if err != nil {
				return nil, false, err
			}
			if !good {
				started = true
				return v, true, nil
			}
		}
	}
	return it, nil
}

// filterfalse(function or None, iterable)
func newFilterfalse(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	pred, src, err := predicateArgs(c, "filterfalse", args, kw)
	if err != nil {
		return nil, err
	}
	truth := pred == object.None || pred == object.Value(object.BoolClass)
	it := &itIter{cls: filterfalseClass, refs: []object.Value{pred, src}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		for {
			v, ok, err := object.Next(c, src)
			if err != nil || !ok {
				return nil, false, err
			}
			if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
				return nil, false, err
			}
			var good bool
			if truth {
				good, err = object.Truth(c, v)
			} else {
				good, err = test(c, pred, v)
			}
			if err != nil {
				return nil, false, err
			}
			if !good {
				return v, true, nil
			}
		}
	}
	return it, nil
}

// zip_longest(*iterables, fillvalue=None)
func newZipLongest(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	var fill object.Value = object.None
	if len(kw) > 0 {
		if len(kw) != 1 || kw[0].Name != "fillvalue" {
			return nil, object.Errorf(object.TypeError, "zip_longest() got an unexpected keyword argument")
		}
		fill = kw[0].Value
	}
	its := make([]object.Value, len(args))
	for i, a := range args {
		s, err := object.Iter(c, a)
		if err != nil {
			return nil, err
		}
		its[i] = s
	}
	active := len(its)
	it := &itIter{cls: zipLongestClass, refs: append([]object.Value{fill}, its...)}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if len(its) == 0 || active == 0 {
			return nil, false, nil
		}
		out, err := itemTuple(c, len(its))
		if err != nil {
			return nil, false, err
		}
		for i, s := range its {
			if s == nil {
				out[i] = fill
				continue
			}
			v, ok, err := object.Next(c, s)
			if err != nil {
				active = 0
				return nil, false, err
			}
			if !ok {
				active--
				if active == 0 {
					return nil, false, nil
				}
				its[i], it.refs[i+1] = nil, nil
				v = fill
			}
			out[i] = v
		}
		return out, true, nil
	}
	return it, nil
}

// cycle(iterable)
func newCycle(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := simpleArgs("cycle", args, kw, 1); err != nil {
		return nil, err
	}
	src, err := object.Iter(c, args[0])
	if err != nil {
		return nil, err
	}
	saved := &object.List{}
	index := 0
	it := &itIter{cls: cycleClass, refs: []object.Value{src, saved}}
	it.next = func(c object.Ctx) (object.Value, bool, error) {
		if src != nil {
			v, ok, err := object.Next(c, src)
			if err != nil {
				return nil, false, err
			}
			if ok {
				if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
					return nil, false, err
				}
				if err := object.Alloc(c, meter.SizePointer); err != nil {
					return nil, false, err
				}
				saved.Elems = append(saved.Elems, v)
				return v, true, nil
			}
			src, it.refs[0] = nil, nil
		}
		if len(saved.Elems) == 0 {
			return nil, false, nil
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return nil, false, err
		}
		v := saved.Elems[index]
		if index++; index >= len(saved.Elems) {
			index = 0
		}
		return v, true, nil
	}
	return it, nil
}

// groupby(iterable, key=None): CPython's groupby_next and _grouper_next.
// Only the grouper made last yields; each key comparison is tgtkey ==
// currkey, as CPython makes it.
func newGroupby(c object.Ctx, _ *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	a, err := clinicArgs("groupby", args, kw, []string{"iterable", "key"}, 1, 2)
	if err != nil {
		return nil, err
	}
	src, err := object.Iter(c, a[0])
	if err != nil {
		return nil, err
	}
	keyfn := a[1]
	if keyfn == object.None {
		keyfn = nil
	}
	// currkey/currvalue: the element read ahead; tgtkey: the key of the
	// group being handed out; nil when unset.
	var tgtkey, currkey, currvalue object.Value
	var current *itIter // the grouper that may still yield
	gb := &itIter{cls: groupbyClass, refs: []object.Value{src, keyfn, nil, nil, nil}}
	keep := func() { gb.refs[2], gb.refs[3], gb.refs[4] = tgtkey, currkey, currvalue }
	step := func(c object.Ctx) (bool, error) {
		v, ok, err := object.Next(c, src)
		if err != nil || !ok {
			return false, err
		}
		if err := object.Charge(c, meter.CostItertoolsItem); err != nil {
			return false, err
		}
		k := v
		if keyfn != nil {
			if k, err = c.Call(keyfn, []object.Value{v}, nil); err != nil {
				return false, err
			}
		}
		currvalue, currkey = v, k
		keep()
		return true, nil
	}
	gb.next = func(c object.Ctx) (object.Value, bool, error) {
		current = nil
		for {
			if currkey != nil {
				if tgtkey == nil {
					break
				}
				eq, err := object.Equal(c, tgtkey, currkey)
				if err != nil {
					return nil, false, err
				}
				if !eq {
					break
				}
			}
			if ok, err := step(c); err != nil || !ok {
				return nil, false, err
			}
		}
		tgtkey = currkey
		keep()
		g := &itIter{cls: grouperClass, refs: []object.Value{gb, tgtkey}}
		want := tgtkey
		g.next = func(c object.Ctx) (object.Value, bool, error) {
			if current != g {
				return nil, false, nil
			}
			if currvalue == nil {
				if ok, err := step(c); err != nil || !ok {
					return nil, false, err
				}
			}
			eq, err := object.Equal(c, want, currkey)
			if err != nil || !eq {
				return nil, false, err
			}
			v := currvalue
			currvalue = nil
			keep()
			return v, true, nil
		}
		current = g
		out, err := itemTuple(c, 2)
		if err != nil {
			return nil, false, err
		}
		out[0], out[1] = currkey, g
		return out, true, nil
	}
	return gb, nil
}
