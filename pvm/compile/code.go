package compile

import (
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Opcode is one PVM bytecode operation.
type Opcode uint8

// Instr is one pre-decoded, fixed-width instruction: an opcode and one
// 32-bit argument whose meaning depends on the opcode (a constant, name,
// local or cell index, a jump target as an instruction index, a count, or an
// object.Op).
type Instr struct {
	Op  Opcode
	Arg uint32
}

// Bytecode. Stack effects are written [before] -> [after], top of stack
// rightmost.
const (
	NOP               Opcode = iota
	POP_TOP                  // [x] -> []
	ROT_TWO                  // [a b] -> [b a]
	ROT_THREE                // [a b c] -> [c a b]
	ROT_FOUR                 // [a b c d] -> [d a b c]
	DUP_TOP                  // [x] -> [x x]
	DUP_TOP_TWO              // [a b] -> [a b a b]
	LOAD_CONST               // Arg: const index
	LOAD_FAST                // Arg: local index
	STORE_FAST               //
	DELETE_FAST              //
	LOAD_DEREF               // Arg: cell index (cellvars then freevars)
	STORE_DEREF              //
	DELETE_DEREF             //
	LOAD_CLOSURE             // push the cell itself (for MAKE_FUNCTION)
	LOAD_GLOBAL              // Arg: name index
	STORE_GLOBAL             //
	DELETE_GLOBAL            //
	LOAD_NAME                // class body: namespace, then globals, then builtins
	STORE_NAME               //
	DELETE_NAME              //
	LOAD_ATTR                // Arg: name index. [obj] -> [value]
	STORE_ATTR               // [value obj] -> []
	DELETE_ATTR              // [obj] -> []
	LOAD_METHOD              // [obj] -> [meth self] or [nil bound]
	CALL_METHOD              // Arg: argc. [meth self args...] -> [result]
	BINARY_OP                // Arg: object.Op. [a b] -> [a op b]
	INPLACE_OP               // Arg: object.Op.
	UNARY_OP                 // Arg: object.Op (Neg, Pos, Invert)
	UNARY_NOT                //
	COMPARE_OP               // Arg: object.Op (Lt..Ge)
	IS_OP                    // Arg: 1 for `is not`
	CONTAINS_OP              // Arg: 1 for `not in`
	BINARY_SUBSCR            // [obj key] -> [obj[key]]
	STORE_SUBSCR             // [value obj key] -> []
	DELETE_SUBSCR            // [obj key] -> []
	BUILD_SLICE              // Arg: 2 or 3
	BUILD_TUPLE              // Arg: count
	BUILD_LIST               //
	BUILD_SET                //
	BUILD_MAP                // Arg: pairs. [k1 v1 ... kn vn] -> [dict]
	BUILD_STRING             // Arg: count of str pieces
	LIST_APPEND              // Arg: depth of the list below TOS. [list ... v] -> [list ...]
	SET_ADD                  //
	MAP_ADD                  // [dict ... k v] -> [dict ...]
	LIST_EXTEND              // [list ... it] -> [list ...]; Arg: depth | CallArgs
	SET_UPDATE               //
	DICT_UPDATE              // dict literal **x
	DICT_MERGE               // call **x: duplicate keys are an error
	LIST_TO_TUPLE            //
	UNPACK_SEQUENCE          // Arg: count. [seq] -> [vn ... v1]
	UNPACK_EX                // Arg: before | after<<8
	JUMP                     // Arg: target
	POP_JUMP_IF_FALSE        //
	POP_JUMP_IF_TRUE         //
	JUMP_IF_FALSE_OR_POP
	JUMP_IF_TRUE_OR_POP
	GET_ITER      // [x] -> [iter(x)]
	FOR_ITER      // Arg: exit target. [it] -> [it next] or [] and jump
	CALL          // Arg: argc. [f args...] -> [result]
	CALL_KW       // Arg: argc incl. keywords. [f args... names] -> [result]
	CALL_EX       // Arg: 1 if a kwargs dict is present. [f argstuple kwargs?] -> [result]
	MAKE_FUNCTION // Arg: flags 1 defaults, 2 kwdefaults, 4 closure. [defaults? kwdefaults? closure? code] -> [fn]
	BUILD_CLASS   // Arg: count of base expressions. [bodyfn name bases...] -> [class]
	RETURN_VALUE  //
	YIELD_VALUE   //
	YIELD_FROM    // [it sent] -> [result] after the subiterator finishes
	GET_YIELD_FROM_ITER
	SETUP_EXCEPT // Arg: handler. On exception: stack cut back, exc pushed, jump.
	SETUP_FINALLY
	POP_BLOCK
	POP_EXCEPT      // leave an except handler: restore the handled exception
	RERAISE         // [exc] -> raise exc again, keeping its traceback
	RAISE           // Arg: 0 bare raise, 1 raise exc, 2 raise exc from cause
	CHECK_EXC_MATCH // [exc type] -> [exc bool]
	SETUP_WITH      // Arg: handler. [mgr] -> [exit enterresult], pushes a finally block
	WITH_EXIT       // [exit] -> [] calling exit(None, None, None)
	WITH_EXCEPT     // [exit exc] -> [exit exc suppress]
	FORMAT_VALUE    // Arg: conv | 0x100 if a spec is on the stack. [v spec?] -> [str]
	IMPORT_NAME     // Arg: name index. [fromlist] -> [module]
	IMPORT_FROM     // Arg: name index. [module] -> [module value]
	IMPORT_STAR     // [module] -> []
	LOAD_ASSERTION_ERROR
	MATCH_CLASS            // Arg: positional count. [subject cls kwnames] -> [subject attrs-tuple|None]
	MATCH_MAPPING          // [subject] -> [subject bool]
	MATCH_SEQUENCE         // [subject] -> [subject bool]
	MATCH_KEYS             // [subject keys] -> [subject keys values-tuple|None]
	GET_LEN                // [x] -> [x len(x)]
	COPY_DICT_WITHOUT_KEYS // [subject keys] -> [subject rest-dict]
	BUILD_CLASS_KW         // Arg: bases + keywords. [bodyfn name bases... kwvalues... kwnames] -> [class]
	ROT_N                  // Arg: n. [a1 ... a(n-1) x] -> [x a1 ... a(n-1)] (match captures)

	// Coroutines (PEP 492; CIP-3 §2.2 allows single-threaded async).
	// `await x` is GET_AWAITABLE, LOAD_CONST None, YIELD_FROM.
	GET_AWAITABLE     // [x] -> [iterator]: a coroutine's frame or x.__await__()
	GET_AITER         // [x] -> [type(x).__aiter__(x)]
	GET_ANEXT         // [aiter] -> [aiter type(aiter).__anext__(aiter)]
	END_ASYNC_FOR     // [aiter exc] -> [aiter] when exc is StopAsyncIteration; else raise exc
	ASYNC_WITH_ENTER  // [mgr] -> [aexit mgr.__aenter__()]
	ASYNC_WITH_SETUP  // Arg: handler. [aexit r]: pushes a finally block at [aexit]; handler: [aexit exc]
	ASYNC_WITH_EXIT   // [aexit] -> [aexit(None, None, None)]
	ASYNC_WITH_EXCEPT // [aexit exc] -> [aexit exc aexit(type, exc, None)]
	numOpcodes
)

var opNames = [...]string{
	"NOP", "POP_TOP", "ROT_TWO", "ROT_THREE", "ROT_FOUR", "DUP_TOP", "DUP_TOP_TWO",
	"LOAD_CONST", "LOAD_FAST", "STORE_FAST", "DELETE_FAST", "LOAD_DEREF", "STORE_DEREF",
	"DELETE_DEREF", "LOAD_CLOSURE", "LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL",
	"LOAD_NAME", "STORE_NAME", "DELETE_NAME", "LOAD_ATTR", "STORE_ATTR", "DELETE_ATTR",
	"LOAD_METHOD", "CALL_METHOD", "BINARY_OP", "INPLACE_OP", "UNARY_OP", "UNARY_NOT",
	"COMPARE_OP", "IS_OP", "CONTAINS_OP", "BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR",
	"BUILD_SLICE", "BUILD_TUPLE", "BUILD_LIST", "BUILD_SET", "BUILD_MAP", "BUILD_STRING",
	"LIST_APPEND", "SET_ADD", "MAP_ADD", "LIST_EXTEND", "SET_UPDATE", "DICT_UPDATE",
	"DICT_MERGE", "LIST_TO_TUPLE", "UNPACK_SEQUENCE", "UNPACK_EX", "JUMP",
	"POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP",
	"GET_ITER", "FOR_ITER", "CALL", "CALL_KW", "CALL_EX", "MAKE_FUNCTION", "BUILD_CLASS",
	"RETURN_VALUE", "YIELD_VALUE", "YIELD_FROM", "GET_YIELD_FROM_ITER", "SETUP_EXCEPT",
	"SETUP_FINALLY", "POP_BLOCK", "POP_EXCEPT", "RERAISE", "RAISE", "CHECK_EXC_MATCH",
	"SETUP_WITH", "WITH_EXIT", "WITH_EXCEPT", "FORMAT_VALUE", "IMPORT_NAME", "IMPORT_FROM",
	"IMPORT_STAR", "LOAD_ASSERTION_ERROR", "MATCH_CLASS", "MATCH_MAPPING", "MATCH_SEQUENCE",
	"MATCH_KEYS", "GET_LEN", "COPY_DICT_WITHOUT_KEYS", "BUILD_CLASS_KW", "ROT_N",
	"GET_AWAITABLE", "GET_AITER", "GET_ANEXT", "END_ASYNC_FOR", "ASYNC_WITH_ENTER",
	"ASYNC_WITH_SETUP", "ASYNC_WITH_EXIT", "ASYNC_WITH_EXCEPT",
}

// CallArgs is set in LIST_EXTEND's Arg when the list is a call's
// positional arguments given as a single *x, with the callee just below it ([f list it]): an
// error names the callee as CPython does ("f() argument after * must be an
// iterable"). The depth is Arg&0xffff.
const CallArgs = 1 << 16

// NumOpcodes is the number of opcodes, for cost tables indexed by Opcode.
const NumOpcodes = int(numOpcodes)

func (op Opcode) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("Opcode(%d)", int(op))
}

