package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Call implements object.Ctx: it calls any callable value.
// It is PyObject_Call's dispatch on the callee's type, and the one place
// the CostCall of a call is decided: a builtin is charged here, a Python
// function in callFunction and a class in instantiate, so each call costs
// CostCall once however it is reached (CALL, CALL_KW, a builtin calling
// back into Python, a dunder run by an operator). A bound method only
// prepends self and calls again, so it costs what its function costs. A
// class's own __call__ on a user metaclass wins over instantiation, as
// type.__call__ is what tp_call of a class runs in CPython.
func (t *Thread) Call(fn object.Value, args []object.Value, kw []object.Kw) (object.Value, error) {
	switch f := fn.(type) {
	case *Function:
		return t.callFunction(f, args, kw)
	case *object.Builtin:
		if err := t.meter.Charge(meter.CostCall); err != nil {
			return nil, err
		}
		return f.Fn(t, args, kw)
	case *object.BoundMethod:
		return t.callPrepended(f.Fn, f.Self, args, kw)
	case *object.Class:
		if m := object.MetaMethod(f, "__call__"); m != nil {
			return t.callPrepended(m, f, args, kw)
		}
		return t.instantiate(f, args, kw)
	case *object.Instance:
		if m, _ := f.Class.Lookup("__call__"); m != nil {
			return t.callPrepended(m, f, args, kw)
		}
	case *object.StaticMethod:
		return t.Call(f.Fn, args, kw)
	case *object.GenericAlias:
		if f.Origin != nil {
			return t.Call(f.Origin, args, kw)
		}
	}
	return nil, object.Errorf(object.TypeError, "'%s' object is not callable", object.TypeName(fn))
}

// instantiate is type_call (Objects/typeobject.c) for a class without a
// metaclass __call__: __new__, then __init__ if __new__ returned an
// instance of the class. It charges CostCall once for the whole
// construction; the __new__ and __init__ it runs are charged as the calls
// they are. Builtin types with a Go constructor (k.New: int, list, dict,
// ...) return from it directly, as their tp_new does all the work.
func (t *Thread) instantiate(k *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := t.meter.Charge(meter.CostCall); err != nil {
		return nil, err
	}
	if k.New != nil {
		return k.New(t, k, args, kw)
	}
	var inst object.Value
	if nw := k.LookupNew(); nw != nil && unwrapStatic(nw) != object.Value(objectNew) {
		// A user __new__, or the __new__ of the builtin type a subclass
		// extends (tuple.__new__ builds the tuple the instance wraps).
		r, err := t.callPrepended(unwrapStatic(nw), k, args, kw)
		if err != nil {
			return nil, err
		}
		if !r.Type().IsSubclass(k) {
			return r, nil // __init__ is not called, as in Python
		}
		inst = r
	} else {
		if err := objectNewArgs(k, args, kw); err != nil {
			return nil, err
		}
		if err := t.checkAbstract(k); err != nil {
			return nil, err
		}
		in, err := object.NewInstance(t, k)
		if err != nil {
			return nil, err
		}
		inst = in
	}
	// BaseException_new stores the constructor's arguments in args before
	// __init__ runs, so a subclass whose __init__ does not call super()
	// still has them.
	if in, ok := inst.(*object.Instance); ok && in.Exc != nil && len(in.Exc.Args) == 0 {
		in.Exc.Args = append(object.Tuple(nil), args...)
	}
	// A user class finds object.__init__ at worst, which refuses extra
	// arguments as object_init does; nil is left for classes built
	// without object in their MRO.
	init := k.LookupInit()
	if init == nil {
		return inst, nil
	}
	r, err := t.callPrepended(init, inst, args, kw)
	if err != nil {
		return nil, err
	}
	if !object.IsNone(r) {
		return nil, object.Errorf(object.TypeError, "__init__() should return None, not '%s'", object.TypeName(r))
	}
	return inst, nil
}

