package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// The stack discipline every body keeps: a value popped is cleared to nil
// at once (stack[sp] = nil or clearSlots), because the live-heap walk reads
// frames' stacks up to their stack pointers and a slab frame's slots are
// reused by the next call, which must find them nil. A body that calls out
// to Python first stores f.pc and f.sp (the frame's resume point), so a
// traceback names the right line and the heap walk sees the right stack.
// The bodies of the less frequent instructions of exec, named for what
// they do, so the loop reads as a table of opcodes. Each takes the value
// stack and its pointer and returns the new pointer; on an error the
// pointer is where the instruction left it, as when the code was inline.
// Their opcode's base cycles are charged by exec before they run.

// buildString is BUILD_STRING: joins the top n strs (f-strings), one cycle
// charge per character.
// The charge is CPython's cost model made explicit: _PyUnicode_JoinArray
// copies every character once, so the instruction costs per character of
// the result, charged before the copy so an oversized join stops first.
func (t *Thread) buildString(stack []object.Value, sp, n int) (int, error) {
	total := 0
	for i := sp - n; i < sp; i++ {
		total += len(stack[i].(object.Str))
	}
	if err := t.meter.Charge(uint64(total) * meter.CostPerChar); err != nil {
		return sp, err
	}
	buf := make([]byte, 0, total)
	for i := sp - n; i < sp; i++ {
		buf = append(buf, stack[i].(object.Str)...)
	}
	s, err := object.NewStr(t, string(buf))
	if err != nil {
		return sp, err
	}
	clearSlots(stack[sp-n : sp])
	sp -= n
	stack[sp] = s
	return sp + 1, nil
}

// unpackEx is UNPACK_EX: `a, *b, c = x`, with arg's low byte the names
// before the star and the next byte those after it.
// CPython's UNPACK_EX (unpack_iterable in ceval.c): the starred name gets
// a list of whatever is left between the fixed names, and a short
// iterable is "not enough values to unpack (expected at least N, got M)".
// The values are pushed in reverse so the first target is stored first.
func (t *Thread) unpackEx(stack []object.Value, sp int, arg uint32) (int, error) {
	before, after := int(arg&0xff), int(arg>>8)
	items, err := t.unpack(stack[sp-1], before, after)
	if err != nil {
		return sp, err
	}
	sp--
	for i := len(items) - 1; i >= 0; i-- {
		stack[sp] = items[i]
		sp++
	}
	return sp, nil
}

// functionCell is a Function with room for a closure of one cell.
type functionCell struct {
	fn   Function
	cell [1]*Cell
}

// makeFunction is MAKE_FUNCTION: a function of the code object on top,
// with (by arg's bits) a closure (4), annotations (8), keyword defaults
// (2) and defaults (1) below it.
// It is CPython's MAKE_FUNCTION (func_new in Objects/funcobject.c): the
// function takes __module__ from the defining globals' __name__, as
// PyFunction_New does, and its name and qualname from the code; the
// annotations dict (flag 8, as in CPython, which passes a tuple of pairs)
// becomes __annotations__ (docs/decisions.md). The Function's size is
// charged to the heap like any object; the cycles are the opcode's
// CostMakeFunction, paid before.
func (t *Thread) makeFunction(f *frame, stack []object.Value, sp int, arg uint32) (int, error) {
	sp--
	c := stack[sp].(*compile.Code)
	stack[sp] = nil
	var fn *Function
	if arg&4 != 0 {
		sp--
		cl := stack[sp].(object.Tuple)
		stack[sp] = nil
		if len(cl) == 1 {
			// A closure over one cell (a generator expression or lambda
			// reading one outer variable): one Go allocation for both.
			fc := &functionCell{}
			fn = &fc.fn
			fn.Closure = fc.cell[:]
		} else {
			fn = &Function{Closure: make([]*Cell, len(cl))}
		}
		for i, x := range cl {
			fn.Closure[i] = x.(*Cell)
		}
	} else {
		fn = &Function{}
	}
	fn.Code, fn.Globals, fn.Name, fn.QualName = c, f.globals, c.Name, c.QualName
	if mod, ok := f.globals.Get("__name__"); ok {
		if s, ok := mod.(object.Str); ok {
			fn.Module = string(s)
		}
	}
	if arg&8 != 0 {
		sp--
		fn.more().annotations = stack[sp].(*object.Dict)
		stack[sp] = nil
	}
	if arg&2 != 0 {
		sp--
		fn.more().kwDefaults = stack[sp].(*object.Dict)
		stack[sp] = nil
	}
	if arg&1 != 0 {
		sp--
		fn.more().defaults = stack[sp].(object.Tuple)
		stack[sp] = nil
	}
	if err := object.Alloc(t, meter.SizeFunction); err != nil {
		return sp, err
	}
	stack[sp] = fn
	return sp + 1, nil
}