// Code is a compiled function body, class body or module.
type Code struct {
	Name      string
	QualName  string
	Filename  string
	FirstLine int
	Instrs    []Instr
	// Lines holds the source line of each instruction, for tracebacks.
	Lines  []int32
	Consts []object.Value
	// Names are global, attribute and import names.
	Names []string
	// Varnames are the locals; parameters come first, in CPython's order:
	// positional (ArgCount), keyword-only (KwOnlyCount), *args, **kwargs.
	Varnames []string
	// Cellvars are locals captured by inner functions; Freevars are cells
	// inherited from enclosing functions. Cell indexes run over Cellvars then
	// Freevars.
	Cellvars []string
	Freevars []string
	// CellArg maps each cellvar to the parameter it starts as, or -1.
	CellArg      []int
	ArgCount     int // positional parameters including positional-only
	PosOnlyCount int
	KwOnlyCount  int
	VarArgs      bool
	VarKw        bool
	Generator    bool
	// Coroutine marks an async def: calling it makes a coroutine object
	// (Generator is set too: its frame suspends the same way).
	Coroutine bool
	// ClassBody marks a class body (names go through a namespace).
	ClassBody bool
	// HasDoc is set when Consts[0] is the docstring.
	HasDoc   bool
	MaxStack int
	// PlainArgs is set (by the builder, once the rest is known) when the
	// code has no *args, **kwargs, keyword-only parameters or cells: a
	// call with exactly ArgCount positional arguments then just copies
	// them into the locals (the VM's commonest call, tested once here
	// instead of on every call).
	PlainArgs bool
	// ArithAfterArith has bit i set (word i/64, bit i%64) when
	// instruction i is a BINARY_OP or INPLACE_OP that only runs right
	// after instruction i-1, itself one of the two (no jump or handler
	// leads to i). The VM then knows that the right operand is the value
	// i-1 just pushed, which nothing else holds when the VM's float fast
	// path made it, and may write the result into that float's box.
	ArithAfterArith []uint64
	// SliceTemps has bit i set (word i/64, bit i%64) when instruction i
	// is the BINARY_SUBSCR of `a[s:t] = b[u:v]` (one target, both slices):
	// the value it pushes stays on the stack, below the target's
	// evaluation, until that statement's STORE_SUBSCR takes it, and no
	// instruction reads it in between.
	SliceTemps []uint64
}

