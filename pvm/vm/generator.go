package vm

import (
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Generator is a suspended generator function frame.
// It is CPython's PyGenObject: the frame lives inside the generator (as
// 3.11's gi_iframe does) and survives between resumptions, which is why a
// generator's frame is never in the thread's slab. The frame's locals and
// stack are reached by the live-heap walk through the generator itself,
// so a suspended generator's values count as live while it is reachable
// and stop counting when it is dropped.
type Generator struct {
	t *Thread
	// names holds the function's __name__ and __qualname__ when they were
	// not its code's at the generator's creation (a renamed function);
	// nil otherwise, so most generators carry one pointer, not two
	// strings.
	names *genNames
	frame frame // the generator's frame, allocated with it; its state is frame.gen
}

// genNames is the __name__ and __qualname__ a generator keeps from a
// renamed function: CPython takes them from the function when it makes
// the generator, so renaming the function later leaves them.
type genNames struct{ name, qualname string }

// genState is the state of a generator's frame (the zero value in every
// other frame). It lives in frame, in the padding after the frame's own
// flags, so a Generator and its small frame stay one 288-byte allocation.
// The flags are CPython's gi_frame_state reduced to what can be observed:
// started (a send of a non-None value is refused before the first yield),
// running (reentrancy: "generator already executing"), done (exhausted or
// closed: a coroutine refuses to be awaited again, a generator just stops).
type genState struct {
	started bool
	running bool
	done    bool
	coro    bool // the frame of a Coroutine (async def)
}

// sameString reports whether a and b are the same string in memory: a
// function's names are its code's strings unless it was renamed, and the
// test costs two comparisons instead of a call to compare the bytes. Equal
// strings elsewhere in memory read as different, which only costs a
// genNames.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// name is the generator's __name__.
func (g *Generator) name() string {
	if g.names != nil {
		return g.names.name
	}
	return g.frame.code.Name
}

// qualname is the generator's __qualname__.
func (g *Generator) qualname() string {
	if g.names != nil {
		return g.names.qualname
	}
	return g.frame.code.QualName
}

// smallGenerator is a Generator allocated together with the slots (locals
// and value stack) of a small frame: one Go allocation instead of two.
// The meter charges the frame as before (makeGenerator). Seven slots
// hold a generator expression's frame (its iterator, its variable and a
// stack of up to five) and keep the whole in Go's 288-byte size class
// (TestSmallGeneratorSize).
type smallGenerator struct {
	Generator
	slots [7]object.Value
}

// Type implements object.Value.
func (*Generator) Type() *object.Class { return object.GeneratorClass }

// Repr implements object.Value.
// CPython's repr adds " at 0x..."; the PVM leaves the address out, since
// it would differ between nodes.
func (g *Generator) Repr(object.Ctx) (string, error) {
	return "<generator object " + g.qualname() + ">", nil
}

// Truth implements object.Value.
func (*Generator) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
// Like every PVM object without a value-based hash, a generator hashes by
// something the same on every node (here its qualname's length) instead of
// its address; identity, not the hash, is what makes two generators
// different keys.
func (g *Generator) Hash(object.Ctx) (int64, error) { return int64(len(g.qualname())) * 0x47454e, nil }

// Next implements object.Iterator.
func (g *Generator) Next(c object.Ctx) (object.Value, bool, error) {
	return g.resume(object.None, nil)
}

// resume runs the generator until its next yield (ok true) or its return
// (ok false, v the return value). When throw is set, it is raised at the
// suspended yield instead of sending a value.
// It is gen_send_ex2 (Objects/genobject.c). A resumption enters the
// meter's depth count like a call, so generators nested through next()
// calls hit RecursionError at the same depth as the equivalent calls. A
// StopIteration escaping the body becomes RuntimeError (PEP 479, always on
// since 3.7); any exception ends the generator for good. The value sent
// is pushed as the result of the YIELD_VALUE the frame is suspended at;
// the first resumption has no such instruction to receive it.
func (g *Generator) resume(sent object.Value, throw *object.Instance) (object.Value, bool, error) {
	t := g.t
	if g.frame.gen.running {
		return nil, false, object.Errorf(object.ValueError, "generator already executing")
	}
	if g.frame.gen.done {
		if g.frame.gen.coro {
			return nil, false, object.Errorf(object.RuntimeError, "cannot reuse already awaited coroutine")
		}
		if throw != nil {
			return nil, false, object.Raise(throw)
		}
		return nil, false, nil
	}
	f := &g.frame
	if !g.frame.gen.started {
		if !object.IsNone(sent) && throw == nil {
			return nil, false, object.Errorf(object.TypeError, "can't send non-None value to a just-started generator")
		}
		g.frame.gen.started = true
	} else if throw == nil {
		f.stack[f.sp] = sent
		f.sp++
	}
	if err := t.meter.Enter(); err != nil {
		return nil, false, object.Errorf(object.RecursionError, "maximum recursion depth exceeded")
	}
	g.frame.gen.running = true
	var v object.Value
	var err error
	if throw != nil {
		v, err = t.throwInto(f, throw)
	} else {
		v, err = t.run(f)
	}
	g.frame.gen.running = false
	t.meter.Leave()
	if err != nil {
		g.frame.gen.done = true
		if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.StopIteration) {
			if g.frame.gen.coro {
				return nil, false, object.Errorf(object.RuntimeError, "coroutine raised StopIteration")
			}
			return nil, false, object.Errorf(object.RuntimeError, "generator raised StopIteration")
		}
		return nil, false, err
	}
	if f.yielded {
		return v, true, nil
	}
	g.frame.gen.done = true
	return v, false, nil
}