// formatValue is FORMAT_VALUE: an f-string field, with arg's low byte the
// conversion (!r, !s, !a) and bit 0x100 a format spec on the stack.
// CPython's FORMAT_VALUE: a str with no conversion and no spec is its own
// result (PyObject_Format's fast path for an exact str), so f"{s}" does not
// copy s; anything else is formatted and the result allocated as a new str.
func (t *Thread) formatValue(stack []object.Value, sp int, arg uint32) (int, error) {
	var spec string
	if arg&0x100 != 0 {
		sp--
		spec = string(stack[sp].(object.Str))
		stack[sp] = nil
	}
	v := stack[sp-1]
	conv := byte(arg & 0xff)
	if s, ok := v.(object.Str); ok && conv == 0 && spec == "" {
		stack[sp-1] = s
		return sp, nil
	}
	s, err := object.FormatConv(t, v, conv, spec)
	if err != nil {
		return sp, err
	}
	str, err := object.NewStr(t, s)
	if err != nil {
		return sp, err
	}
	stack[sp-1] = str
	return sp, nil
}

// importFrom is IMPORT_FROM: `from m import name`, the module staying on
// the stack; a missing name is an ImportError as in CPython.
// CPython's import_from (ceval.c): getattr on the module, then, for a
// package, the submodule of that name, then ImportError. CPython adds the
// module's file in parentheses; a PVM module has no file to name.
func (t *Thread) importFrom(stack []object.Value, sp int, name string) (int, error) {
	mod := stack[sp-1]
	v, err := object.GetAttr(t, mod, name)
	if err != nil {
		// As CPython's packages: a name the module lacks may be a
		// registered submodule (cowboy_sdk.runner).
		if mm, ok := mod.(*Module); ok {
			// Has, not defs: a call's registry extends the shared
			// whitelist, whose entries are in its base.
			if t.modules.Has(mm.Name + "." + name) {
				v, err = t.importModule(mm.Name + "." + name)
			}
		}
	}
	if err != nil {
		if ex := asException(err); ex != nil && ex.Value.Class.IsSubclass(object.AttributeError) {
			mn := "?"
			if mm, ok := mod.(*Module); ok {
				mn = mm.Name
			}
			return sp, object.Errorf(object.ImportError, "cannot import name '%s' from '%s'", name, mn)
		}
		return sp, err
	}
	stack[sp] = v
	return sp + 1, nil
}

// matchKeys is MATCH_KEYS (mapping patterns): pushes the values of the
// keys tuple on top from the mapping below it, or None if one is missing.
// It is CPython 3.11's MATCH_KEYS, which looks each key up with the
// mapping's get(): the first missing key ends the check. CPython also
// refuses a key that appears twice in the pattern: literal keys with a
// SyntaxError from the compiler, value patterns (C.x) with ValueError
// here. The PVM checks neither (see the differences listed in
// docs/decisions.md).
func (t *Thread) matchKeys(stack []object.Value, sp int) (int, error) {
	keys := stack[sp-1].(object.Tuple)
	if _, exact := stack[sp-2].(*object.Dict); !exact && len(keys) > 0 {
		// CPython's compiler tests len(subject) >= len(keys) before
		// MATCH_KEYS; the PVM's does not (the bytecode, and with it
		// the charges, of every mapping pattern would change), and
		// only a dict subclass can tell the difference: its __len__ is
		// called, and a get() of its own is not when it is too short.
		n, err := object.Len(t, stack[sp-2])
		if err != nil {
			return sp, err
		}
		if n < len(keys) {
			stack[sp] = object.None
			return sp + 1, nil
		}
	}
	get, err := t.mappingGet(stack[sp-2])
	if err != nil {
		return sp, err
	}
	vals := make(object.Tuple, 0, len(keys))
	var r object.Value = object.None
	all := true
	for _, k := range keys {
		v, ok, err := get(k)
		if err != nil {
			return sp, err
		}
		if !ok {
			all = false
			break
		}
		vals = append(vals, v)
	}
	if all {
		r = vals
	}
	stack[sp] = r
	return sp + 1, nil
}

