package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// txTraceCmd is `cowboy tx trace HASH` (cowboy_traceTransaction).
func (a *app) txTraceCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "trace HASH",
		Short: "Replay a committed transaction and show every handler and pvm_host call",
		Long: `Replay the committed transaction HASH on the state before its block and
show each handler it ran (in delivery order, indented by message depth) with
the cycles and cells it used, every pvm_host call it made (arguments,
result or exception, cycles and cells charged), and the Python traceback of
a handler that failed.

The node gives a trace only if the replay reproduces the committed receipt
byte for byte, and only while the state before the block is retained (the
last 256 heights by default). Tracing charges nothing and changes no cost.

With --json: the cowboy_traceTransaction result (docs/rpc.md).`,
		Example: `  cowboy tx trace 0x8d2c0b0c3e5b0d1f4b6c3c0a3f52d7a4b1e9e7a0c5d6f1a2b3c4d5e6f7a8b9c0`,
		Args:    args("HASH"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			h, err := types.ParseHash(argv[0])
			if err != nil {
				return err
			}
			tr, err := a.client().TraceTransaction(cmd.Context(), h)
			if errors.Is(err, rpc.ErrNotFound) {
				return fmt.Errorf("transaction %s not found in a block: a pending or unknown transaction has no trace", h)
			}
			if err != nil {
				return fmt.Errorf("trace %s: %w", h, err)
			}
			if a.jsonOut {
				return a.printJSON(tr)
			}
			return a.printTrace(tr)
		},
	}
}

func (a *app) printTrace(tr *rpc.TraceJSON) error {
	t := newTable(a.stdout)
	printReceipt(t, tr.Receipt)
	if err := t.flush(); err != nil {
		return err
	}
	if len(tr.Handlers) == 0 {
		fmt.Fprintln(a.stdout, "\nNo handler ran (a transfer to an account).")
		return nil
	}
	fmt.Fprintln(a.stdout, "\nHandlers")
	for _, h := range tr.Handlers {
		ind := strings.Repeat("  ", int(h.Depth))
		fmt.Fprintf(a.stdout, "%s%s -> %s.%s  %s, %s cycles, %s cells\n", ind, h.From, h.To, h.Method, h.Status,
			types.GroupDigits(decU(uint64(h.CyclesUsed))), types.GroupDigits(decU(uint64(h.CellsUsed))))
		for _, c := range h.HostCalls {
			out := "-> " + c.Result
			if c.Error != "" {
				out = "raised " + c.Error
			}
			fmt.Fprintf(a.stdout, "%s  %s(%s) %s  [%s cycles, %s cells]\n", ind, c.Name, strings.Join(c.Args, ", "), out,
				types.GroupDigits(decU(uint64(c.Cycles))), types.GroupDigits(decU(uint64(c.Cells))))
		}
		if h.Error != "" {
			fmt.Fprintf(a.stdout, "%s  error: %s\n", ind, h.Error)
		}
		for _, l := range strings.Split(strings.TrimRight(h.Traceback, "\n"), "\n") {
			if l != "" {
				fmt.Fprintf(a.stdout, "%s  | %s\n", ind, l)
			}
		}
	}
	return nil
}