// objectNew is object.__new__: it allocates an instance of its class
// argument (user __new__ methods call it through super()).
var objectNew = object.NewBuiltin("__new__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
	if len(args) == 0 {
		return nil, object.Errorf(object.TypeError, "object.__new__(): not enough arguments")
	}
	k, ok := args[0].(*object.Class)
	if !ok {
		return nil, object.Errorf(object.TypeError, "object.__new__(X): X is not a type object (%s)", object.TypeName(args[0]))
	}
	if k.New != nil {
		return k.New(c, k, args[1:], kw)
	}
	if err := objectNewArgs(k, args[1:], kw); err != nil {
		return nil, err
	}
	if err := c.(*Thread).checkAbstract(k); err != nil {
		return nil, err
	}
	return object.NewInstance(c, k)
})

func init() { object.ObjectClass.Dict.Set("__new__", &object.StaticMethod{Fn: objectNew}) }

// objectNewArgs is object_new's check of extra arguments: they are an
// error when k overrides __new__ (object.__new__ was called with the
// arguments meant for it) or overrides neither __new__ nor __init__;
// a class that overrides __init__ only takes them there.
func objectNewArgs(k *object.Class, args []object.Value, kw []object.Kw) error {
	if len(args) == 0 && len(kw) == 0 {
		return nil
	}
	if !object.IsObjectNew(k.LookupNew()) {
		return object.Errorf(object.TypeError, "object.__new__() takes exactly one argument (the type to instantiate)")
	}
	if object.IsObjectInit(k.LookupInit()) {
		return object.Errorf(object.TypeError, "%s() takes no arguments", k.Name)
	}
	return nil
}

// unwrapStatic is the function inside a staticmethod: __new__ is stored
// as one (an implicit staticmethod, as type_new makes it) and called with
// the class as an ordinary first argument.
func unwrapStatic(v object.Value) object.Value {
	if s, ok := v.(*object.StaticMethod); ok {
		return s.Fn
	}
	return v
}

// callFunction binds arguments into a new frame and runs it (or returns a
// generator for generator functions). The frame of an ordinary call lives on
// the Go stack and its locals and value stack in the thread's slab, so a
// call does not allocate.
func (t *Thread) callFunction(fn *Function, args []object.Value, kw []object.Kw) (object.Value, error) {
	if err := t.meter.Charge(meter.CostCall); err != nil {
		return nil, err
	}
	code := fn.Code
	if code.Generator {
		return t.makeGenerator(fn, args, kw)
	}
	// Depth is counted in Python frames (meter.Enter), not Go stack frames:
	// the limit is the same on every node whatever the Go stack holds, and
	// it is a RecursionError that Python code can catch, as in CPython.
	if err := t.meter.Enter(); err != nil {
		return nil, object.Errorf(object.RecursionError, "maximum recursion depth exceeded")
	}
	nlocals := len(code.Varnames)
	need := nlocals + code.MaxStack
	// A slab frame also keeps, after its value stack, the function and its
	// new cells: the live-heap walk finds every slab frame's values by
	// reading the slab (heap.go), so the frame itself can stay on the Go
	// stack.
	ncell := len(code.Cellvars)
	roots := 1 + ncell
	var mem []object.Value
	end := t.sp + need + roots
	fromSlab := end <= len(t.slab)
	if fromSlab {
		mem = t.slab[t.sp:end:end]
		t.sp = end
		mem[need] = fn
	} else {
		if err := object.AllocSlots(t, meter.SizeFrame, uint64(need), meter.SizePointer); err != nil {
			t.meter.Leave()
			return nil, err
		}
		mem = make([]object.Value, need)
	}
	var fr frame
	fr.code, fr.fn, fr.globals, fr.locals, fr.stack = code, fn, fn.Globals, mem[:nlocals], mem[nlocals:need:need]
	var r object.Value
	var err error
	if code.PlainArgs && len(args) == code.ArgCount && len(kw) == 0 {
		// bindArgs's fast path with every parameter given and no cells.
		// (ArgCount <= nlocals: the slice expression checks it once.)
		locals := fr.locals[:len(args)]
		for i, a := range args {
			locals[i] = a
		}
	} else {
		err = t.bindArgs(&fr, fn, args, kw)
	}
	if err == nil {
		if fromSlab {
			for i := 0; i < ncell; i++ {
				mem[need+1+i] = fr.cells[i]
			}
			r, err = t.exec(&fr)
		} else {
			// Outside the slab the frame is tracked as a root instead,
			// which needs it on the heap (a deep recursion, rare).
			hf := new(frame)
			*hf = fr
			r, err = t.run(hf)
		}
	}
	if fromSlab {
		top := nlocals + fr.sp
		if fr.stale {
			top = need
		}
		t.release(mem, top, need)
	}
	t.meter.Leave()
	return r, err
}