// mappingGet returns the key lookup MATCH_KEYS does on subject, a value
// MATCH_MAPPING accepted: a dict's own lookup, which is also what a dict
// subclass's inherited get() does (so OrderedDict, defaultdict and Counter
// are looked up in their dict without calling __missing__), or else
// CPython's call subject.get(key, sentinel) with a fresh object as the
// sentinel, for a subclass that overrides get().
func (t *Thread) mappingGet(subject object.Value) (func(object.Value) (object.Value, bool, error), error) {
	if d, ok := subject.(*object.Dict); ok {
		return func(k object.Value) (object.Value, bool, error) { return d.Get(t, k) }, nil
	}
	if in, ok := subject.(*object.Instance); ok {
		own, _ := object.DictClass.Dict.Get("get")
		if d, ok := in.Base.(*object.Dict); ok {
			if m, _ := in.Class.Lookup("get"); m == own {
				return func(k object.Value) (object.Value, bool, error) { return d.Get(t, k) }, nil
			}
		}
	}
	meth, err := object.GetAttr(t, subject, "get")
	if err != nil {
		return nil, err
	}
	missing, err := object.NewInstance(t, object.ObjectClass)
	if err != nil {
		return nil, err
	}
	return func(k object.Value) (object.Value, bool, error) {
		v, err := t.Call(meth, []object.Value{k, missing}, nil)
		if err != nil || v == object.Value(missing) {
			return nil, false, err
		}
		return v, true, nil
	}, nil
}

// copyDictWithoutKeys is COPY_DICT_WITHOUT_KEYS (`**rest` in a mapping
// pattern): replaces the keys tuple on top with a copy of the dict below
// it without those keys.
// The keys are compared with ==, as CPython deletes them from a copy with
// PyDict_DelItem (hash and equality), so 1 and 1.0 and True are the same
// key here as there. The order of the remaining keys is the dict's.
func (t *Thread) copyDictWithoutKeys(stack []object.Value, sp int) error {
	d, ok := stack[sp-2].(*object.Dict)
	if !ok {
		// A dict subclass is copied as dict(subject) copies it (its
		// keys(), then each value by subscript), as CPython's
		// PyDict_Update does for a mapping that is not an exact dict.
		v, err := object.DictClass.New(t, object.DictClass, []object.Value{stack[sp-2]}, nil)
		if err != nil {
			return err
		}
		d = v.(*object.Dict)
	}
	keys := stack[sp-1].(object.Tuple)
	out := object.NewDict()
	var err error
	for _, kv := range d.Items() {
		skip := false
		for _, k := range keys {
			eq, e := object.Equal(t, kv[0], k)
			if e != nil {
				err = e
				break
			}
			if eq {
				skip = true
				break
			}
		}
		if err != nil {
			break
		}
		if !skip {
			if err = out.Set(t, kv[0], kv[1]); err != nil {
				break
			}
		}
	}
	stack[sp-1] = out
	return err
}

