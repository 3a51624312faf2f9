package vm

import (
	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Coroutines (PEP 492) as CIP-3 §2.2 allows them: single-threaded, with no
// event loop in the VM. Calling an async def makes a Coroutine, a
// suspended frame like a generator's; `await` drives another coroutine (or
// any object whose __await__ returns an iterator) with YIELD_FROM, so a
// bare yield at the bottom of an await chain reaches whoever called
// send(). The asyncio module (pvm/modules/py/asyncio.py) is such a caller:
// its run() sends until the coroutine returns, in one FIFO order.

// Coroutine is the object an async def call returns. It is not an
// iterator (for and next() refuse it, as CPython does); await, send, throw
// and close drive its frame.
// A Coroutine wraps the Generator that runs its frame rather than being
// one, so that the type switch in for loops, next() and yield from (which
// accept a *Generator) rejects it, as CPython's coroutine type has no
// tp_iternext; await gets the Generator through __await__ or awaitable.
type Coroutine struct {
	g *Generator
}

// Type implements object.Value.
func (*Coroutine) Type() *object.Class { return object.CoroutineClass }

// Repr implements object.Value (CPython adds the address, which the PVM
// never shows).
func (c *Coroutine) Repr(object.Ctx) (string, error) {
	return "<coroutine object " + c.g.qualname() + ">", nil
}

// Truth implements object.Value.
func (*Coroutine) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (c *Coroutine) Hash(object.Ctx) (int64, error) {
	return int64(len(c.g.qualname())) * 0x434f52, nil
}

// GetAttr implements object.AttrGetter: send, throw and close as a
// generator's, and __await__, which returns the iterator await drives.
// __next__ is hidden so that a coroutine is not an iterator even through
// attribute lookup; cr_running is gi_running under its coroutine name.
func (c *Coroutine) GetAttr(ctx object.Ctx, name string) (object.Value, bool, error) {
	switch name {
	case "__await__":
		return object.NewBuiltin("__await__", func(ctx object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			if err := object.ArgCount("__await__", args, 0, 0); err != nil {
				return nil, err
			}
			return c.g, nil
		}), true, nil
	case "__next__":
		return nil, false, nil
	case "cr_running":
		return object.MakeBool(c.g.frame.gen.running), true, nil
	}
	return c.g.GetAttr(ctx, name)
}

// awaitable is GET_AWAITABLE (CPython's _PyCoro_GetAwaitableIter): a
// coroutine gives its own frame; another object's __await__() must return
// an iterator that is not a coroutine.
// A plain generator is refused like any object without __await__
// (CPython accepts only generators flagged by types.coroutine, which the
// PVM does not have).
func (t *Thread) awaitable(v object.Value) (object.Value, error) {
	if c, ok := v.(*Coroutine); ok {
		if c.g.frame.gen.done {
			return nil, object.Errorf(object.RuntimeError, "cannot reuse already awaited coroutine")
		}
		return c.g, nil
	}
	tn := object.TypeName(v)
	m, err := t.lookupSpecial(v, "__await__")
	if err != nil {
		return nil, object.Errorf(object.TypeError, "object %s can't be used in 'await' expression", tn)
	}
	it, err := t.Call(m, nil, nil)
	if err != nil {
		return nil, err
	}
	switch it.(type) {
	case *Coroutine:
		return nil, object.Errorf(object.TypeError, "__await__() returned a coroutine")
	case *Generator:
		return it, nil
	}
	// An instance's __await__ may return any iterator, including an instance
	// whose class defines __next__ (the lookup below).
	if _, ok := it.(object.Iterator); ok {
		return it, nil
	}
	if _, err := t.lookupSpecial(it, "__next__"); err != nil {
		return nil, object.Errorf(object.TypeError, "__await__() returned non-iterator of type '%s'", object.TypeName(it))
	}
	return it, nil
}

// asyncSpecial calls type(v).name(v) for the async protocols (__aiter__,
// __anext__, __aenter__), with CPython's TypeError when v lacks it.
// The method is looked up on the type, not the instance (special method
// lookup), and called with no arguments: lookupSpecial returns it bound.
func (t *Thread) asyncSpecial(v object.Value, name, msg string) (object.Value, error) {
	m, err := t.lookupSpecial(v, name)
	if err != nil {
		return nil, object.Errorf(object.TypeError, msg, object.TypeName(v))
	}
	return t.Call(m, nil, nil)
}

// asyncOp executes the coroutine opcodes other than await's YIELD_FROM.
// It returns the new stack pointer.
// Each case is the CPython 3.11 opcode of the same name (ASYNC_WITH_* are
// the PVM's split of BEFORE_ASYNC_WITH and the with-exit calls); its base
// cost is in opCost, and the special methods it calls are charged as the
// calls they are.
func (t *Thread) asyncOp(f *frame, in compile.Instr, sp int) (int, error) {
	stack := f.stack
	switch in.Op {
	case compile.GET_AWAITABLE:
		it, err := t.awaitable(stack[sp-1])
		if err != nil {
			return sp, err
		}
		stack[sp-1] = it
	case compile.GET_AITER:
		it, err := t.asyncSpecial(stack[sp-1], "__aiter__", "'async for' requires an object with __aiter__ method, got %s")
		if err != nil {
			return sp, err
		}
		stack[sp-1] = it
	case compile.GET_ANEXT:
		aw, err := t.asyncSpecial(stack[sp-1], "__anext__", "'async for' received an object from __aiter__ that does not implement __anext__: %s")
		if err != nil {
			return sp, err
		}
		stack[sp] = aw
		sp++
	// END_ASYNC_FOR ends an async for when __anext__ raised
	// StopAsyncIteration; any other exception goes on unwinding.
	case compile.END_ASYNC_FOR:
		exc := stack[sp-1].(*object.Instance)
		if !exc.Class.IsSubclass(object.StopAsyncIteration) {
			return sp, object.Raise(exc)
		}
		sp--
		stack[sp] = nil
	// Both methods are looked up before __aenter__ is called, so a manager
	// without __aexit__ fails before entering. (CPython 3.11 adds "(missed
	// __aexit__ method)" to the message in that case.)
	case compile.ASYNC_WITH_ENTER:
		mgr := stack[sp-1]
		tn := object.TypeName(mgr)
		aexit, err := t.lookupSpecial(mgr, "__aexit__")
		if err != nil {
			return sp, object.Errorf(object.TypeError, "'%s' object does not support the asynchronous context manager protocol", tn)
		}
		aenter, err := t.lookupSpecial(mgr, "__aenter__")
		if err != nil {
			return sp, object.Errorf(object.TypeError, "'%s' object does not support the asynchronous context manager protocol", tn)
		}
		r, err := t.Call(aenter, nil, nil)
		if err != nil {
			return sp, err
		}
		stack[sp-1] = aexit
		stack[sp] = r
		sp++
	case compile.ASYNC_WITH_SETUP:
		f.blocks = append(f.blocks, block{kind: blockFinally, handler: int32(in.Arg), level: int32(sp - 1)})
	case compile.ASYNC_WITH_EXIT:
		r, err := t.Call(stack[sp-1], []object.Value{object.None, object.None, object.None}, nil)
		if err != nil {
			return sp, err
		}
		stack[sp-1] = r
	// __aexit__(type, value, None): as for a plain with, the traceback
	// argument is None in the PVM.
	case compile.ASYNC_WITH_EXCEPT:
		exc := stack[sp-1].(*object.Instance)
		r, err := t.Call(stack[sp-2], []object.Value{exc.Class, exc, object.None}, nil)
		if err != nil {
			return sp, err
		}
		stack[sp] = r
		sp++
	}
	return sp, nil
}
