// Package pvm is the Cowboy Actor VM: a deterministic, metered Python 3.11
// interpreter written in Go from the language reference.
//
// RunFile parses, compiles and runs one Python source file under a meter
// (Cycles, Cells, memory, call depth) and returns the cycles and cells it
// used. An uncaught Python exception comes back as a *vm.PyError carrying
// the traceback text Python would print; running out of cycles or cells
// comes back as the meter's *meter.LimitError.
//
// The chain drives actors through the Host interface; pvm never imports the
// chain, node or store packages, and nothing here reads a clock, a random
// source or Go map iteration order.
package pvm
