// Package vm runs PVM bytecode: the interpreter loop, frames, calls,
// exceptions with Python-style tracebacks, generators, imports and the
// builtin functions.
//
// A Thread is one call into Python: it owns the meter (cycles, cells, memory,
// depth), the module cache and the output writer. The loop in interp.go is a
// single switch over opcodes that charges the opcode's cost from the cost
// table before executing it; running out of cycles or cells ends the call
// with the meter's error, which no Python handler can catch.
//
// Functions carry caches that change speed, never results or charges: the
// slot of each global name (gcache) and the inline caches of attribute and
// method instructions (inline.go). They live on the runtime Function, which
// belongs to one thread; compiled code is shared between goroutines and is
// never written.
//
// The package never reads a clock, never iterates a Go map into a
// Python-visible result and starts no goroutines.
package vm
