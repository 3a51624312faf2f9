package compile

import (
	"fmt"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// label is a jump target inside one code object, resolved when the code is
// finished.
type label struct {
	pc    int   // instruction index once bound, -1 before
	users []int // instructions whose Arg is this label
}

// builder assembles one code object. The compiler makes one per scope
// and keeps emitting into it while it walks that scope's statements; a
// nested def, lambda, class or comprehension gets its own builder and
// comes back as a *Code constant of this one.
type builder struct {
	code *Code
	// line is the source line stamped on each instruction emitted next
	// (Code.Lines); the statement and expression compilers set it before
	// the instruction that can raise, so a traceback names the line of
	// the operation that raised (a multi-line call: the call's line).
	line   int32
	labels []*label
	// consts and names intern Code.Consts (by constKey) and Code.Names,
	// so a name or constant used twice costs one slot.
	consts map[string]int
	names  map[string]int
	// varIndex and cellIdx are the slot of each local and of each cell
	// (cellvars first, then freevars: the order of LOAD_DEREF's Arg),
	// fixed by the scope before any code is emitted.
	varIndex map[string]int
	cellIdx  map[string]int
}

// newBuilder starts the code object c, whose Varnames, Cellvars and
// Freevars the scope has already decided.
func newBuilder(c *Code) *builder {
	b := &builder{code: c, consts: map[string]int{}, names: map[string]int{}, varIndex: map[string]int{}, cellIdx: map[string]int{}}
	for i, v := range c.Varnames {
		b.varIndex[v] = i
	}
	for i, v := range c.Cellvars {
		b.cellIdx[v] = i
	}
	for i, v := range c.Freevars {
		b.cellIdx[v] = len(c.Cellvars) + i
	}
	return b
}

// emit appends one instruction at the current line and returns its
// index (jump patches it later).
func (b *builder) emit(op Opcode, arg int) int {
	b.code.Instrs = append(b.code.Instrs, Instr{Op: op, Arg: uint32(arg)})
	b.code.Lines = append(b.code.Lines, b.line)
	return len(b.code.Instrs) - 1
}

// newLabel makes a jump target to bind later; forward jumps (an if's
// else, a loop's exit) are emitted before their target exists.
func (b *builder) newLabel() *label {
	l := &label{pc: -1}
	b.labels = append(b.labels, l)
	return l
}

// bind places l at the next instruction to be emitted.
func (b *builder) bind(l *label) { l.pc = len(b.code.Instrs) }

// jump emits a jump (or SETUP_*, FOR_ITER: any instruction whose Arg is
// a target) to l; finish writes l's index into its Arg.
func (b *builder) jump(op Opcode, l *label) {
	i := b.emit(op, 0)
	l.users = append(l.users, i)
}

// constKey identifies equal constants of the same type so they share a slot
// (1, 1.0 and True stay distinct, as in CPython's co_consts: they are
// equal but not interchangeable). Floats are keyed by their bits, so 0.0
// and -0.0 keep separate slots. Other values (tuples of keyword names,
// code objects) are not keyed and always get a slot of their own.
func constKey(v object.Value) (string, bool) {
	switch x := v.(type) {
	case object.Int, object.Bool, object.Str, object.Bytes, object.NoneType, *object.BigInt:
		r, _ := x.Repr(nil)
		return x.Type().Name + ":" + r, true
	case object.Float:
		return fmt.Sprintf("float:%x", uint64(mathFloatBits(float64(x)))), true
	}
	return "", false
}

// constIndex is v's slot in Code.Consts, adding it if no equal constant
// (constKey) is there yet.
func (b *builder) constIndex(v object.Value) int {
	if k, ok := constKey(v); ok {
		if i, ok := b.consts[k]; ok {
			return i
		}
		b.consts[k] = len(b.code.Consts)
	}
	b.code.Consts = append(b.code.Consts, v)
	return len(b.code.Consts) - 1
}

// loadConst emits LOAD_CONST of v: [] -> [v].
func (b *builder) loadConst(v object.Value) { b.emit(LOAD_CONST, b.constIndex(v)) }

// nameIndex is n's slot in Code.Names, adding it on first use.
func (b *builder) nameIndex(n string) int {
	if i, ok := b.names[n]; ok {
		return i
	}
	b.names[n] = len(b.code.Names)
	b.code.Names = append(b.code.Names, n)
	return len(b.code.Names) - 1
}

// finish resolves labels and computes the maximum stack depth, then the
// facts the interpreter's fast paths read (Code.PlainArgs,
// Code.ArithAfterArith). An unbound label or a negative stack height is
// a compiler bug, not an error in the program, and is reported as a
// plain error.
func (b *builder) finish() error {
	for _, l := range b.labels {
		if len(l.users) > 0 && l.pc < 0 {
			return fmt.Errorf("compile: unbound label in %s", b.code.Name)
		}
		for _, u := range l.users {
			b.code.Instrs[u].Arg = uint32(l.pc)
		}
	}
	depth, err := maxStack(b.code)
	if err != nil {
		return err
	}
	b.code.MaxStack = depth
	c := b.code
	c.PlainArgs = !c.VarArgs && !c.VarKw && c.KwOnlyCount == 0 && len(c.Cellvars)+len(c.Freevars) == 0
	c.ArithAfterArith = arithAfterArith(c, b.labels)
	return nil
}

// arithAfterArith is Code.ArithAfterArith: the BINARY_OP and INPLACE_OP
// instructions that follow one of the two and are no jump's target (nor
// an exception handler, whose SETUP_* jumps to it), so that they run
// only right after the instruction before them.
func arithAfterArith(c *Code, labels []*label) []uint64 {
	target := make(map[int]bool)
	for _, l := range labels {
		if len(l.users) > 0 {
			target[l.pc] = true
		}
	}
	for _, in := range c.Instrs {
		if isJump(in.Op) {
			target[int(in.Arg)] = true
		}
	}
	var bits []uint64
	for i := 1; i < len(c.Instrs); i++ {
		if isArith(c.Instrs[i].Op) && isArith(c.Instrs[i-1].Op) && !target[i] {
			bits = setBit(bits, i)
		}
	}
	return bits
}

// isArith reports the two opcodes that may box their float result into
// their right operand's box (Code.ArithAfterArith).
func isArith(op Opcode) bool { return op == BINARY_OP || op == INPLACE_OP }

// stackEffect is the change in stack height of executing in, and for jumps
// the height change when the jump is taken. It must agree with what the
// interpreter does for each opcode (the stack effects in code.go):
// Code.MaxStack is computed from it and the interpreter trusts that
// bound. For SETUP_EXCEPT, SETUP_FINALLY, SETUP_WITH and
// ASYNC_WITH_SETUP the jump value is not used: maxStack computes the
// handler's entry height itself.
func stackEffect(in Instr) (fall, jump int) {
	a := int(in.Arg)
	switch in.Op {
	case NOP, ROT_TWO, ROT_THREE, ROT_FOUR, ROT_N, UNARY_OP, UNARY_NOT, GET_ITER,
		LOAD_ATTR, GET_YIELD_FROM_ITER, LIST_TO_TUPLE, DELETE_FAST, DELETE_DEREF,
		DELETE_GLOBAL, DELETE_NAME, IMPORT_NAME, CHECK_EXC_MATCH, COPY_DICT_WITHOUT_KEYS,
		GET_AWAITABLE, GET_AITER, ASYNC_WITH_EXIT:
		return 0, 0
	case GET_ANEXT, ASYNC_WITH_ENTER, ASYNC_WITH_EXCEPT:
		return 1, 0
	case END_ASYNC_FOR:
		return -1, 0
	case ASYNC_WITH_SETUP:
		return 0, 0 // handler: [aexit exc], the height of [aexit r]
	case FORMAT_VALUE:
		if a&0x100 != 0 {
			return -1, 0
		}
		return 0, 0
	case POP_TOP, STORE_FAST, STORE_DEREF, STORE_GLOBAL, STORE_NAME, BINARY_OP,
		INPLACE_OP, COMPARE_OP, IS_OP, CONTAINS_OP, BINARY_SUBSCR, DELETE_ATTR,
		LIST_APPEND, SET_ADD, LIST_EXTEND, SET_UPDATE, DICT_UPDATE, DICT_MERGE,
		RETURN_VALUE, YIELD_FROM, IMPORT_STAR, WITH_EXIT:
		return -1, 0
	case YIELD_VALUE:
		return 0, 0 // pops the value, pushes the sent value
	case DUP_TOP, LOAD_CONST, LOAD_FAST, LOAD_DEREF, LOAD_CLOSURE, LOAD_GLOBAL,
		LOAD_NAME, LOAD_METHOD, IMPORT_FROM, LOAD_ASSERTION_ERROR, MATCH_MAPPING,
		MATCH_SEQUENCE, MATCH_KEYS, GET_LEN, WITH_EXCEPT:
		return 1, 0
	case DUP_TOP_TWO:
		return 2, 0
	case STORE_ATTR, DELETE_SUBSCR, MAP_ADD:
		return -2, 0
	case STORE_SUBSCR:
		return -3, 0
	case CALL_METHOD:
		// [meth self args...] -> [result]: pops argc+2, pushes 1.
		return -a - 1, 0
	case BUILD_SLICE:
		return 1 - a, 0
	case BUILD_TUPLE, BUILD_LIST, BUILD_SET, BUILD_STRING:
		return 1 - a, 0
	case BUILD_MAP:
		return 1 - 2*a, 0
	case UNPACK_SEQUENCE:
		return a - 1, 0
	case UNPACK_EX:
		// before + after items and the list of the rest replace the
		// sequence.
		return (a & 0xff) + (a >> 8), 0
	case JUMP:
		return 0, 0
	case POP_JUMP_IF_FALSE, POP_JUMP_IF_TRUE:
		return -1, -1
	case JUMP_IF_FALSE_OR_POP, JUMP_IF_TRUE_OR_POP:
		return -1, 0
	case FOR_ITER:
		return 1, -1 // pushes the next item, or pops the iterator and jumps
	case CALL:
		return -a, 0 // [f args...] -> [result]
	case CALL_KW:
		return -a - 1, 0 // the names tuple is one more
	case CALL_EX:
		return -1 - (a & 1), 0 // [f args kwargs?] -> [result]
	case MAKE_FUNCTION:
		// The code object is replaced by the function; each flag bit
		// consumes one more value.
		n := 0
		for _, bit := range []int{1, 2, 4, 8} {
			if a&bit != 0 {
				n++
			}
		}
		return -n, 0
	case BUILD_CLASS:
		return -a - 1, 0 // [bodyfn name bases...] -> [class]
	case BUILD_CLASS_KW:
		return -a - 2, 0 // and the kwnames tuple
	case SETUP_EXCEPT, SETUP_FINALLY:
		return 0, 1 // the handler starts with the exception pushed
	case SETUP_WITH:
		return 1, 1 // [mgr] -> [exit res]; handler: [exit exc]
	case POP_BLOCK, POP_EXCEPT:
		return 0, 0
	case RERAISE:
		return -1, 0
	case RAISE:
		return -a, 0
	case MATCH_CLASS:
		return -1, 0
	}
	return 0, 0
}

// isJump reports the instructions whose Arg is an instruction index:
// jumps, FOR_ITER's exit and the SETUP_* handlers. maxStack follows both
// of their successors; arithAfterArith counts their targets as reachable
// from elsewhere.
func isJump(op Opcode) bool {
	switch op {
	case JUMP, POP_JUMP_IF_FALSE, POP_JUMP_IF_TRUE, JUMP_IF_FALSE_OR_POP, JUMP_IF_TRUE_OR_POP,
		FOR_ITER, SETUP_EXCEPT, SETUP_FINALLY, SETUP_WITH, ASYNC_WITH_SETUP:
		return true
	}
	return false
}

// maxStack walks every path through the code (a worklist over instruction
// indexes with the stack height on entry) and returns the largest height,
// plus two slots of margin (there since the first builder).
//
// An instruction is walked again only when a path reaches it higher than
// before, so the walk ends as long as every loop leaves the stack as it
// found it, which the compiler's loops do (a for loop's body pops what
// its target assignment and statements push). A path ends at JUMP
// (followed through its target), RETURN_VALUE, RERAISE and RAISE.
func maxStack(c *Code) (int, error) {
	n := len(c.Instrs)
	height := make([]int, n)
	for i := range height {
		height[i] = -1
	}
	type item struct{ pc, h int }
	work := []item{{0, 0}}
	best := 0
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		pc, h := it.pc, it.h
		for pc < n {
			if height[pc] >= h {
				break
			}
			height[pc] = h
			in := c.Instrs[pc]
			fall, jmp := stackEffect(in)
			if isJump(in.Op) {
				jh := h + jmp
				// A handler starts at the height its block recorded
				// when it was set up, with the exception pushed.
				if in.Op == SETUP_EXCEPT || in.Op == SETUP_FINALLY {
					jh = h + 1
				}
				if in.Op == SETUP_WITH {
					jh = h + 1 // [exit exc]
				}
				if in.Op == ASYNC_WITH_SETUP {
					jh = h // [aexit r] -> [aexit exc]
				}
				if jh > best {
					best = jh
				}
				if jh < 0 {
					return 0, fmt.Errorf("compile: negative stack depth in %s at %d", c.Name, pc)
				}
				work = append(work, item{int(in.Arg), jh})
			}
			h += fall
			if h < 0 {
				return 0, fmt.Errorf("compile: negative stack depth in %s at %d (%s)", c.Name, pc, in.Op)
			}
			if h > best {
				best = h
			}
			switch in.Op {
			case JUMP, RETURN_VALUE, RERAISE:
				pc = n
				continue
			case RAISE:
				pc = n
				continue
			}
			pc++
		}
	}
	return best + 2, nil
}