// makeGenerator is the call of a generator or coroutine function
// (CPython's RETURN_GENERATOR at the start of its code, 3.11): arguments
// are bound now, so binding errors raise at the call, but no instruction
// runs until the first next() or send(). Its frame outlives the call, so it
// cannot use the slab and its slots are charged as a heap frame's are.
// It does not enter the meter's depth count: a generator frame is counted
// while it runs (Generator.resume), not while it waits.
func (t *Thread) makeGenerator(fn *Function, args []object.Value, kw []object.Kw) (object.Value, error) {
	code := fn.Code
	need := len(code.Varnames) + code.MaxStack
	if err := object.AllocSlots(t, meter.SizeFrame, uint64(need), meter.SizePointer); err != nil {
		return nil, err
	}
	// One allocation for the generator and its frame, and for a small
	// frame its slots too (full: nothing appends to a frame's slots).
	var g *Generator
	var mem []object.Value
	if need <= len(smallGenerator{}.slots) {
		sg := &smallGenerator{}
		g, mem = &sg.Generator, sg.slots[:need:need]
	} else {
		g, mem = &Generator{}, make([]object.Value, need)
	}
	g.t = t
	if !sameString(fn.Name, code.Name) || !sameString(fn.QualName, code.QualName) {
		g.names = &genNames{fn.Name, fn.QualName}
	}
	g.frame = frame{code: code, fn: fn, globals: fn.Globals, locals: mem[:len(code.Varnames)], stack: mem[len(code.Varnames):]}
	if err := t.bindArgs(&g.frame, fn, args, kw); err != nil {
		return nil, err
	}
	if code.Coroutine {
		g.frame.gen.coro = true
		return &Coroutine{g}, nil
	}
	return g, nil
}

// release gives a slab frame back, leaving every slot nil for the next
// frame (a new frame's locals must read as unbound). Only mem[:top] (the
// locals and the occupied part of the value stack, below the stack pointer
// the frame ended with) and mem[need:] (the function and cells kept as
// roots after the stack) can hold values: the interpreter clears every
// stack slot it pops, so the rest of the value stack is nil already and
// is not written again. Plain stores beat clear's bulk write barrier on
// frames this small.
func (t *Thread) release(mem []object.Value, top, need int) {
	for i := 0; i < top; i++ {
		mem[i] = nil
	}
	for i := need; i < len(mem); i++ {
		mem[i] = nil
	}
	t.sp -= len(mem)
}

// setupCells makes the cells of a frame (CPython's MAKE_CELL and
// COPY_FREE_VARS, 3.11): a new cell for each variable of this code that
// an inner function captures, initialised from the argument of the same
// name when it is a parameter (CellArg), then the closure's cells for the
// free variables. The argument's local slot is cleared so the value has
// one home, the cell, as in CPython where the cell replaces the local.
func (t *Thread) setupCells(f *frame, fn *Function) {
	code := f.code
	ncell := len(code.Cellvars) + len(code.Freevars)
	if ncell == 0 {
		return
	}
	if len(code.Cellvars) == 0 && len(fn.Closure) == ncell {
		// Only free variables: the frame reads the function's own cells,
		// which it never replaces (LOAD_DEREF and STORE_DEREF use a
		// cell's value), so it can share the closure's slice.
		f.cells = fn.Closure[:ncell:ncell]
		return
	}
	f.cells = make([]*Cell, ncell)
	for i := range code.Cellvars {
		c := &Cell{}
		if a := code.CellArg[i]; a >= 0 {
			c.V = f.locals[a]
			f.locals[a] = nil
		}
		f.cells[i] = c
	}
	copy(f.cells[len(code.Cellvars):], fn.Closure)
}