// throwInto raises exc inside f at its suspension point: the frame's own
// handlers get the chance to catch it.
// It is _gen_throw: a frame suspended in yield from passes the exception
// on to the subiterator first (throwDelegate); otherwise the exception
// is raised at the suspension point as if the yield itself had raised it,
// so the frame's try blocks and with statements handle it. A generator
// that has not started yet has no handler active at pc 0, so the
// exception leaves it at once, as in CPython.
func (t *Thread) throwInto(f *frame, exc *object.Instance) (object.Value, error) {
	if f.pc < len(f.code.Instrs) && f.code.Instrs[f.pc].Op == compile.YIELD_FROM {
		return t.throwDelegate(f, exc)
	}
	// Re-enter run with a pending error by executing a RERAISE of exc.
	f.stack[f.sp] = exc
	f.sp++
	return t.runThrow(f)
}

// throwDelegate is throwInto for a frame suspended in `yield from` (PEP
// 380): GeneratorExit closes the subiterator and is then raised here; any
// other exception goes to the subiterator's throw, whose next value is
// yielded outward, whose return value becomes the value of the `yield
// from`, and whose exception is raised here.
func (t *Thread) throwDelegate(f *frame, exc *object.Instance) (object.Value, error) {
	// raiseHere pops the subiterator and raises err at the instruction after
	// YIELD_FROM, the same unwinding a failed next() of the subiterator gets.
	sub := f.stack[f.sp-1]
	raiseHere := func(err error) (object.Value, error) {
		f.sp--
		f.stack[f.sp] = nil
		f.pc++
		if err := t.unwind(f, err); err != nil {
			return nil, err
		}
		return t.run(f)
	}
	var v object.Value
	var ok bool
	var err error
	if exc.Class.IsSubclass(object.GeneratorExit) {
		if closeFn, e := object.GetAttr(t, sub, "close"); e == nil {
			if _, e := t.Call(closeFn, nil, nil); e != nil {
				return raiseHere(e)
			}
		}
		return raiseHere(object.Raise(exc))
	}
	// A PVM generator is thrown into directly; anything else through its
	// throw attribute, and a subiterator without one gets the exception
	// raised at the delegating frame (CPython's _gen_throw does the same).
	if g, isGen := sub.(*Generator); isGen {
		v, ok, err = g.resume(object.None, exc)
	} else {
		throwFn, e := object.GetAttr(t, sub, "throw")
		if e != nil {
			return raiseHere(object.Raise(exc))
		}
		v, err = t.Call(throwFn, []object.Value{exc}, nil)
		ok = true
		if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.StopIteration) {
			v, ok, err = stopValue(e.Value), false, nil
		}
	}
	if err != nil {
		return raiseHere(err)
	}
	if ok {
		f.yielded = true
		return v, nil
	}
	f.stack[f.sp-1] = v
	f.pc++
	return t.run(f)
}