// callEx is CALL_EX: f(*args) or f(*args, **kwargs), the tuple (and
// dict, when arg's bit 1 is set) built by the compiler.
// CPython's CALL_FUNCTION_EX: the compiler has already built the tuple
// (LIST_TO_TUPLE) and the keyword dict (DICT_MERGE refuses a name
// repeated between two ** mappings), so this instruction only turns the
// dict into keyword arguments. A non-str key is refused here, as the dict may come straight
// from f(**d).
func (t *Thread) callEx(f *frame, stack []object.Value, sp, pc int, arg uint32) (int, error) {
	var kwv object.Value
	if arg&1 != 0 {
		sp--
		kwv = stack[sp]
		stack[sp] = nil
	}
	fn := stack[sp-2]
	args, _ := stack[sp-1].(object.Tuple)
	var kw []object.Kw
	if kwv != nil {
		for _, kv := range kwv.(*object.Dict).Items() {
			k, ok := kv[0].(object.Str)
			if !ok {
				return sp, object.Errorf(object.TypeError, "keywords must be strings")
			}
			kw = append(kw, object.Kw{Name: string(k), Value: kv[1]})
		}
	}
	f.pc, f.sp = pc, sp
	r, err := t.Call(fn, args, kw)
	sp -= 2
	stack[sp], stack[sp+1] = nil, nil
	if err != nil {
		return sp, err
	}
	stack[sp] = r
	return sp + 1, nil
}

// buildClassOp is BUILD_CLASS and BUILD_CLASS_KW: the class statement,
// from the body function, the name, n bases and (withKw) keywords whose
// names are the tuple on top.
// It is CPython's LOAD_BUILD_CLASS + CALL of __build_class__ folded into
// one instruction: the body function, the name and the bases (and class
// keywords such as metaclass=) are on the stack, and buildClass runs
// builtin___build_class__'s steps.
func (t *Thread) buildClassOp(f *frame, stack []object.Value, sp, pc, n int, withKw bool) (int, error) {
	base := sp - n - 2
	bases := stack[base+2 : sp]
	var kw []object.Kw
	if withKw {
		kwnames := stack[sp-1].(object.Tuple)
		nkw := len(kwnames)
		base = sp - n - 3
		kw = make([]object.Kw, nkw)
		for i, k := range kwnames {
			kw[i] = object.Kw{Name: string(k.(object.Str)), Value: stack[base+2+n-nkw+i]}
		}
		bases = stack[base+2 : base+2+n-nkw]
	}
	f.pc, f.sp = pc, sp
	k, err := t.buildClass(f, stack[base].(*Function), stack[base+1].(object.Str), bases, kw)
	clearSlots(stack[base:sp])
	sp = base
	if err != nil {
		return sp, err
	}
	stack[sp] = k
	return sp + 1, nil
}

// setupWith is SETUP_WITH: looks up __exit__ and __enter__ on the manager,
// calls __enter__, and opens the block whose handler is at arg.
// CPython 3.11's BEFORE_WITH: the manager's class supplies both methods
// (special method lookup skips the instance dict), a missing one is the
// TypeError "does not support the context manager protocol", and the bound
// __exit__ replaces the manager on the stack for WITH_EXIT or WITH_EXCEPT
// to call. Both are looked up before __enter__ runs, so a manager
// without __exit__ fails before __enter__ has any effect. (CPython looks
// __enter__ up first and, for a missing __exit__, adds "(missed __exit__
// method)" to the message.)
func (t *Thread) setupWith(f *frame, stack []object.Value, sp, pc int, arg uint32) (int, error) {
	mgr := stack[sp-1]
	exit, err := t.lookupSpecial(mgr, "__exit__")
	if err != nil {
		return sp, err
	}
	enter, err := t.lookupSpecial(mgr, "__enter__")
	if err != nil {
		return sp, err
	}
	f.pc, f.sp = pc, sp
	r, err := t.Call(enter, nil, nil)
	if err != nil {
		return sp, err
	}
	stack[sp-1] = exit
	f.blocks = append(f.blocks, block{kind: blockFinally, handler: int32(arg), level: int32(sp)})
	stack[sp] = r
	return sp + 1, nil
}

// withExcept is WITH_EXCEPT: calls __exit__ with the exception being
// handled and pushes whether it was suppressed.
// It is CPython's WITH_EXCEPT_START: __exit__(type, value, traceback),
// with None for the traceback (the PVM has no traceback objects; noted in
// docs/decisions.md). A true result means the handler swallows the
// exception (the compiler's code after this pops it).
func (t *Thread) withExcept(f *frame, stack []object.Value, sp, pc int) (int, error) {
	exc := stack[sp-1].(*object.Instance)
	exit := stack[sp-2]
	f.pc, f.sp = pc, sp
	r, err := t.Call(exit, []object.Value{exc.Class, exc, object.None}, nil)
	if err != nil {
		return sp, err
	}
	b, err := object.Truth(t, r)
	if err != nil {
		return sp, err
	}
	stack[sp] = object.MakeBool(b)
	return sp + 1, nil
}

