// Package pvm is the Cowboy Actor VM: a deterministic, metered Python 3.11
// interpreter written in Go from the language reference.
//
// RunFile parses, compiles and runs one Python source file under a meter
// (Cycles, Cells, memory, call depth) and returns the cycles and cells it
// used. An uncaught Python exception comes back as a *vm.PyError carrying
// the traceback text Python would print; running out of cycles or cells
// comes back as the meter's *meter.LimitError, which Python code can never
// catch.
//
// The chain drives actors through the Host interface; pvm never imports the
// chain, node or store packages, and nothing here reads a clock, a random
// source or Go map iteration order.
//
// Decisions that shape behaviour (each is a consensus rule):
//   - Reference cycles are allowed. The PVM has no finalizers and no weak
//     references, so when a cycle becomes garbage is unobservable; Go's
//     collector reclaims it. (The technical spec's "creating reference cycles
//     MUST raise DeterminismError" targets CPython's cyclic GC, which this VM
//     does not have.)
//   - The 10 MiB limit is on live memory in a fixed model of object sizes
//     (meter/costs_cip3_2_2.go): allocations are counted, and when the
//     count would pass the limit the reachable heap is measured by a paid,
//     deterministic walk from the VM's roots (vm/heap.go,
//     object/heapwalk.go); MemoryError only if what is live does not fit.
//   - dict, set and frozenset iterate in insertion order; hash() of str and
//     bytes is FNV-1a with a fixed key.
//   - `is` on str, int, float or bytes raises DeterminismError (identity of
//     those values depends on interning); `is` against a singleton (None,
//     True, False, NotImplemented, Ellipsis) and identity of other objects
//     work. id() is a per-call counter for class instances
//     and DeterminismError for other values.
//   - eval, exec, compile, input, globals, locals and dynamic __import__
//     raise; open() works only under /tmp (256 KiB scratch space).
//   - Recursion depth is 32 Python frames (RecursionError); ints are capped
//     at 4096 bits (OverflowError), checked before the work is done.
//   - str case mappings (upper, lower, title, capitalize, swapcase,
//     casefold: full mappings, "ß".upper() == "SS", final sigma) and the
//     classes isalpha, isdecimal, isdigit, isnumeric, isalnum, isupper,
//     islower, istitle, isidentifier, isprintable follow Unicode 14.0.0, CPython 3.11's version, from
//     tables generated from CPython itself (object/unicode_tables.go,
//     object.UnicodeVersion), never from Go's unicode package, whose
//     version follows the Go release a node is built with. int() and
//     float() accept decimal digits of every script. isspace uses Go's
//     White_Space table (unchanged since Unicode 6.3), and the parser's
//     identifiers still use Go's letter tables.
package pvm
