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
// rightmost. The builder's stackEffect (builder.go) states the same
// effects as height changes for Code.MaxStack; an opcode added here needs
// a case there, a name in opNames (same order), a case in the interpreter
// loop (pvm/vm/interp.go) and, unless it costs meter.CostBase, an entry in
// pvm/vm/costs.go, whose base costs are consensus.
const (
	NOP           Opcode = iota
	POP_TOP              // [x] -> []
	ROT_TWO              // [a b] -> [b a]
	ROT_THREE            // [a b c] -> [c a b]
	ROT_FOUR             // [a b c d] -> [d a b c]
	DUP_TOP              // [x] -> [x x]
	DUP_TOP_TWO          // [a b] -> [a b a b]
	LOAD_CONST           // Arg: const index. [] -> [Consts[Arg]]
	LOAD_FAST            // Arg: local index. [] -> [local]; UnboundLocalError if unset
	STORE_FAST           // [v] -> []
	DELETE_FAST          // [] -> []; UnboundLocalError if unset
	LOAD_DEREF           // Arg: cell index (cellvars then freevars). [] -> [cell contents]
	STORE_DEREF          // [v] -> []
	DELETE_DEREF         // [] -> []
	LOAD_CLOSURE         // [] -> [cell]: the cell itself, for MAKE_FUNCTION's closure tuple
	LOAD_GLOBAL          // Arg: name index. [] -> [v]: module globals, then builtins
	STORE_GLOBAL         // [v] -> []
	DELETE_GLOBAL        // [] -> []; NameError if unbound
	// The *_NAME opcodes are emitted only in class bodies (module-level
	// names are globals): they go through the body's namespace dict.
	LOAD_NAME     // [] -> [v]: class namespace, then globals, then builtins
	STORE_NAME    // [v] -> []
	DELETE_NAME   // [] -> []
	LOAD_ATTR     // Arg: name index. [obj] -> [value]
	STORE_ATTR    // [value obj] -> []
	DELETE_ATTR   // [obj] -> []
	LOAD_METHOD   // [obj] -> [meth obj] when the class's function can skip the bound method, else [nil obj.name]
	CALL_METHOD   // Arg: argc. [meth self args...] or [nil callable args...] -> [result]
	BINARY_OP     // Arg: object.Op. [a b] -> [a op b]
	INPLACE_OP    // Arg: object.Op. [a b] -> [a op= b]: in place where the type allows (list +=, __iadd__), else as BINARY_OP
	UNARY_OP      // Arg: object.Op (Neg, Pos, Invert). [x] -> [op x]
	UNARY_NOT     // [x] -> [not x]
	COMPARE_OP    // Arg: object.Op (Lt..Ge). [a b] -> [a op b]
	IS_OP         // Arg: 1 for `is not`. [a b] -> [bool]
	CONTAINS_OP   // Arg: 1 for `not in`. [x container] -> [bool]
	BINARY_SUBSCR // [obj key] -> [obj[key]]
	STORE_SUBSCR  // [value obj key] -> []
	DELETE_SUBSCR // [obj key] -> []
	BUILD_SLICE   // Arg: 2 or 3. [start stop step?] -> [slice]
	BUILD_TUPLE   // Arg: count. [v1 ... vn] -> [tuple]
	BUILD_LIST    // Arg: count. [v1 ... vn] -> [list]
	BUILD_SET     // Arg: count. [v1 ... vn] -> [set]
	BUILD_MAP     // Arg: pairs. [k1 v1 ... kn vn] -> [dict]
	BUILD_STRING  // Arg: count of str pieces. [s1 ... sn] -> [s1+...+sn]
	// The container opcodes below name their container by depth: Arg
	// counts the slots between it and the operands, so a comprehension
	// can append to a list that sits under its loops' iterators.
	LIST_APPEND   // Arg: depth of the list below TOS. [list ... v] -> [list ...]
	SET_ADD       // Arg: depth. [set ... v] -> [set ...]
	MAP_ADD       // Arg: depth | CallArgs. [dict ... k v] -> [dict ...]
	LIST_EXTEND   // [list ... it] -> [list ...]; Arg: depth | CallArgs
	SET_UPDATE    // Arg: depth. [set ... it] -> [set ...]
	DICT_UPDATE   // Arg: depth. [dict ... m] -> [dict ...]: a dict display's **m
	DICT_MERGE    // as DICT_UPDATE, for a call's **m: a repeated keyword is a TypeError
	LIST_TO_TUPLE // [list] -> [tuple]
	// UNPACK_* push the items last first, so that the first item is on
	// top and the targets are stored left to right.
	UNPACK_SEQUENCE // Arg: count. [seq] -> [vn ... v1]
	UNPACK_EX       // Arg: before | after<<8. [seq] -> [after items, list of the rest, before items]
	// Jumps: Arg is the target instruction's index in Instrs.
	JUMP                 // [] -> []
	POP_JUMP_IF_FALSE    // [x] -> [], jumping when x is false
	POP_JUMP_IF_TRUE     // [x] -> [], jumping when x is true
	JUMP_IF_FALSE_OR_POP // [x] -> [x] and jump when x is false, else []: `and`
	JUMP_IF_TRUE_OR_POP  // [x] -> [x] and jump when x is true, else []: `or`
	GET_ITER             // [x] -> [iter(x)]
	FOR_ITER             // Arg: exit target. [it] -> [it next] or [] and jump
	CALL                 // Arg: argc. [f args...] -> [result]
	CALL_KW              // Arg: argc incl. keywords. [f args... kwvalues... names] -> [result]
	CALL_EX              // Arg: 1 if a kwargs dict is present. [f argstuple kwargs?] -> [result]
	MAKE_FUNCTION        // Arg: flags 1 defaults, 2 kwdefaults, 8 annotations, 4 closure. [defaults? kwdefaults? annotations? closure? code] -> [fn]
	BUILD_CLASS          // Arg: count of base expressions. [bodyfn name bases...] -> [class]
	RETURN_VALUE         // [v] -> []: the frame returns v
	// YIELD_VALUE suspends the frame; when it resumes, the value sent in
	// (None for next()) is pushed in place of the one yielded.
	YIELD_VALUE         // [v] -> [sent]
	YIELD_FROM          // [it sent] -> [result] after the subiterator finishes
	GET_YIELD_FROM_ITER // [x] -> [iter(x)], or [x] when x is a generator
	// Exception blocks. SETUP_* push a block that records the handler and
	// the stack height; on an exception the VM cuts the stack back to that
	// height, pushes the exception, makes the block a handler block (the
	// exception is now "being handled", for a bare raise and __context__)
	// and jumps to the handler. POP_BLOCK drops a block whose protected
	// code finished normally.
	SETUP_EXCEPT         // Arg: handler. [] -> []; handler entered with [exc]
	SETUP_FINALLY        // as SETUP_EXCEPT; the handler is the finally body's exceptional copy
	POP_BLOCK            // [] -> []
	POP_EXCEPT           // leave an except handler: restore the handled exception; [exc] stays
	RERAISE              // [exc] -> raise exc again, keeping its traceback
	RAISE                // Arg: 0 bare raise, 1 raise exc, 2 raise exc from cause. [exc? cause?] -> raise
	CHECK_EXC_MATCH      // [exc type] -> [exc bool]
	SETUP_WITH           // Arg: handler. [mgr] -> [exit enterresult], pushes a finally block; handler: [exit exc]
	WITH_EXIT            // [exit] -> [] calling exit(None, None, None)
	WITH_EXCEPT          // [exit exc] -> [exit exc suppress]
	FORMAT_VALUE         // Arg: conv | 0x100 if a spec is on the stack. [v spec?] -> [str]
	IMPORT_NAME          // Arg: name index | ImportTop. [fromlist] -> [module]; the fromlist (None) is unused
	IMPORT_FROM          // Arg: name index. [module] -> [module value]
	IMPORT_STAR          // [module] -> []
	LOAD_ASSERTION_ERROR // [] -> [AssertionError]
	// Structural pattern matching (PEP 634; pattern.go).
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

// opNames are the opcodes' names in Opcode order, for Disassemble and
// error messages (Opcode.String).
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
// iterable"). The depth is Arg&0xffff. In MAP_ADD's Arg it marks a
// call's k=v after a **m ([f args kwargs k v]): a k already there is
// "f() got multiple values for keyword argument 'k'".
const CallArgs = 1 << 16

// ImportTop is set in IMPORT_NAME's Arg for `import a.b.c` without as:
// the VM imports a, a.b and a.b.c in turn (each submodule becomes an
// attribute of its parent) and pushes a, the name the statement binds.
// The name index is Arg &^ ImportTop.
const ImportTop = 1 << 31

// NumOpcodes is the number of opcodes, for cost tables indexed by Opcode.
const NumOpcodes = int(numOpcodes)

// String is the opcode's name, or Opcode(n) for a value past the table
// (a corrupted instruction, reported rather than panicking).
func (op Opcode) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return fmt.Sprintf("Opcode(%d)", int(op))
}