// importStar is IMPORT_STAR: binds the module's public names in the
// frame's namespace (a class body's, else the globals).
// It is CPython's import_all_from without __all__: every global whose name
// does not start with an underscore, in the module's insertion order. A
// function body cannot contain import * (a SyntaxError from the compiler),
// so the target is always a namespace, never fast locals.
func importStar(f *frame, stack []object.Value, sp int) int {
	sp--
	mod := stack[sp].(*Module)
	stack[sp] = nil
	mod.Globals.Each(func(k string, v object.Value) {
		if len(k) > 0 && k[0] != '_' {
			if f.ns != nil {
				f.ns.Set(k, v)
			} else {
				f.globals.Set(k, v)
			}
		}
	})
	return sp
}

// buildSet is BUILD_SET: a set of the top n values, added in order.
// Elements are added left to right, so for equal elements the first one
// stays, as in CPython's BUILD_SET; each Add hashes (and may call __hash__
// and __eq__ of the element) and is charged by the set.
func (t *Thread) buildSet(stack []object.Value, sp, n int) (int, error) {
	s := object.NewSet(false)
	for i := sp - n; i < sp; i++ {
		if err := s.Add(t, stack[i]); err != nil {
			return sp, err
		}
	}
	clearSlots(stack[sp-n : sp])
	sp -= n
	stack[sp] = s
	return sp + 1, nil
}

// buildMap is BUILD_MAP: a dict of the top n key-value pairs.
// Pairs are inserted left to right: a repeated key keeps its first key
// object and its last value ({1: 'a', 1.0: 'b'} is {1: 'b'}), as in CPython.
func (t *Thread) buildMap(stack []object.Value, sp, n int) (int, error) {
	d := object.NewDict()
	for i := sp - 2*n; i < sp; i += 2 {
		if err := d.Set(t, stack[i], stack[i+1]); err != nil {
			return sp, err
		}
	}
	clearSlots(stack[sp-2*n : sp])
	sp -= 2 * n
	stack[sp] = d
	return sp + 1, nil
}

// listExtend is LIST_EXTEND: extends the list arg's low 16 bits below the
// top with the iterable on top ([*a], f(*a)), with CPython's messages for
// a non-iterable.
// The extension is list += iterable (list_extend in CPython), which charges
// per element appended. Its TypeError is replaced with CPython's
// message only when the value really is not iterable, so a TypeError raised
// inside a generator being unpacked reaches the program unchanged.
func (t *Thread) listExtend(stack []object.Value, sp int, arg uint32) (int, error) {
	sp--
	depth := int(arg & 0xffff)
	_, err := object.Inplace(t, object.OpAdd, stack[sp-depth], stack[sp])
	if err != nil {
		if e := asException(err); e != nil && e.Value.Class == object.TypeError && !object.IsIterable(stack[sp]) {
			if arg&compile.CallArgs != 0 {
				err = object.Errorf(object.TypeError, "%s argument after * must be an iterable, not %s", t.funcStr(stack[sp-depth-1]), object.TypeName(stack[sp]))
			} else {
				err = object.Errorf(object.TypeError, "Value after * must be an iterable, not %s", object.TypeName(stack[sp]))
			}
		}
	}
	stack[sp] = nil
	return sp, err
}

// loadName is LOAD_NAME (class bodies and module level): the class
// namespace, then the globals, then the builtins.
// This lookup order is CPython's LOAD_NAME. The compiler emits it only
// in class bodies (compile's loadName): function names are fast locals,
// cells or LOAD_GLOBAL, and module-level names are LOAD_GLOBAL since the
// module's namespace is its globals, so f.ns is always a class
// namespace here and the instruction needs no cache.
func (t *Thread) loadName(f *frame, stack []object.Value, sp int, name string) (int, error) {
	v, ok := f.ns.Get(name)
	if !ok {
		v, ok = f.globals.Get(name)
		if !ok {
			v, ok = t.builtins.Get(name)
			if !ok {
				return sp, t.nameError(f, name)
			}
		}
	}
	stack[sp] = v
	return sp + 1, nil
}

