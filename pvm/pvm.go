package pvm

import (
	"errors"
	"fmt"
	"io"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// Config sets the limits and surroundings of one run.
type Config struct {
	// CyclesLimit and CellsLimit are the call's cycles_limit and
	// cells_limit (CIP-3 §2.2).
	CyclesLimit, CellsLimit uint64
	// MemoryLimit is the bytes of Python objects the call may allocate; zero
	// means the spec's 10 MiB (technical spec §3.2).
	MemoryLimit uint64
	// Stdout receives print output; nil discards it.
	Stdout io.Writer
	// Host is the chain; nil for local runs (no actor API is installed).
	Host Host
	// Modules is the import whitelist; nil allows no imports.
	Modules *vm.Registry
}

// Result reports what a run consumed, also when it failed.
type Result struct {
	CyclesUsed, CellsUsed uint64
	// HeapMeasurements and HeapMeasurementCycles are how many times the
	// live heap was measured (the allocation counter reached the memory
	// limit) and the cycles those walks charged, part of CyclesUsed.
	HeapMeasurements, HeapMeasurementCycles uint64
}

// Compile parses and compiles a source file. A syntax error comes back as a
// *vm.PyError whose traceback ends in "SyntaxError: ...".
func Compile(filename string, src []byte) (*compile.Code, error) {
	code, err := compile.File(filename, src)
	if err != nil {
		return nil, syntaxError(filename, err)
	}
	return code, nil
}

func syntaxError(filename string, err error) error {
	line := 0
	msg := err.Error()
	cls := object.SyntaxError
	var se *compile.SyntaxError
	if errors.As(err, &se) {
		line, msg = se.Line, se.Msg
		switch se.Kind {
		case "IndentationError":
			cls = object.IndentationError
		case "TabError":
			cls = object.TabError
		}
	} else if le, ok := err.(interface{ Line() int }); ok {
		line = le.Line()
	}
	exc := object.NewException(cls, object.Str(msg))
	tb := fmt.Sprintf("  File \"%s\", line %d\n%s: %s\n", filename, line, cls.Name, msg)
	return &vm.PyError{Exc: exc, Traceback: tb}
}

// RunFile compiles and runs src as the __main__ module. The error is a
// *vm.PyError for an uncaught exception (its Traceback is what Python would
// print), or a *meter.LimitError when cycles or cells ran out.
func RunFile(filename string, src []byte, cfg Config) (res Result, err error) {
	m := meter.New(meter.Limits{Cycles: cfg.CyclesLimit, Cells: cfg.CellsLimit, MemoryLimit: cfg.MemoryLimit})
	defer func() {
		res = Result{CyclesUsed: m.CyclesUsed(), CellsUsed: m.CellsUsed(), HeapMeasurements: m.Measurements(), HeapMeasurementCycles: m.MeasurementCycles()}
		// A Go panic here is a PVM bug; hostile input must never take the
		// node down with it, so it becomes an error for this call only.
		if r := recover(); r != nil {
			err = fmt.Errorf("pvm: internal error running %s: %v", filename, r)
		}
	}()
	code, err := Compile(filename, src)
	if err != nil {
		return res, err
	}
	t := vm.NewThread(vm.Options{Meter: m, Stdout: cfg.Stdout, Modules: cfg.Modules, FS: vm.NewMemScratch()})
	defer t.Release()
	_, err = t.RunModule(code, "__main__")
	if err != nil {
		return res, t.Uncaught(err)
	}
	return res, nil
}