// bindArgs implements Python's argument binding for positional, keyword,
// positional-only, keyword-only, *args and **kwargs parameters.
// It is CPython's initialize_locals (Python/ceval.c, 3.11) and keeps its
// order of checks, since the first failing one decides the message: too
// many positional arguments, then each keyword (unknown, positional-only
// given by name, given twice), then missing positionals, then missing
// keyword-only ones. Messages name the function by its __qualname__ as
// 3.10+ does. Binding charges nothing beyond the call's CostCall except
// the *args tuple and **kwargs dict it allocates.
func (t *Thread) bindArgs(f *frame, fn *Function, args []object.Value, kw []object.Kw) error {
	code := fn.Code
	locals := f.locals
	nargs := code.ArgCount
	if len(args) <= nargs && len(kw) == 0 && !code.VarArgs && !code.VarKw && code.KwOnlyCount == 0 && len(args)+len(fn.defaults()) >= nargs {
		// Fast path: positional only, defaults fill the rest.
		copy(locals, args)
		defaults := fn.defaults()
		for i := len(args); i < nargs; i++ {
			locals[i] = defaults[i-(nargs-len(defaults))]
		}
		t.setupCells(f, fn)
		return nil
	}
	name := fn.QualName // CPython 3.10+ names the function by its qualname
	if len(args) > nargs && !code.VarArgs {
		given := len(args)
		if nargs == 0 {
			return object.Errorf(object.TypeError, "%s() takes 0 positional arguments but %d %s given", name, given, wasWere(given))
		}
		minArgs := nargs - len(fn.defaults())
		if minArgs != nargs {
			return object.Errorf(object.TypeError, "%s() takes from %d to %d positional arguments but %d %s given", name, minArgs, nargs, given, wasWere(given))
		}
		return object.Errorf(object.TypeError, "%s() takes %d positional argument%s but %d %s given", name, nargs, plural(nargs), given, wasWere(given))
	}
	n := len(args)
	if n > nargs {
		n = nargs
	}
	copy(locals, args[:n])
	if code.VarArgs {
		rest := object.Tuple{}
		if len(args) > nargs {
			rest = append(object.Tuple(nil), args[nargs:]...)
		}
		locals[nargs+code.KwOnlyCount] = rest
	}
	var kwdict *object.Dict
	if code.VarKw {
		kwdict = object.NewDict()
		idx := nargs + code.KwOnlyCount
		if code.VarArgs {
			idx++
		}
		locals[idx] = kwdict
	}
	// Keywords match parameters from PosOnlyCount on: a positional-only
	// parameter's name given as a keyword goes into **kwargs when there is
	// one (PEP 570) and is an error otherwise.
	for _, k := range kw {
		found := -1
		for i := code.PosOnlyCount; i < nargs+code.KwOnlyCount; i++ {
			if code.Varnames[i] == k.Name {
				found = i
				break
			}
		}
		if found < 0 {
			if kwdict != nil {
				if err := kwdict.Set(t, object.Str(k.Name), k.Value); err != nil {
					return err
				}
				continue
			}
			for i := 0; i < code.PosOnlyCount; i++ {
				if code.Varnames[i] == k.Name {
					return object.Errorf(object.TypeError, "%s() got some positional-only arguments passed as keyword arguments: '%s'", name, k.Name)
				}
			}
			return object.Errorf(object.TypeError, "%s() got an unexpected keyword argument '%s'", name, k.Name)
		}
		if locals[found] != nil {
			return object.Errorf(object.TypeError, "%s() got multiple values for argument '%s'", name, k.Name)
		}
		locals[found] = k.Value
	}
	// Defaults for positionals.
	defaults := fn.defaults()
	firstDefault := nargs - len(defaults)
	var missing []string
	for i := 0; i < nargs; i++ {
		if locals[i] == nil {
			if i >= firstDefault {
				locals[i] = defaults[i-firstDefault]
			} else {
				missing = append(missing, code.Varnames[i])
			}
		}
	}
	if len(missing) > 0 {
		return missingArgs(name, "positional", missing)
	}
	for i := 0; i < code.KwOnlyCount; i++ {
		pi := nargs + i
		if locals[pi] == nil {
			pname := code.Varnames[pi]
			if kwd := fn.kwDefaults(); kwd != nil {
				if v, ok, _ := kwd.Get(t, object.Str(pname)); ok {
					locals[pi] = v
					continue
				}
			}
			missing = append(missing, pname)
		}
	}
	if len(missing) > 0 {
		return missingArgs(name, "keyword-only", missing)
	}
	t.setupCells(f, fn)
	return nil
}