// callKw is CALL_KW: f(a, k=v) with n arguments, the last ones named by
// the tuple on top.
// CPython's KW_NAMES + CALL (3.11): the keyword names are a constant tuple,
// the values the last n - npos arguments. The positional arguments are
// passed as a window of the value stack, which the callee must not keep
// (builtinFn); the slots are cleared after the call.
func (t *Thread) callKw(f *frame, stack []object.Value, sp, pc, n int) (int, error) {
	kwnames := stack[sp-1].(object.Tuple)
	nkw := len(kwnames)
	base := sp - 1 - n - 1
	npos := n - nkw
	kw := make([]object.Kw, nkw)
	for i, k := range kwnames {
		kw[i] = object.Kw{Name: string(k.(object.Str)), Value: stack[base+1+npos+i]}
	}
	f.pc, f.sp = pc, sp
	r, err := t.Call(stack[base], stack[base+1:base+1+npos], kw)
	clearSlots(stack[base:sp])
	sp = base
	if err != nil {
		return sp, err
	}
	stack[sp] = r
	return sp + 1, nil
}

// getYieldFromIter is GET_YIELD_FROM_ITER: `yield from x` iterates x
// unless it is already a generator.
// It is CPython's GET_YIELD_FROM_ITER: a generator is delegated to as it
// is, so send() and throw() reach it; anything else is iterated with
// next(). A coroutine cannot be yielded from in a plain generator: the
// PVM's coroutines are a different Go type, so they take the iteration
// path and fail there, with "'coroutine' object is not iterable" where
// CPython says "cannot 'yield from' a coroutine object in a non-coroutine
// generator".
func (t *Thread) getYieldFromIter(stack []object.Value, sp int) error {
	if _, ok := stack[sp-1].(*Generator); ok {
		return nil
	}
	it, err := object.Iter(t, stack[sp-1])
	if err != nil {
		return err
	}
	stack[sp-1] = it
	return nil
}

// setUpdate is SET_UPDATE ({*a, *b}): adds the iterable on top to the set
// arg slots below it.
// Iterate charges per element, as a loop of set.add calls would be.
func (t *Thread) setUpdate(stack []object.Value, sp, arg int) (int, error) {
	sp--
	s := stack[sp-arg].(*object.Set)
	err := object.Iterate(t, stack[sp], func(v object.Value) error { return s.Add(t, v) })
	stack[sp] = nil
	return sp, err
}

// dictUpdate is DICT_UPDATE ({**a}) and, with merge, DICT_MERGE (f(**a),
// where a repeated keyword is an error): adds the mapping on top to the
// dict arg slots below it. For DICT_MERGE the stack is [f args kwargs
// src], and f names the callee in the messages.
// DICT_UPDATE keeps the last value of a repeated key ({**a, **b}); only
// DICT_MERGE, for calls, refuses it, as in CPython.
func (t *Thread) dictUpdate(stack []object.Value, sp, arg int, merge bool) (int, error) {
	sp--
	d := stack[sp-arg].(*object.Dict)
	var callee object.Value
	if merge {
		callee = stack[sp-arg-2]
	}
	err := t.dictMerge(d, stack[sp], callee)
	stack[sp] = nil
	return sp, err
}

// mapAddKeyword is MAP_ADD of a call's k=v after a **m (compile.CallArgs):
// the stack was [f args kwargs k v] and sp points at k. A keyword the
// mapping already gave is refused, as DICT_MERGE refuses one given twice.
func (t *Thread) mapAddKeyword(stack []object.Value, sp int) error {
	d := stack[sp-1].(*object.Dict)
	if _, dup, err := d.Get(t, stack[sp]); err != nil {
		return err
	} else if dup {
		return object.Errorf(object.TypeError, "%s got multiple values for keyword argument '%s'", t.funcStr(stack[sp-3]), stack[sp].(object.Str))
	}
	return d.Set(t, stack[sp], stack[sp+1])
}