// GetAttr implements object.AttrGetter: send, throw and close.
// Each lookup makes a new bound builtin, as CPython makes a new bound
// method object on each attribute access; only the names below exist (no
// gi_frame, gi_code or gi_running: frames are not objects in the PVM).
func (g *Generator) GetAttr(c object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "send", "__next__":
		return object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			sent := object.None
			if name == "send" {
				if err := object.ArgCount("send", args, 1, 1); err != nil {
					return nil, err
				}
				sent = args[0]
			} else if err := object.ArgCount("__next__", args, 0, 0); err != nil {
				return nil, err
			}
			v, ok, err := g.resume(sent, nil)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, object.Raise(object.NewException(object.StopIteration, stopArgs(v)...))
			}
			return v, nil
		}), true, nil
	// throw(exc) or the deprecated throw(type, value): the exception is made
	// (or validated) by makeException, as a raise statement would make it.
	case "throw":
		return object.NewBuiltin("throw", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if err := object.ArgCount("throw", args, 1, 3); err != nil {
				return nil, err
			}
			exc, err := g.t.makeException(args[0])
			if err != nil {
				return nil, err
			}
			if len(args) > 1 && args[1] != object.None {
				// A value with a class is normalized as CPython does: an
				// instance of the class is used as it is, a tuple is the
				// arguments, anything else the one argument.
				k, ok := args[0].(*object.Class)
				if !ok {
					return nil, object.Errorf(object.TypeError, "instance exception may not have a separate value")
				}
				if in, isInst := args[1].(*object.Instance); isInst && in.Class.IsSubclass(k) {
					exc = in
				} else {
					callArgs := []object.Value{args[1]}
					if tup, isTuple := args[1].(object.Tuple); isTuple {
						callArgs = tup
					}
					r, err := g.t.Call(k, callArgs, nil)
					if err != nil {
						return nil, err
					}
					in, isInst := r.(*object.Instance)
					if !isInst {
						return nil, object.Errorf(object.TypeError, "exceptions must derive from BaseException")
					}
					exc = in
				}
			}
			v, ok, err := g.resume(object.None, exc)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, object.Raise(object.NewException(object.StopIteration, stopArgs(v)...))
			}
			return v, nil
		}), true, nil
	// close is gen_close: GeneratorExit is raised at the yield; the
	// generator may clean up (finally, with) and must then end, either by
	// letting GeneratorExit (or StopIteration) out or by returning. Yielding
	// again is the RuntimeError "generator ignored GeneratorExit". A
	// generator that never started or already ended is just marked done.
	case "close":
		return object.NewBuiltin("close", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if !g.frame.gen.started || g.frame.gen.done {
				g.frame.gen.done = true
				return object.None, nil
			}
			_, ok, err := g.resume(object.None, object.NewException(object.GeneratorExit))
			if err != nil {
				if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.GeneratorExit) {
					return object.None, nil
				}
				return nil, err
			}
			if ok {
				return nil, object.Errorf(object.RuntimeError, "generator ignored GeneratorExit")
			}
			return object.None, nil
		}), true, nil
	case "__name__":
		return object.Str(g.name()), true, nil
	case "__qualname__":
		return object.Str(g.qualname()), true, nil
	}
	return nil, false, nil
}

// stopArgs is the args of the StopIteration that ends a generator with
// return value v: a bare return (None) gives StopIteration() with no
// arguments, as CPython's _PyGen_SetStopIterationValue does.
func stopArgs(v object.Value) []object.Value {
	if v == nil || v == object.None {
		return nil
	}
	return []object.Value{v}
}
