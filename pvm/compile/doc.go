// Package compile turns a parsed Python module (pvm/syntax) into PVM
// bytecode: one Code object per module, function, class body, lambda and
// comprehension, run by pvm/vm.
//
// Compilation has two passes, as CPython's has:
//   - symbols.go walks the syntax tree once and builds a scope per
//     function, class body and comprehension (symtable.go), recording
//     which names each assigns, declares global or nonlocal, or uses; a
//     scope then resolves every name to a local, a cell, a free variable,
//     a global or (class bodies and module level) a namespace lookup, and
//     decides which locals must live in cells because an inner function
//     captures them.
//   - compiler.go, stmt.go, expr.go and pattern.go emit the instructions of
//     each scope through a builder (builder.go), which interns constants
//     and names, binds jump labels and, over the finished instructions,
//     computes Code.MaxStack, the value stack the interpreter reserves
//     (TestMaxStackIsEnough), and facts the interpreter's fast paths
//     read instead of working out per call or per instruction:
//     Code.PlainArgs (a call that only copies its arguments into the
//     locals), Code.ArithAfterArith (an arithmetic instruction that
//     runs only right after another, so its right operand is the value
//     that one just pushed; TestArithAfterArith) and, marked by the
//     statement compiler, Code.SliceTemps (the b[u:v] of a[s:t] =
//     b[u:v], whose list only the statement's store reads;
//     TestSliceTemps).
//
// The instruction set (code.go) is a simplified CPython 3.11 set with
// fixed-width, pre-decoded instructions: an opcode and one 32-bit argument,
// the source line of each kept beside it for tracebacks. The compiler
// decides what the cycle meter charges, since the interpreter charges each
// executed opcode its base cost (pvm/vm/costs.go, CIP-3 §2.2.1): a change
// of how a construct is lowered changes cycle charges, which are consensus,
// and shows up in pvm's cycle goldens.
//
// Hostile source cannot exhaust the Go stack: nesting beyond MaxNesting is
// a SyntaxError. Errors come back as *SyntaxError with the line and the
// exception class CPython raises (SyntaxError, IndentationError,
// TabError). Code objects are immutable once built and shared between
// threads; the interpreter keeps its caches on runtime functions instead.
package compile
