package vm

import (
	"unsafe"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Generator is a suspended generator function frame.
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
func (g *Generator) Repr(object.Ctx) (string, error) {
	return "<generator object " + g.qualname() + ">", nil
}

// Truth implements object.Value.
func (*Generator) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (g *Generator) Hash(object.Ctx) (int64, error) { return int64(len(g.qualname())) * 0x47454e, nil }

// Next implements object.Iterator.
func (g *Generator) Next(c object.Ctx) (object.Value, bool, error) {
	return g.resume(object.None, nil)
}

// resume runs the generator until its next yield (ok true) or its return
// (ok false, v the return value). When throw is set, it is raised at the
// suspended yield instead of sending a value.
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
				if k, ok := args[0].(*object.Class); ok {
					r, err := g.t.Call(k, []object.Value{args[1]}, nil)
					if err != nil {
						return nil, err
					}
					exc = r.(*object.Instance)
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

func stopArgs(v object.Value) []object.Value {
	if v == nil || v == object.None {
		return nil
	}
	return []object.Value{v}
}