// SliceTemp reports bit i of SliceTemps.
func (c *Code) SliceTemp(i int) bool { return hasBit(c.SliceTemps, i) }

// AfterArith reports bit i of ArithAfterArith.
func (c *Code) AfterArith(i int) bool { return hasBit(c.ArithAfterArith, i) }

// hasBit reports bit i (word i/64, bit i%64) of the bit set bits; bits
// past its end are clear.
func hasBit(bits []uint64, i int) bool {
	w := uint(i) / 64
	return w < uint(len(bits)) && bits[w]&(1<<(uint(i)%64)) != 0
}

// setBit sets bit i of the bit set bits, growing it.
func setBit(bits []uint64, i int) []uint64 {
	for len(bits) <= i/64 {
		bits = append(bits, 0)
	}
	bits[i/64] |= 1 << (uint(i) % 64)
	return bits
}

// Type implements object.Value: code objects appear as constants.
func (*Code) Type() *object.Class { return codeClass }

// Repr implements object.Value.
func (c *Code) Repr(object.Ctx) (string, error) {
	return fmt.Sprintf("<code object %s, file \"%s\", line %d>", c.Name, c.Filename, c.FirstLine), nil
}

// Truth implements object.Value.
func (*Code) Truth(object.Ctx) (bool, error) { return true, nil }