// missingArgs is CPython's missing_arguments/format_missing: names quoted,
// joined with "and" for two and an Oxford comma for three or more.
func missingArgs(name, kind string, missing []string) error {
	quoted := make([]string, len(missing))
	for i, m := range missing {
		quoted[i] = "'" + m + "'"
	}
	var list string
	switch len(quoted) {
	case 1:
		list = quoted[0]
	case 2:
		list = quoted[0] + " and " + quoted[1]
	default:
		for i, q := range quoted[:len(quoted)-1] {
			if i > 0 {
				list += ", "
			}
			list += q
		}
		list += ", and " + quoted[len(quoted)-1]
	}
	return object.Errorf(object.TypeError, "%s() missing %d required %s argument%s: %s", name, len(missing), kind, plural(len(missing)), list)
}

// wasWere and plural make the grammar of CPython's binding messages.
func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// callPrepended calls fn with first and then args (a bound method's
// self, the instance for __init__, the class for __new__) through the
// argument stack instead of a new slice per call.
func (t *Thread) callPrepended(fn, first object.Value, args []object.Value, kw []object.Kw) (object.Value, error) {
	full := t.pushArgs(len(args) + 1)
	full[0] = first
	copy(full[1:], args)
	r, err := t.Call(fn, full, kw)
	t.popArgs(full)
	return r, err
}

// PushArgs implements object.ArgStacker (pushArgs).
func (t *Thread) PushArgs(n int) []object.Value { return t.pushArgs(n) }

// PopArgs implements object.ArgStacker (popArgs).
func (t *Thread) PopArgs(s []object.Value) { t.popArgs(s) }

// pushArgs returns n slots of the thread's argument stack, for the
// arguments of a call that prepends a value (a bound method's self).
// Callees never keep their args slice (the interpreter passes them a
// window of its value stack that it clears on return), so the slots are
// reused by the next call once popArgs gives them back; a nested call
// gets the slots above. The argument stack is not a root of the live-heap
// walk, as the slices it replaces were not: the values it holds are held
// by the caller too. Growing it leaves the slices handed out in the old
// array, still valid for their callers.
func (t *Thread) pushArgs(n int) []object.Value {
	if t.argTop+n > len(t.args) {
		t.args = make([]object.Value, max(2*len(t.args), 64, n))
		t.argTop = 0 // slices handed out in the old array pop into nothing
	}
	s := t.args[t.argTop : t.argTop+n : t.argTop+n]
	t.argTop += n
	return s
}

// popArgs clears and gives back the slots pushArgs returned last.
func (t *Thread) popArgs(s []object.Value) {
	clearSlots(s)
	if t.argTop >= len(s) && &t.args[t.argTop-len(s)] == &s[0] {
		t.argTop -= len(s)
	}
}