// Code is a compiled function body, class body or module.
type Code struct {
	// Name is the function's __name__ ("<module>", "<lambda>", "<listcomp>"
	// and the like for the unnamed ones); QualName its __qualname__
	// (PEP 3155), "f.<locals>.g" for a nested function. Filename and
	// FirstLine (the def, class or first line of the module) feed
	// tracebacks and reprs.
	Name      string
	QualName  string
	Filename  string
	FirstLine int
	// Instrs are the instructions; a jump's Arg is an index into Instrs,
	// and a frame's pc is one too.
	Instrs []Instr
	// Lines holds the source line of each instruction, for tracebacks.
	Lines []int32
	// Consts are the constants LOAD_CONST pushes: immutable values shared by
	// every run (ints, floats, strs, bytes, None, tuples of keyword names
	// and nested *Code objects); equal scalars share a slot (constKey).
	Consts []object.Value
	// Names are global, attribute and import names, indexed by the Arg of
	// the *_GLOBAL, *_NAME, *_ATTR, LOAD_METHOD and IMPORT_* instructions
	// (pvm.Compile reads IMPORT_NAME's to check an actor's imports).
	Names []string
	// Varnames are the locals; parameters come first, in CPython's order:
	// positional (ArgCount), keyword-only (KwOnlyCount), *args, **kwargs.
	Varnames []string
	// Cellvars are locals captured by inner functions; Freevars are cells
	// inherited from enclosing functions. Cell indexes run over Cellvars then
	// Freevars.
	Cellvars []string
	Freevars []string
	// CellArg maps each cellvar to the parameter it starts as, or -1: a
	// captured parameter lives in a cell, which the call fills from the
	// argument (pvm/vm/call.go).
	CellArg []int
	// The parameter counts and flags below tell the VM how to bind a call's
	// arguments (pvm/vm/call.go, as CPython's Python/ceval.c does): the
	// first ArgCount locals take positional arguments, of which the first
	// PosOnlyCount cannot be given by keyword; then KwOnlyCount keyword-only
	// locals; then *args if VarArgs and **kwargs if VarKw.
	ArgCount     int // positional parameters including positional-only
	PosOnlyCount int
	KwOnlyCount  int
	VarArgs      bool
	VarKw        bool
	// Generator marks a function whose body yields: calling it makes a
	// generator object instead of running the body.
	Generator bool
	// Coroutine marks an async def: calling it makes a coroutine object
	// (Generator is set too: its frame suspends the same way).
	Coroutine bool
	// ClassBody marks a class body (names go through a namespace); the
	// VM tells class bodies by how BUILD_CLASS runs them, so this is for
	// readers of the code object.
	ClassBody bool
	// HasDoc is set when Consts[0] is the docstring: a function's
	// __doc__ reads it (pvm/vm/function.go). Only def bodies get one; a
	// lambda's first constant is never its doc.
	HasDoc bool
	// MaxStack is the value stack the interpreter reserves for a frame of
	// this code: the deepest height any path reaches (maxStack), plus
	// two. The interpreter does not check the stack pointer on a push; it
	// relies on this bound, so stackEffect must be right for every
	// sequence the compiler emits.
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

// codeClass is the type of code objects, builtins.code as in CPython. It
// is created once per process and shared by every thread (MarkShared):
// snapshot copies refer to it instead of copying it.
var codeClass = func() *object.Class {
	k := &object.Class{Name: "code", Module: "builtins", Dict: object.NewStrDict()}
	object.MarkShared(k)
	return k
}()

// The MRO is set in init because it refers to codeClass itself.
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
		case IMPORT_NAME:
			b.WriteString(" (" + c.Names[in.Arg&^ImportTop] + ")")
		case LOAD_GLOBAL, STORE_GLOBAL, LOAD_ATTR, STORE_ATTR, LOAD_METHOD, LOAD_NAME, STORE_NAME, IMPORT_FROM:
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