// withExit is WITH_EXIT: the with block ended without an exception, so
// __exit__ (on top) is called with three Nones.
// CPython 3.11 compiles this as a call of __exit__ with (None, None, None)
// and a POP_TOP; its result is ignored when no exception is in flight.
func (t *Thread) withExit(f *frame, stack []object.Value, sp, pc int) (int, error) {
	sp--
	exit := stack[sp]
	stack[sp] = nil
	f.pc, f.sp = pc, sp
	_, err := t.Call(exit, []object.Value{object.None, object.None, object.None}, nil)
	return sp, err
}

// matchMapping is MATCH_MAPPING: pushes whether the subject on top is a
// mapping for a mapping pattern: a dict or an instance of a subclass.
// CPython 3.11 tests the subject's type flag Py_TPFLAGS_MAPPING, which
// dict, its subclasses and collections.abc.Mapping registrations set
// (Class.MatchesMapping; the PVM has no collections.abc).
func matchMapping(stack []object.Value, sp int) int {
	ok := true
	if _, exact := stack[sp-1].(*object.Dict); !exact {
		ok = stack[sp-1].Type().MatchesMapping()
	}
	stack[sp] = object.MakeBool(ok)
	return sp + 1
}

// matchSequence is MATCH_SEQUENCE: pushes whether the subject on top is a
// sequence a sequence pattern may match (list, tuple, range, deque and
// their subclasses; not str, bytes or bytearray, as PEP 634 says).
// CPython 3.11 tests Py_TPFLAGS_SEQUENCE, set for list, tuple, range,
// memoryview, collections.deque, array and their subclasses
// (Class.MatchesSequence).
func matchSequence(stack []object.Value, sp int) int {
	var ok bool
	switch v := stack[sp-1].(type) {
	case *object.List, object.Tuple, *object.Range:
		ok = true
	default:
		ok = v.Type().MatchesSequence()
	}
	stack[sp] = object.MakeBool(ok)
	return sp + 1
}

// buildSlice is BUILD_SLICE: the slice of the top two or three values
// (start, stop and step). When the next instruction consumes it at once
// and nothing can keep it, the slice is the thread's scratch slice
// instead of a new Go allocation: the next op is BINARY_SUBSCR on a
// list, tuple or str, or STORE_SUBSCR of a list or tuple into a list,
// and the bounds are ints or None, so no Python code runs (no __index__,
// no __getitem__, no iteration of the value) while the slice is on the
// stack and nothing stores it. The live-heap walk sees the same object
// in the same slot (a slice with these three fields) and nothing is
// charged for a slice either way, so no charge changes.
func (t *Thread) buildSlice(stack []object.Value, sp, n int, next compile.Opcode) int {
	var start, stop, step object.Value = stack[sp-n], stack[sp-n+1], object.None
	if n == 3 {
		step = stack[sp-1]
	}
	s := &t.slice
	if !plainBound(start) || !plainBound(stop) || !plainBound(step) || !scratchSliceUse(stack, sp-n, next) {
		s = &object.SliceObj{}
	}
	s.Start, s.Stop, s.Step = start, stop, step
	clearSlots(stack[sp-n+1 : sp])
	sp -= n - 1
	stack[sp-1] = s
	return sp
}

// plainBound reports whether v is a slice bound that runs no code: an
// int or None.
// Ints and None are the bounds for which taking a slice calls no
// __index__, so a scratch slice cannot be observed by Python code.
func plainBound(v object.Value) bool {
	switch v.(type) {
	case object.Int, object.NoneType:
		return true
	}
	return false
}

// scratchSliceUse reports whether next, the instruction after
// BUILD_SLICE, takes the slice from stack[:top+1] (the slice at top)
// into code that neither keeps it nor runs Python code.
func scratchSliceUse(stack []object.Value, top int, next compile.Opcode) bool {
	switch next {
	case compile.BINARY_SUBSCR:
		switch stack[top-1].(type) {
		case *object.List, object.Tuple, object.Str:
			return true
		}
	case compile.STORE_SUBSCR:
		if _, ok := stack[top-1].(*object.List); ok {
			switch stack[top-2].(type) {
			case *object.List, object.Tuple:
				return true
			}
		}
	}
	return false
}

