// Command cowboy-pvm-dev runs a Python file in the PVM for development: print
// goes to stdout, an uncaught exception prints its traceback to stderr and
// exits 1, running out of cycles exits 3. The user-facing command is
// `cowboy pvm run`; this runner only exercises the pvm package API.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

func main() {
	cycles := flag.Uint64("cycles-limit", 1_000_000_000, "cycles_limit of the run")
	cells := flag.Uint64("cells-limit", 1<<20, "cells_limit of the run, in bytes")
	showMeter := flag.Bool("meter", false, "print cycles and cells used to stderr")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: cowboy-pvm-dev [--meter] [--cycles-limit N] [--cells-limit N] FILE.py")
		os.Exit(2)
	}
	file := flag.Arg(0)
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	res, err := pvm.RunFile(file, src, pvm.Config{CyclesLimit: *cycles, CellsLimit: *cells, Stdout: os.Stdout})
	if *showMeter {
		fmt.Fprintf(os.Stderr, "cycles used: %d\ncells used: %d\n", res.CyclesUsed, res.CellsUsed)
	}
	var pe *vm.PyError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		fmt.Fprint(os.Stderr, pe.Traceback)
		os.Exit(1)
	case errors.Is(err, meter.ErrOutOfCycles), errors.Is(err, meter.ErrOutOfCells):
		fmt.Fprintf(os.Stderr, "execution halted: %v\n", err)
		os.Exit(3)
	default:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
