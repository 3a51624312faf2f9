package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// exitError carries an exit status for errors already reported in full
// (a Python traceback), so run prints nothing more.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func (a *app) pvmCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "pvm",
		Short:   "Run Python in the Cowboy VM locally",
		Example: "  cowboy pvm run hello.py",
		Args:    cobra.ArbitraryArgs,
		RunE:    groupRun,
	}
	cmd.AddCommand(a.pvmRunCmd())
	return cmd
}

func (a *app) pvmRunCmd() *cobra.Command {
	var (
		showMeter     bool
		cycles, cells uint64
	)
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Run a Python file in the PVM, printing to stdout",
		Long: `Run a Python file in the PVM, the deterministic, metered Python 3.11 VM that
executes actors, on this machine (no node needed). print goes to stdout. An
uncaught exception prints a Python traceback on stderr and exits 1; running
out of cycles or cells prints the meter's message and exits 3. With --meter the
cycles and cells used are reported on stderr.`,
		Example: `  cowboy pvm run hello.py
  cowboy pvm run --meter --cycles-limit 1000000 loop.py`,
		Args: args("FILE"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			src, err := os.ReadFile(argv[0])
			if err != nil {
				return fmt.Errorf("read %s: %w", argv[0], err)
			}
			res, err := pvm.RunFile(argv[0], src, pvm.Config{CyclesLimit: cycles, CellsLimit: cells, Stdout: a.stdout, Modules: modules.Standard()})
			if showMeter {
				fmt.Fprintf(a.stderr, "cycles used: %d\ncells used: %d\n", res.CyclesUsed, res.CellsUsed)
			}
			var pe *vm.PyError
			switch {
			case err == nil:
				return nil
			case errors.As(err, &pe):
				fmt.Fprint(a.stderr, pe.Traceback)
				return &exitError{code: 1}
			case errors.Is(err, meter.ErrOutOfCycles), errors.Is(err, meter.ErrOutOfCells):
				// Issue 4: running out of cycles exits with status 3, so a
				// script can tell a metering halt from a Python error.
				fmt.Fprintf(a.stderr, "error: execution halted: %v\n", err)
				return &exitError{code: 3}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&showMeter, "meter", false, "report cycles and cells used on stderr")
	cmd.Flags().Uint64Var(&cycles, "cycles-limit", 20_000_000, "cycles the run may use (a transaction's maximum by default)")
	cmd.Flags().Uint64Var(&cells, "cells-limit", 1_000_000, "cells (bytes) the run may use")
	return cmd
}