// nextPair is FOR_ITER on an iterator of pairs (goIter.pair, enumerate).
// When next, the instruction after FOR_ITER, is UNPACK_SEQUENCE 2 and the
// meter can pay its base cycles, it runs that instruction too, charged
// as the loop charges it: the pair's items go to stack[sp] and
// stack[sp+1] as UNPACK_SEQUENCE pushes them, without the tuple, and
// unpacked is true (the caller moves sp and pc past both instructions).
// Otherwise v is the pair as a tuple, as Next returns it (a pair the
// meter cannot unpack is unpacked, and refused, by the loop itself).
func (t *Thread) nextPair(gi *goIter, stack []object.Value, sp int, next compile.Instr) (v object.Value, ok, unpacked bool, err error) {
	a, b, ok, err := gi.pair(t)
	if !ok || err != nil {
		return nil, ok, false, err
	}
	if cost := opCost[next.Op]; next.Op == compile.UNPACK_SEQUENCE && next.Arg == 2 && cost <= t.meter.Left {
		t.meter.Left -= cost
		stack[sp], stack[sp+1] = b, a
		return nil, true, true, nil
	}
	return newPair(a, b), true, false, nil
}

// unary is UNARY_OP: object.Unary, with -x on a float (a sign flip that
// charges nothing) boxed through the thread's FloatBox.
// -x on a float only flips the sign bit, which is exact in IEEE 754, so it
// is done in software (softfloat) like every float operation: no host
// floating point reaches a result. The cycles are UNARY_OP's CostArith,
// charged by the loop.
func (t *Thread) unary(op object.Op, x object.Value) (object.Value, error) {
	if a, ok := x.(object.Float); ok && op == object.OpNeg {
		return t.fbox.Box(object.Float(softfloat.Neg(sfloat(a)).Float64())), nil
	}
	return object.Unary(t, op, x)
}

// sliceTemp is the BINARY_SUBSCR of `a[s:t] = b[u:v]` (Code.SliceTemp):
// when b is a list, the slice's bounds are ints or None (so taking it runs
// no Python code) and the thread's scratch list is free, the slice is
// built into the scratch list, charged as a new list is, and
// storeSliceTemp frees it again. Otherwise it is GetItem.
func (t *Thread) getItem(code *compile.Code, next int, x, k object.Value) (object.Value, error) {
	if code.SliceTemp(next - 1) {
		return t.sliceTemp(x, k)
	}
	return object.GetItem(t, x, k)
}

// sliceTemp takes b[u:v] into the scratch list. t.tmpVal says the scratch
// list is taken; a nested use (the right-hand side of another slice
// assignment inside a __setitem__) falls back to GetItem, so at most one
// statement holds it.
func (t *Thread) sliceTemp(x, k object.Value) (object.Value, error) {
	l, ok := x.(*object.List)
	s, ok2 := k.(*object.SliceObj)
	if !ok || !ok2 || t.tmpVal != nil || !plainBound(s.Start) || !plainBound(s.Stop) || !plainBound(s.Step) {
		return object.GetItem(t, x, k)
	}
	t.tmpVal = &t.tmpList
	r, err := object.SliceListInto(t, l.Elems, s, &t.tmpList, &t.tmpBuf)
	if err != nil {
		t.tmpVal = nil
		return nil, err
	}
	return r, nil
}

// storeSliceTemp is the STORE_SUBSCR that takes the scratch list of
// sliceTemp as its value: a list's slice assignment copies the elements
// out, so the scratch list is free again after it; any other target (a
// user __setitem__ may keep its value) gets a list of its own, a Go copy
// charged nothing more (the scratch list was charged as a new list).
func (t *Thread) storeSliceTemp(obj, key object.Value) error {
	tmp := &t.tmpList
	v := object.Value(tmp)
	_, sliceKey := key.(*object.SliceObj)
	_, listTarget := obj.(*object.List)
	if !sliceKey || !listTarget {
		v = &object.List{Elems: append([]object.Value(nil), tmp.Elems...)}
	}
	err := object.SetItem(t, obj, key, v)
	clear(tmp.Elems)
	tmp.Elems = nil
	t.tmpVal = nil
	return err
}