// Hash implements object.Value.
func (c *Code) Hash(object.Ctx) (int64, error) {
	return int64(c.FirstLine)*31 + int64(len(c.Instrs)), nil
}

var codeClass = func() *object.Class {
	k := &object.Class{Name: "code", Module: "builtins", Dict: object.NewStrDict()}
	object.MarkShared(k)
	return k
}()

func init() { codeClass.MRO = []*object.Class{codeClass, object.ObjectClass} }

// Disassemble renders the code for debugging and golden tests.
func (c *Code) Disassemble() string {
	var b strings.Builder
	fmt.Fprintf(&b, "code %s (%s:%d)\n", c.QualName, c.Filename, c.FirstLine)
	for i, in := range c.Instrs {
		fmt.Fprintf(&b, "%4d %4d %-22s %d", c.Lines[i], i, in.Op, in.Arg)
		switch in.Op {
		case LOAD_CONST:
			if k, ok := constKey(c.Consts[in.Arg]); ok && len(k) < 60 {
				b.WriteString(" (" + k + ")")
			}
		case LOAD_GLOBAL, STORE_GLOBAL, LOAD_ATTR, STORE_ATTR, LOAD_METHOD, LOAD_NAME, STORE_NAME, IMPORT_NAME, IMPORT_FROM:
			b.WriteString(" (" + c.Names[in.Arg] + ")")
		case LOAD_FAST, STORE_FAST:
			b.WriteString(" (" + c.Varnames[in.Arg] + ")")
		}
		b.WriteByte('\n')
	}
	for _, k := range c.Consts {
		if sub, ok := k.(*Code); ok {
			b.WriteString(sub.Disassemble())
		}
	}
	return b.String()
}
