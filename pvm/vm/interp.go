package vm

import (
	"errors"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

type blockKind uint8

const (
	blockExcept  blockKind = iota + 1 // try ... except
	blockFinally                      // try ... finally, and with
	blockHandler                      // inside an except/finally handler
)

type block struct {
	kind    blockKind
	handler int32
	level   int32 // value stack height to restore
	handled int32 // len(Thread.handled) to restore when the handler ends
}

// frame is the state of one running code object.
type frame struct {
	code    *compile.Code
	fn      *Function
	globals *object.StrDict
	ns      *object.StrDict // class body namespace
	locals  []object.Value
	cells   []*Cell
	stack   []object.Value
	sp      int
	pc      int
	blocks  []block
	id      int64
	yielded bool
	stale   bool     // a value may be left above sp (UNPACK_SEQUENCE of 0 items)
	gen     genState // a generator's state (generator.go)
}

func (f *frame) line() int {
	pc := f.pc - 1
	if pc < 0 {
		pc = 0
	}
	if pc >= len(f.code.Lines) {
		return f.code.FirstLine
	}
	return int(f.code.Lines[pc])
}

func asException(err error) *object.Exception {
	if e, ok := err.(*object.Exception); ok {
		return e
	}
	var e *object.Exception
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// addTraceback records that exc passed through f (once per frame
// activation).
func (t *Thread) addTraceback(f *frame, exc *object.Instance) {
	if exc.Exc == nil {
		return
	}
	tb := exc.Exc.Traceback
	if n := len(tb); n > 0 && tb[n-1].Frame == f.id {
		return
	}
	exc.Exc.Traceback = append(tb, object.TraceEntry{File: f.code.Filename, Line: f.line(), Func: f.code.Name, Frame: f.id})
}

// setContext links exc to the exception being handled, as Python does
// implicitly when an exception is raised inside an except block.
func (t *Thread) setContext(exc *object.Instance) {
	if len(t.handled) == 0 || exc.Exc == nil || exc.Exc.Context != nil {
		return
	}
	top := t.handled[len(t.handled)-1]
	if top == exc {
		return
	}
	// Avoid a cycle in the chain.
	for c, i := top, 0; c != nil && i < 100; i++ {
		if c == exc {
			return
		}
		next, _ := c.Exc.Context.(*object.Instance)
		c = next
	}
	exc.Exc.Context = top
}

// run executes f until it returns, yields (generators) or raises.
func (t *Thread) run(f *frame) (object.Value, error) {
	// The frame is a root of the live-heap walk while it runs (heap.go).
	// The slot it leaves above len(t.frames) is not cleared: the walk
	// reads only up to len, the next run at this depth overwrites it, and
	// Release drops the whole slice; until then it keeps one frame per
	// depth reachable in Go, and every resumption of a generator saves a
	// store (with a write barrier while the collector marks).
	t.frames = append(t.frames, f)
	r, err := t.exec(f)
	t.frames = t.frames[:len(t.frames)-1]
	return r, err
}

// exec is the interpreter loop: it runs f from f.pc until it returns,
// yields or raises. Each instruction is charged its base cycles from
// opCost first; the switch is then a table of opcodes: the short, hot
// ones inline, the others a call to a helper named for what it does
// (interp_ops.go), which returns the new stack pointer and the error.
func (t *Thread) exec(f *frame) (object.Value, error) {
	t.frameSeq++
	if f.id == 0 {
		f.id = t.frameSeq
	}
	code := f.code
	instrs := code.Instrs
	names := code.Names
	stack := f.stack
	sp := f.sp
	pc := f.pc
	m := t.meter
	for {
		var err error
		in := instrs[pc]
		if cost := opCost[in.Op]; cost <= m.Left {
			m.Left -= cost
		} else {
			f.pc, f.sp = pc+1, sp
			return nil, m.Charge(cost)
		}
		pc++
		switch in.Op {
		case compile.NOP:
		case compile.POP_TOP:
			sp--
			stack[sp] = nil
			continue
		case compile.ROT_TWO:
			stack[sp-1], stack[sp-2] = stack[sp-2], stack[sp-1]
			continue
		case compile.ROT_THREE:
			a, b, c := stack[sp-3], stack[sp-2], stack[sp-1]
			stack[sp-3], stack[sp-2], stack[sp-1] = c, a, b
			continue
		case compile.ROT_FOUR:
			a, b, c, d := stack[sp-4], stack[sp-3], stack[sp-2], stack[sp-1]
			stack[sp-4], stack[sp-3], stack[sp-2], stack[sp-1] = d, a, b, c
			continue
		case compile.ROT_N:
			n := int(in.Arg)
			x := stack[sp-1]
			copy(stack[sp-n+1:sp], stack[sp-n:sp-1])
			stack[sp-n] = x
		case compile.DUP_TOP:
			stack[sp] = stack[sp-1]
			sp++
			continue
		case compile.DUP_TOP_TWO:
			stack[sp] = stack[sp-2]
			stack[sp+1] = stack[sp-1]
			sp += 2
			continue
		case compile.LOAD_CONST:
			stack[sp] = code.Consts[in.Arg]
			sp++
			continue
		case compile.LOAD_FAST:
			v := f.locals[in.Arg]
			if v == nil {
				err = object.Errorf(object.UnboundLocalError, "cannot access local variable '%s' where it is not associated with a value", code.Varnames[in.Arg])
				break
			}
			stack[sp] = v
			sp++
			continue
		case compile.STORE_FAST:
			sp--
			f.locals[in.Arg] = stack[sp]
			stack[sp] = nil
			continue
		case compile.DELETE_FAST:
			if f.locals[in.Arg] == nil {
				err = object.Errorf(object.UnboundLocalError, "cannot access local variable '%s' where it is not associated with a value", code.Varnames[in.Arg])
				break
			}
			f.locals[in.Arg] = nil
		case compile.LOAD_DEREF:
			v := f.cells[in.Arg].V
			if v == nil {
				err = t.unboundCell(f, int(in.Arg))
				break
			}
			stack[sp] = v
			sp++
			continue
		case compile.STORE_DEREF:
			sp--
			f.cells[in.Arg].V = stack[sp]
			stack[sp] = nil
			continue
		case compile.DELETE_DEREF:
			if f.cells[in.Arg].V == nil {
				err = t.unboundCell(f, int(in.Arg))
				break
			}
			f.cells[in.Arg].V = nil
		case compile.LOAD_CLOSURE:
			stack[sp] = f.cells[in.Arg]
			sp++
			continue
		case compile.LOAD_GLOBAL:
			if gc := f.fn.gcache; gc != nil {
				if s := gc[in.Arg]; s.layout == f.globals.Layout() && s.layout != 0 {
					if s.builtin {
						stack[sp] = t.builtins.At(int(s.idx))
					} else {
						stack[sp] = f.globals.At(int(s.idx))
					}
					sp++
					continue
				}
			}
			v, e := t.loadGlobal(f, int(in.Arg))
			if e != nil {
				err = e
				break
			}
			stack[sp] = v
			sp++
			continue
		case compile.STORE_GLOBAL:
			sp--
			t.storeGlobal(f, in.Arg, stack[sp])
			stack[sp] = nil
		case compile.DELETE_GLOBAL:
			if !f.globals.Delete(names[in.Arg]) {
				err = object.Errorf(object.NameError, "name '%s' is not defined", names[in.Arg])
			}
		case compile.LOAD_NAME:
			sp, err = t.loadName(f, stack, sp, names[in.Arg])
		case compile.STORE_NAME:
			sp--
			f.ns.Set(names[in.Arg], stack[sp])
			stack[sp] = nil
		case compile.DELETE_NAME:
			if !f.ns.Delete(names[in.Arg]) {
				err = object.Errorf(object.NameError, "name '%s' is not defined", names[in.Arg])
			}
		case compile.LOAD_ATTR:
			if o, ok := stack[sp-1].(*object.Instance); ok {
				if v, ok := f.fn.site(siteLoad, in.Arg).loadAttr(o, names[in.Arg]); ok {
					stack[sp-1] = v
					continue
				}
			}
			v, e := t.getAttr(f, siteClassLoad, in.Arg, stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = v
			continue
		case compile.STORE_ATTR:
			if o, ok := stack[sp-1].(*object.Instance); !ok || !f.fn.site(siteStore, in.Arg).storeAttr(t, o, names[in.Arg], stack[sp-2]) {
				err = object.SetAttr(t, stack[sp-1], names[in.Arg], stack[sp-2])
			}
			sp -= 2
			stack[sp], stack[sp+1] = nil, nil
		case compile.DELETE_ATTR:
			sp--
			err = object.DelAttr(t, stack[sp], names[in.Arg])
			stack[sp] = nil
		case compile.LOAD_METHOD:
			obj := stack[sp-1]
			name := names[in.Arg]
			var meth object.Value
			switch o := obj.(type) {
			case *object.Instance:
				meth = f.fn.site(siteMethod, in.Arg).instanceMethod(o, name)
			case *object.Class, *Module, *object.Super, *Function, *object.BoundMethod:
			default:
				meth = f.fn.site(siteMethod, in.Arg).builtinMethod(obj.Type(), name)
			}
			if meth != nil {
				stack[sp-1] = meth
				stack[sp] = obj
				sp++
				continue
			}
			v, e := t.getAttr(f, siteClassMethod, in.Arg, obj)
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = nil
			stack[sp] = v
			sp++
			continue
		case compile.CALL_METHOD:
			n := int(in.Arg)
			base := sp - n - 2
			var r object.Value
			if fn, ok := stack[base].(*Function); ok {
				f.pc, f.sp = pc, sp
				r, err = t.callFunction(fn, stack[base+1:sp], nil)
			} else if stack[base] != nil {
				f.pc, f.sp = pc, sp
				r, err = t.Call(stack[base], stack[base+1:sp], nil)
			} else {
				f.pc, f.sp = pc, sp
				r, err = t.Call(stack[base+1], stack[base+2:sp], nil)
			}
			clearSlots(stack[base:sp])
			sp = base
			if err != nil {
				break
			}
			stack[sp] = r
			sp++
			continue
		case compile.BINARY_OP:
			x, y := stack[sp-2], stack[sp-1]
			var r object.Value
			if a, ok := x.(object.Int); ok {
				if b, ok := y.(object.Int); ok {
					switch op := object.Op(in.Arg); op {
					case object.OpAdd:
						if s := a + b; (s > a) == (b > 0) {
							r = object.MakeInt(int64(s))
						}
					case object.OpSub:
						if s := a - b; (s < a) == (b > 0) {
							r = object.MakeInt(int64(s))
						}
					default:
						r, _ = object.IntBinary(op, a, b)
					}
				} else if b, ok := y.(object.Float); ok {
					r = t.floatArith(object.Op(in.Arg), softfloat.FromInt64(int64(a)), sfloat(b), y, code, pc)
				}
			} else if a, ok := x.(object.Float); ok {
				if b, ok := y.(object.Float); ok {
					r = t.floatArith(object.Op(in.Arg), sfloat(a), sfloat(b), y, code, pc)
				} else if b, ok := y.(object.Int); ok {
					r = t.floatArith(object.Op(in.Arg), sfloat(a), softfloat.FromInt64(int64(b)), nil, nil, 0)
				}
			}
			if r == nil {
				r, err = object.Binary(t, object.Op(in.Arg), x, y)
				t.fbox.Forget()
				if err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = r
			continue
		case compile.INPLACE_OP:
			// On two ints, Inplace is Binary.
			var r object.Value
			if a, ok := stack[sp-2].(object.Int); ok {
				if b, ok := stack[sp-1].(object.Int); ok {
					r, _ = object.IntBinary(object.Op(in.Arg), a, b)
				} else if b, ok := stack[sp-1].(object.Float); ok {
					// Ints and floats have no in-place operators:
					// Inplace is Binary.
					r = t.floatArith(object.Op(in.Arg), softfloat.FromInt64(int64(a)), sfloat(b), stack[sp-1], code, pc)
				}
			} else if a, ok := stack[sp-2].(object.Float); ok {
				if b, ok := stack[sp-1].(object.Float); ok {
					r = t.floatArith(object.Op(in.Arg), sfloat(a), sfloat(b), stack[sp-1], code, pc)
				} else if b, ok := stack[sp-1].(object.Int); ok {
					r = t.floatArith(object.Op(in.Arg), sfloat(a), softfloat.FromInt64(int64(b)), nil, nil, 0)
				}
			}
			if r == nil {
				r, err = object.Inplace(t, object.Op(in.Arg), stack[sp-2], stack[sp-1])
				t.fbox.Forget()
				if err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = r
			continue
		case compile.UNARY_OP:
			r, e := t.unary(object.Op(in.Arg), stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = r
		case compile.UNARY_NOT:
			b, e := object.Truth(t, stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = object.MakeBool(!b)
			continue
		case compile.COMPARE_OP:
			x, y := stack[sp-2], stack[sp-1]
			var r object.Value
			if a, ok := x.(object.Int); ok {
				if b, ok := y.(object.Int); ok {
					switch object.Op(in.Arg) {
					case object.OpLt:
						r = object.MakeBool(a < b)
					case object.OpLe:
						r = object.MakeBool(a <= b)
					case object.OpEq:
						r = object.MakeBool(a == b)
					case object.OpNe:
						r = object.MakeBool(a != b)
					case object.OpGt:
						r = object.MakeBool(a > b)
					case object.OpGe:
						r = object.MakeBool(a >= b)
					}
				}
			}
			if r == nil {
				r, err = object.Compare(t, object.Op(in.Arg), x, y)
				if err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = r
			continue
		case compile.IS_OP:
			x, y := stack[sp-2], stack[sp-1]
			var r bool
			if object.IsNone(y) {
				// `x is None` is always allowed, and is IsNone(x).
				r = object.IsNone(x)
			} else {
				if e := checkIdentity(x, y); e != nil {
					err = e
					break
				}
				r = object.Identical(x, y)
			}
			if in.Arg == 1 {
				r = !r
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = object.MakeBool(r)
			continue
		case compile.CONTAINS_OP:
			r, e := object.Contains(t, stack[sp-1], stack[sp-2])
			if e != nil {
				err = e
				break
			}
			if in.Arg == 1 {
				r = !r
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = object.MakeBool(r)
		case compile.BINARY_SUBSCR:
			x, k := stack[sp-2], stack[sp-1]
			var r object.Value
			if l, ok := x.(*object.List); ok {
				if i, ok := k.(object.Int); ok {
					if i < 0 {
						i += object.Int(len(l.Elems))
					}
					if i >= 0 && int(i) < len(l.Elems) {
						r = l.Elems[i]
					}
				}
			} else if tp, ok := x.(object.Tuple); ok {
				if i, ok := k.(object.Int); ok {
					if i < 0 {
						i += object.Int(len(tp))
					}
					if i >= 0 && int(i) < len(tp) {
						r = tp[i]
					}
				}
			}
			if r == nil {
				if r, err = t.getItem(code, pc, x, k); err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			stack[sp-1] = r
			continue
		case compile.STORE_SUBSCR:
			if v := stack[sp-3]; v == t.tmpVal && v != nil {
				err = t.storeSliceTemp(stack[sp-2], stack[sp-1])
			} else if !t.storeListItem(stack[sp-2], stack[sp-1], v) {
				err = object.SetItem(t, stack[sp-2], stack[sp-1], v)
			}
			sp -= 3
			stack[sp], stack[sp+1], stack[sp+2] = nil, nil, nil
		case compile.DELETE_SUBSCR:
			err = object.DelItem(t, stack[sp-2], stack[sp-1])
			sp -= 2
			stack[sp], stack[sp+1] = nil, nil
		case compile.BUILD_SLICE:
			sp = t.buildSlice(stack, sp, int(in.Arg), instrs[pc].Op)
		case compile.BUILD_TUPLE:
			n := int(in.Arg)
			if err = object.AllocSlots(t, meter.SizeTupleHeader, uint64(n), meter.SizePointer); err != nil {
				break
			}
			tup := make(object.Tuple, n)
			copy(tup, stack[sp-n:sp])
			clearSlots(stack[sp-n : sp])
			sp -= n
			stack[sp] = tup
			sp++
		case compile.BUILD_LIST:
			n := int(in.Arg)
			elems := make([]object.Value, n)
			copy(elems, stack[sp-n:sp])
			l, e := object.NewList(t, elems)
			if e != nil {
				err = e
				break
			}
			clearSlots(stack[sp-n : sp])
			sp -= n
			stack[sp] = l
			sp++
		case compile.BUILD_SET:
			sp, err = t.buildSet(stack, sp, int(in.Arg))
		case compile.BUILD_MAP:
			sp, err = t.buildMap(stack, sp, int(in.Arg))
		case compile.BUILD_STRING:
			sp, err = t.buildString(stack, sp, int(in.Arg))
		case compile.LIST_APPEND:
			sp--
			err = stack[sp-int(in.Arg)].(*object.List).Append(t, stack[sp])
			stack[sp] = nil
		case compile.SET_ADD:
			sp--
			err = stack[sp-int(in.Arg)].(*object.Set).Add(t, stack[sp])
			stack[sp] = nil
		case compile.MAP_ADD:
			sp -= 2
			if in.Arg&compile.CallArgs != 0 {
				err = t.mapAddKeyword(stack, sp)
			} else {
				err = stack[sp-int(in.Arg)].(*object.Dict).Set(t, stack[sp], stack[sp+1])
			}
			stack[sp], stack[sp+1] = nil, nil
		case compile.LIST_EXTEND:
			sp, err = t.listExtend(stack, sp, in.Arg)
		case compile.SET_UPDATE:
			sp, err = t.setUpdate(stack, sp, int(in.Arg))
		case compile.DICT_UPDATE:
			sp, err = t.dictUpdate(stack, sp, int(in.Arg), false)
		case compile.DICT_MERGE:
			sp, err = t.dictUpdate(stack, sp, int(in.Arg), true)
		case compile.LIST_TO_TUPLE:
			stack[sp-1] = object.Tuple(stack[sp-1].(*object.List).Elems)
		case compile.UNPACK_SEQUENCE:
			n := int(in.Arg)
			// A tuple or a list of the right length (the commonest
			// operands) is unpack's first or second case, read here
			// without the call.
			var items []object.Value
			var isSeq bool
			switch s := stack[sp-1].(type) {
			case object.Tuple:
				items, isSeq = s, true
			case *object.List:
				items, isSeq = s.Elems, true
			}
			if !isSeq || len(items) != n {
				var e error
				if items, e = t.unpack(stack[sp-1], n, -1); e != nil {
					err = e
					break
				}
			}
			sp--
			if n == 0 {
				// The operand stays in its slot above sp, where the
				// live-heap walk has always counted it; it is kept (so
				// no charge changes) and the frame's release clears it.
				f.stale = true
			}
			for i := n - 1; i >= 0; i-- {
				stack[sp] = items[i]
				sp++
			}
			continue
		case compile.UNPACK_EX:
			sp, err = t.unpackEx(stack, sp, in.Arg)
		case compile.JUMP:
			pc = int(in.Arg)
			continue
		case compile.POP_JUMP_IF_FALSE:
			b, isBool := stack[sp-1].(object.Bool)
			if !isBool {
				if b, err = truthOf(t, stack[sp-1]); err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			if !b {
				pc = int(in.Arg)
			}
			continue
		case compile.POP_JUMP_IF_TRUE:
			b, isBool := stack[sp-1].(object.Bool)
			if !isBool {
				if b, err = truthOf(t, stack[sp-1]); err != nil {
					break
				}
			}
			sp--
			stack[sp] = nil
			if b {
				pc = int(in.Arg)
			}
			continue
		case compile.JUMP_IF_FALSE_OR_POP:
			b, isBool := stack[sp-1].(object.Bool)
			if !isBool {
				if b, err = truthOf(t, stack[sp-1]); err != nil {
					break
				}
			}
			if !b {
				pc = int(in.Arg)
			} else {
				sp--
				stack[sp] = nil
			}
			continue
		case compile.JUMP_IF_TRUE_OR_POP:
			b, isBool := stack[sp-1].(object.Bool)
			if !isBool {
				if b, err = truthOf(t, stack[sp-1]); err != nil {
					break
				}
			}
			if b {
				pc = int(in.Arg)
			} else {
				sp--
				stack[sp] = nil
			}
			continue
		case compile.GET_ITER:
			it, e := object.Iter(t, stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = it
			continue
		case compile.FOR_ITER:
			f.pc, f.sp = pc, sp
			var v object.Value
			var ok bool
			var e error
			if g, isGen := stack[sp-1].(*Generator); isGen {
				v, ok, e = g.resume(object.None, nil) // Generator.Next, without the dispatch
			} else if gi, isGo := stack[sp-1].(*goIter); isGo && gi.pair != nil {
				var unpacked bool
				if v, ok, unpacked, e = t.nextPair(gi, stack, sp, instrs[pc]); unpacked {
					sp += 2
					pc++
					continue
				}
			} else if v, ok = object.NextInList(stack[sp-1]); !ok {
				v, ok, e = object.Next(t, stack[sp-1])
			}
			if e != nil {
				err = e
				break
			}
			if !ok {
				sp--
				stack[sp] = nil
				pc = int(in.Arg)
				continue
			}
			stack[sp] = v
			sp++
			continue
		case compile.CALL:
			n := int(in.Arg)
			base := sp - n - 1
			f.pc, f.sp = pc, sp
			var r object.Value
			var e error
			if fn, ok := stack[base].(*Function); ok {
				r, e = t.callFunction(fn, stack[base+1:sp], nil)
			} else {
				r, e = t.Call(stack[base], stack[base+1:sp], nil)
			}
			clearSlots(stack[base:sp])
			sp = base
			if e != nil {
				err = e
				break
			}
			stack[sp] = r
			sp++
			continue
		case compile.CALL_KW:
			sp, err = t.callKw(f, stack, sp, pc, int(in.Arg))
		case compile.CALL_EX:
			sp, err = t.callEx(f, stack, sp, pc, in.Arg)
		case compile.MAKE_FUNCTION:
			sp, err = t.makeFunction(f, stack, sp, in.Arg)
		case compile.BUILD_CLASS:
			sp, err = t.buildClassOp(f, stack, sp, pc, int(in.Arg), false)
		case compile.BUILD_CLASS_KW:
			sp, err = t.buildClassOp(f, stack, sp, pc, int(in.Arg), true)
		case compile.RETURN_VALUE:
			sp--
			r := stack[sp]
			stack[sp] = nil
			f.pc, f.sp = pc, sp
			f.yielded = false
			return r, nil
		case compile.YIELD_VALUE:
			sp--
			r := stack[sp]
			stack[sp] = nil
			f.pc, f.sp = pc, sp
			f.yielded = true
			return r, nil
		case compile.GET_YIELD_FROM_ITER:
			err = t.getYieldFromIter(stack, sp)
		case compile.YIELD_FROM:
			sent := stack[sp-1]
			sub := stack[sp-2]
			var v object.Value
			var ok bool
			if g, isGen := sub.(*Generator); isGen {
				v, ok, err = g.resume(sent, nil)
			} else if object.IsNone(sent) {
				v, ok, err = object.Next(t, sub)
			} else {
				var meth object.Value
				meth, err = object.GetAttr(t, sub, "send")
				if err == nil {
					v, err = t.Call(meth, []object.Value{sent}, nil)
					ok = true
					if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.StopIteration) {
						v, ok, err = stopValue(e.Value), false, nil
					}
				}
			}
			if err != nil {
				break
			}
			if ok {
				// Yield v outward and come back to this instruction.
				sp--
				stack[sp] = nil
				pc--
				f.pc, f.sp = pc, sp
				f.yielded = true
				return v, nil
			}
			// Finished: v is the return value.
			sp--
			stack[sp] = nil
			stack[sp-1] = v
		case compile.SETUP_EXCEPT, compile.SETUP_FINALLY:
			kind := blockExcept
			if in.Op == compile.SETUP_FINALLY {
				kind = blockFinally
			}
			f.blocks = append(f.blocks, block{kind: kind, handler: int32(in.Arg), level: int32(sp)})
		case compile.POP_BLOCK:
			f.blocks = f.blocks[:len(f.blocks)-1]
		case compile.POP_EXCEPT:
			b := f.blocks[len(f.blocks)-1]
			f.blocks = f.blocks[:len(f.blocks)-1]
			t.handled = t.handled[:b.handled]
		case compile.RERAISE:
			sp--
			exc := stack[sp].(*object.Instance)
			stack[sp] = nil
			err = object.Raise(exc)
		case compile.RAISE:
			err = t.doRaise(f, stack, &sp, int(in.Arg))
		case compile.CHECK_EXC_MATCH:
			r, e := excMatch(stack[sp-2], stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = object.MakeBool(r)
		case compile.SETUP_WITH:
			sp, err = t.setupWith(f, stack, sp, pc, in.Arg)
		case compile.WITH_EXIT:
			sp, err = t.withExit(f, stack, sp, pc)
		case compile.WITH_EXCEPT:
			sp, err = t.withExcept(f, stack, sp, pc)
		case compile.FORMAT_VALUE:
			sp, err = t.formatValue(stack, sp, in.Arg)
		case compile.IMPORT_NAME:
			var mod object.Value
			var e error
			if in.Arg&compile.ImportTop != 0 {
				mod, e = t.importTop(names[in.Arg&^compile.ImportTop])
			} else {
				mod, e = t.importModule(names[in.Arg])
			}
			if e != nil {
				err = e
				break
			}
			stack[sp-1] = mod
		case compile.IMPORT_FROM:
			sp, err = t.importFrom(stack, sp, names[in.Arg])
		case compile.IMPORT_STAR:
			sp = importStar(f, stack, sp)
		case compile.LOAD_ASSERTION_ERROR:
			stack[sp] = object.AssertionError
			sp++
		case compile.MATCH_CLASS:
			err = t.matchClass(stack, &sp, int(in.Arg))
		case compile.MATCH_MAPPING:
			sp = matchMapping(stack, sp)
		case compile.MATCH_SEQUENCE:
			sp = matchSequence(stack, sp)
		case compile.MATCH_KEYS:
			sp, err = t.matchKeys(stack, sp)
		case compile.GET_LEN:
			n, e := object.Len(t, stack[sp-1])
			if e != nil {
				err = e
				break
			}
			stack[sp] = object.Int(n)
			sp++
		case compile.COPY_DICT_WITHOUT_KEYS:
			err = t.copyDictWithoutKeys(stack, sp)
		case compile.GET_AWAITABLE, compile.GET_AITER, compile.GET_ANEXT, compile.END_ASYNC_FOR,
			compile.ASYNC_WITH_ENTER, compile.ASYNC_WITH_SETUP, compile.ASYNC_WITH_EXIT, compile.ASYNC_WITH_EXCEPT:
			f.pc, f.sp = pc, sp
			sp, err = t.asyncOp(f, in, sp)
		default:
			err = object.Errorf(object.SystemExit, "PVM: bad opcode %d", in.Op)
		}
		if err == nil {
			continue
		}
		// Error path: find a handler in this frame or propagate.
		f.pc, f.sp = pc, sp
		if err = t.unwind(f, err); err != nil {
			return nil, err
		}
		pc, sp = f.pc, f.sp
	}
}

// storeListItem is STORE_SUBSCR's fast path, x[i] = v for a list x and
// an int i in range: what object.SetItem does there, which charges
// nothing beyond the instruction's cycles. It reports false, having done
// nothing, for everything else (a negative index counts from the end;
// out of range SetItem raises IndexError).
func (t *Thread) storeListItem(x, k, v object.Value) bool {
	l, ok := x.(*object.List)
	if !ok {
		return false
	}
	i, ok := k.(object.Int)
	if !ok {
		return false
	}
	if i < 0 {
		i += object.Int(len(l.Elems))
	}
	if i < 0 || int64(i) >= int64(len(l.Elems)) {
		return false
	}
	l.Elems[i] = v
	return true
}

// truthOf is object.Truth as a Bool, for the conditional jumps' slow
// path (their operand is not a bool).
func truthOf(t *Thread, v object.Value) (object.Bool, error) {
	b, err := object.Truth(t, v)
	return object.Bool(b), err
}

// floatArith is BINARY_OP's fast path for + - * and / on two floats, or
// an int (converted as object.Binary converts it: softfloat.FromInt64,
// correctly rounded) and a float: the software binary64 result
// object.Binary computes (CIP-3 §2.2: no host FPU), without its type
// dispatch. These charge nothing beyond the opcode's cycles; division by
// zero and the other operators return nil for the general path.
//
// Results are boxed through the thread's FloatBox (a Go allocation per
// 16 results instead of per result; nothing observable changes), or
// written into the box of yv, the right operand's Value, when that is a
// temporary nothing else holds: yv is the FloatBox's last Value and the
// instruction, at index i of code, runs only right after another
// BINARY_OP or INPLACE_OP (Code.AfterArith), so yv is what that one just
// pushed from this fast path, and only its stack slot, which the result
// replaces, holds it. `x + a * b` then allocates once, not twice. Floats
// have no identity a program or the meter can see (FloatBox). yv is nil
// when the right operand is not a float.
func (t *Thread) floatArith(op object.Op, x, y softfloat.F64, yv object.Value, code *compile.Code, next int) object.Value {
	var r softfloat.F64
	switch op {
	case object.OpAdd:
		r = softfloat.Add(x, y)
	case object.OpSub:
		r = softfloat.Sub(x, y)
	case object.OpMul:
		r = softfloat.Mul(x, y)
	case object.OpTrueDiv:
		if y.IsZero() { // ZeroDivisionError, from the general path
			return nil
		}
		r = softfloat.Div(x, y)
	default:
		return nil
	}
	if t.fbox.IsLast(yv) && code.AfterArith(next-1) {
		return t.fbox.Rebox(yv, object.Float(r.Float64()))
	}
	return t.fbox.Box(object.Float(r.Float64()))
}

// sfloat is the software float of a Python float's bits.
func sfloat(f object.Float) softfloat.F64 { return softfloat.FromFloat64(float64(f)) }

// unwind looks for a handler for err in f. When one is found it sets f.pc
// and f.sp to the handler with the exception pushed and returns nil;
// otherwise it returns the error to propagate to the caller.
func (t *Thread) unwind(f *frame, err error) error {
	exc := asException(err)
	if exc == nil {
		return err // meter halt or host failure: not catchable
	}
	t.setContext(exc.Value)
	t.addTraceback(f, exc.Value)
	stack := f.stack
	for len(f.blocks) > 0 {
		b := f.blocks[len(f.blocks)-1]
		f.blocks = f.blocks[:len(f.blocks)-1]
		if b.kind == blockHandler {
			t.handled = t.handled[:b.handled]
			continue
		}
		if e := t.meter.Charge(meter.CostHandlerJump); e != nil {
			return e
		}
		clear(stack[b.level:f.sp])
		f.sp = int(b.level)
		f.blocks = append(f.blocks, block{kind: blockHandler, level: int32(f.sp), handled: int32(len(t.handled))})
		t.handled = append(t.handled, exc.Value)
		stack[f.sp] = exc.Value
		f.sp++
		f.pc = int(b.handler)
		return nil
	}
	clear(stack[:f.sp])
	f.sp = 0
	return err
}

// runThrow resumes f by raising the exception on top of its stack at the
// suspension point.
func (t *Thread) runThrow(f *frame) (object.Value, error) {
	f.sp--
	exc := f.stack[f.sp].(*object.Instance)
	f.stack[f.sp] = nil
	if err := t.unwind(f, object.Raise(exc)); err != nil {
		return nil, err
	}
	return t.run(f)
}

// loadGlobal looks a global up in the module, then the builtins, and caches
// where it was found.
func (t *Thread) loadGlobal(f *frame, i int) (object.Value, error) {
	name := f.code.Names[i]
	if f.fn.gcache == nil {
		f.fn.gcache = make([]globalSlot, len(f.code.Names))
	}
	layout := f.globals.Layout()
	if idx, ok := f.globals.Slot(name); ok {
		if layout != 0 {
			f.fn.gcache[i] = globalSlot{layout: layout, idx: int32(idx)}
		}
		return f.globals.At(idx), nil
	}
	if idx, ok := t.builtins.Slot(name); ok {
		if layout != 0 {
			f.fn.gcache[i] = globalSlot{layout: layout, idx: int32(idx), builtin: true}
		}
		return t.builtins.At(idx), nil
	}
	return nil, t.nameError(f, name)
}

// storeGlobal binds a global, through the function's global slot cache
// when it knows where the name lives, and fills that cache otherwise.
func (t *Thread) storeGlobal(f *frame, i uint32, v object.Value) {
	g := f.globals
	gc := f.fn.gcache
	if gc != nil {
		if s := gc[i]; s.layout == g.Layout() && s.layout != 0 && !s.builtin {
			g.SetAt(int(s.idx), v)
			return
		}
	}
	name := f.code.Names[i]
	g.Set(name, v)
	if gc == nil {
		gc = make([]globalSlot, len(f.code.Names))
		f.fn.gcache = gc
	}
	if layout := g.Layout(); layout != 0 {
		idx, _ := g.Slot(name)
		gc[i] = globalSlot{layout: layout, idx: int32(idx)}
	}
}

// nameError is NameError with the namespaces for its "Did you mean" hint:
// the frame's locals, then globals, then builtins, as CPython searches.
func (t *Thread) nameError(f *frame, name string) error {
	err := object.Errorf(object.NameError, "name '%s' is not defined", name)
	st := err.(*object.Exception).Value.Exc
	st.SuggestName = name
	if f.code.Name != "<module>" && len(f.code.Varnames) > 0 {
		locals := object.NewStrDict()
		for i, n := range f.code.Varnames {
			if f.locals[i] != nil {
				locals.Set(n, f.locals[i])
			}
		}
		st.SuggestScopes = append(st.SuggestScopes, locals)
	}
	if f.ns != nil {
		st.SuggestScopes = append(st.SuggestScopes, f.ns)
	}
	st.SuggestScopes = append(st.SuggestScopes, f.globals, t.builtins)
	return err
}

func stopValue(exc *object.Instance) object.Value {
	if len(exc.Exc.Args) > 0 {
		return exc.Exc.Args[0]
	}
	return object.None
}

func (t *Thread) unboundCell(f *frame, i int) error {
	nc := len(f.code.Cellvars)
	if i < nc {
		return object.Errorf(object.UnboundLocalError, "cannot access local variable '%s' where it is not associated with a value", f.code.Cellvars[i])
	}
	return object.Errorf(object.NameError, "cannot access free variable '%s' where it is not associated with a value in enclosing scope", f.code.Freevars[i-nc])
}

// checkIdentity enforces the spec's ban on `is` between str, int, float or
// bytes values, whose identity depends on interning and caching choices that
// differ between implementations (technical spec, "Forbidden Operations").
// A comparison with a singleton (None, True, False, NotImplemented, Ellipsis)
// is deterministic whatever the other operand, so it is allowed.
func checkIdentity(x, y object.Value) error {
	for _, v := range [2]object.Value{x, y} {
		switch v.(type) {
		case object.NoneType, object.Bool, *object.Singleton:
			return nil
		}
	}
	for _, v := range [2]object.Value{x, y} {
		switch v.(type) {
		case object.Str, object.Int, *object.BigInt, object.Float, object.Bytes:
			return object.Errorf(object.DeterminismError, "'is' comparison with a %s value is not deterministic; use ==", object.TypeName(v))
		}
	}
	return nil
}

func excMatch(exc, typ object.Value) (bool, error) {
	inst, _ := exc.(*object.Instance)
	check := func(k object.Value) (bool, error) {
		c, ok := k.(*object.Class)
		if !ok || !c.IsException() {
			return false, object.Errorf(object.TypeError, "catching classes that do not inherit from BaseException is not allowed")
		}
		return inst != nil && inst.Class.IsSubclass(c), nil
	}
	if tup, ok := typ.(object.Tuple); ok {
		for _, k := range tup {
			r, err := check(k)
			if err != nil || r {
				return r, err
			}
		}
		return false, nil
	}
	return check(typ)
}

func (t *Thread) lookupSpecial(obj object.Value, name string) (object.Value, error) {
	if in, ok := obj.(*object.Instance); ok {
		if m, _ := in.Class.Lookup(name); m != nil {
			return &object.BoundMethod{Self: in, Fn: m}, nil
		}
	} else if v, err := object.GetAttr(t, obj, name); err == nil {
		return v, nil
	}
	tn := object.TypeName(obj)
	if name == "__enter__" || name == "__exit__" {
		return nil, object.Errorf(object.TypeError, "'%s' object does not support the context manager protocol", tn)
	}
	return nil, object.Errorf(object.AttributeError, "%s", name)
}

func (t *Thread) doRaise(f *frame, stack []object.Value, sp *int, n int) error {
	if n == 0 {
		if len(t.handled) == 0 {
			return object.Errorf(object.RuntimeError, "No active exception to reraise")
		}
		return object.Raise(t.handled[len(t.handled)-1])
	}
	var cause object.Value
	if n == 2 {
		*sp--
		cause = stack[*sp]
		stack[*sp] = nil
	}
	*sp--
	v := stack[*sp]
	stack[*sp] = nil
	exc, err := t.makeException(v)
	if err != nil {
		return err
	}
	if n == 2 {
		if cause == object.None {
			exc.Exc.Cause = nil
		} else {
			c, err := t.makeException(cause)
			if err != nil {
				return object.Errorf(object.TypeError, "exception causes must derive from BaseException")
			}
			exc.Exc.Cause = c
		}
		exc.Exc.SuppressContext = true
	}
	return object.Raise(exc)
}

func (t *Thread) makeException(v object.Value) (*object.Instance, error) {
	switch x := v.(type) {
	case *object.Class:
		if x.IsException() {
			r, err := t.Call(x, nil, nil)
			if err != nil {
				return nil, err
			}
			if in, ok := r.(*object.Instance); ok && in.Exc != nil {
				return in, nil
			}
		}
	case *object.Instance:
		if x.Exc != nil {
			return x, nil
		}
	}
	return nil, object.Errorf(object.TypeError, "exceptions must derive from BaseException")
}

// unpack turns an iterable into exactly n items, or before + list + after
// items when after >= 0 (starred assignment).
func (t *Thread) unpack(v object.Value, before, after int) ([]object.Value, error) {
	var items []object.Value
	switch s := v.(type) {
	case object.Tuple:
		items = s
	case *object.List:
		items = s.Elems
	default:
		l, err := object.ListOf(t, v)
		if err != nil {
			if e := asException(err); e != nil && e.Value.Class == object.TypeError {
				return nil, object.Errorf(object.TypeError, "cannot unpack non-iterable %s object", object.TypeName(v))
			}
			return nil, err
		}
		items = l.Elems
	}
	if after < 0 {
		if len(items) != before {
			if len(items) > before {
				return nil, object.Errorf(object.ValueError, "too many values to unpack (expected %d)", before)
			}
			return nil, object.Errorf(object.ValueError, "not enough values to unpack (expected %d, got %d)", before, len(items))
		}
		return items, nil
	}
	if len(items) < before+after {
		return nil, object.Errorf(object.ValueError, "not enough values to unpack (expected at least %d, got %d)", before+after, len(items))
	}
	out := make([]object.Value, 0, before+after+1)
	out = append(out, items[:before]...)
	mid := append([]object.Value(nil), items[before:len(items)-after]...)
	out = append(out, &object.List{Elems: mid})
	out = append(out, items[len(items)-after:]...)
	return out, nil
}

// dictMerge adds src's items to d: a dict display's **src (callee nil) or
// a call's **src (callee is the function called, for the messages; a
// duplicate keyword is an error).
func (t *Thread) dictMerge(d *object.Dict, src object.Value, callee object.Value) error {
	strict := callee != nil
	sd, ok := src.(*object.Dict)
	if !ok {
		if !strict {
			return object.Errorf(object.TypeError, "'%s' object is not a mapping", object.TypeName(src))
		}
		return object.Errorf(object.TypeError, "%s argument after ** must be a mapping, not %s", t.funcStr(callee), object.TypeName(src))
	}
	for _, kv := range sd.Items() {
		if strict {
			if _, dup, err := d.Get(t, kv[0]); err != nil {
				return err
			} else if dup {
				k, _ := object.ToStr(t, kv[0])
				return object.Errorf(object.TypeError, "%s got multiple values for keyword argument '%s'", t.funcStr(callee), k)
			}
		}
		if err := d.Set(t, kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

func (t *Thread) buildClass(f *frame, body *Function, name object.Str, bases []object.Value, kw []object.Kw) (object.Value, error) {
	bases, err := t.resolveBases(bases)
	if err != nil {
		return nil, err
	}
	var meta object.Value
	for i, k := range kw {
		if k.Name == "metaclass" {
			meta = k.Value
			kw = append(append([]object.Kw(nil), kw[:i]...), kw[i+1:]...)
			break
		}
	}
	meta, err = calculateMeta(meta, bases)
	if err != nil {
		return nil, err
	}
	ns := object.NewStrDict()
	modName := "__main__"
	if mod, ok := f.globals.Get("__name__"); ok {
		if s, ok := mod.(object.Str); ok {
			modName = string(s)
		}
	}
	ns.Set("__module__", object.Str(modName))
	ns.Set("__qualname__", object.Str(body.QualName))
	r, err := t.runBody(body, ns)
	if err != nil {
		return nil, err
	}
	var k object.Value
	if meta == object.Value(object.TypeClass) {
		k, err = t.newClass(object.TypeClass, string(name), bases, ns, kw)
	} else {
		d, derr := strDictToDict(t, ns)
		if derr != nil {
			return nil, derr
		}
		k, err = t.Call(meta, []object.Value{name, object.Tuple(bases), d}, kw)
	}
	if err != nil {
		return nil, err
	}
	if cell, ok := r.(*Cell); ok {
		cell.V = k
	}
	return k, nil
}

// runBody runs a class body with ns as its namespace.
func (t *Thread) runBody(fn *Function, ns *object.StrDict) (object.Value, error) {
	if err := t.meter.Enter(); err != nil {
		return nil, object.Errorf(object.RecursionError, "maximum recursion depth exceeded")
	}
	code := fn.Code
	mem := make([]object.Value, len(code.Varnames)+code.MaxStack)
	f := &frame{code: code, fn: fn, globals: fn.Globals, ns: ns, locals: mem[:len(code.Varnames)], stack: mem[len(code.Varnames):]}
	t.setupCells(f, fn)
	r, err := t.run(f)
	t.meter.Leave()
	return r, err
}

func (t *Thread) matchClass(stack []object.Value, sp *int, npos int) error {
	kwnames := stack[*sp-1].(object.Tuple)
	cls, ok := stack[*sp-2].(*object.Class)
	subject := stack[*sp-3]
	*sp -= 2
	stack[*sp], stack[*sp+1] = nil, nil
	push := func(v object.Value) {
		stack[*sp] = v
		*sp++
	}
	if !ok {
		return object.Errorf(object.TypeError, "called match pattern must be a class")
	}
	if !subject.Type().IsSubclass(cls) {
		push(object.None)
		return nil
	}
	var names object.Tuple
	var attrs object.Tuple
	if npos > 0 {
		ma, _ := cls.Lookup("__match_args__")
		if ma == nil {
			switch cls {
			case object.IntClass, object.FloatClass, object.StrClass, object.BoolClass, object.BytesClass,
				object.ListClass, object.TupleClass, object.DictClass, object.SetClass, object.FrozenSetClass:
				if npos > 1 {
					return object.Errorf(object.TypeError, "%s() accepts 1 positional sub-pattern (%d given)", cls.Name, npos)
				}
				attrs = append(attrs, subject)
			default:
				return object.Errorf(object.TypeError, "%s() accepts 0 positional sub-patterns (%d given)", cls.Name, npos)
			}
		} else {
			tup, ok := ma.(object.Tuple)
			if !ok {
				return object.Errorf(object.TypeError, "%s.__match_args__ must be a tuple", cls.Name)
			}
			if npos > len(tup) {
				return object.Errorf(object.TypeError, "%s() accepts %d positional sub-patterns (%d given)", cls.Name, len(tup), npos)
			}
			names = append(names, tup[:npos]...)
		}
	}
	names = append(names, kwnames...)
	for _, k := range names {
		s, ok := k.(object.Str)
		if !ok {
			return object.Errorf(object.TypeError, "__match_args__ elements must be strings")
		}
		v, err := object.GetAttr(t, subject, string(s))
		if err != nil {
			if e := asException(err); e != nil && e.Value.Class.IsSubclass(object.AttributeError) {
				push(object.None)
				return nil
			}
			return err
		}
		attrs = append(attrs, v)
	}
	push(attrs)
	return nil
}

// funcStr names a callee in an argument error as CPython's
// _PyObject_FunctionStr does: "module.qualname()", without the module for
// builtins ("print()", "list.append()", "__main__.f()").
func (t *Thread) funcStr(fn object.Value) string {
	switch f := fn.(type) {
	case *Function:
		if f.Module == "" || f.Module == "builtins" {
			return f.QualName + "()"
		}
		return f.Module + "." + f.QualName + "()"
	case *object.Builtin:
		return f.Name + "()"
	case *object.BoundMethod:
		if b, ok := f.Fn.(*object.Builtin); ok {
			return object.TypeName(f.Self) + "." + b.Name + "()"
		}
		return t.funcStr(f.Fn)
	case *object.Class:
		if f.Module == "" || f.Module == "builtins" {
			return f.Name + "()"
		}
		return f.Module + "." + f.Name + "()"
	}
	return object.TypeName(fn) + " object"
}
