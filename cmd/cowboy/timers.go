package main

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) timersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "timers",
		Short: "Inspect native timers (set_timer, set_interval)",
		Long: `Inspect the chain's native timers (technical spec §3.3): the pending timers of
an actor, one timer's tier, due height, deposit and deferrals, and the
receipts of its runs. docs/timers.md explains the scheduler.`,
		Example: `  cowboy timers list 0x5FbDB2315678afecb367f032d93F642f64180aa3
  cowboy timers show 1
  cowboy timers receipts 1 --json`,
		RunE: groupRun,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "list ADDR",
		Short: "List an actor's pending timers",
		Long: `List the pending timers of the actor ADDR: id, handler, due height, interval,
tier (ring, epoch, overflow, or due: rolled over and waiting for the timer
lane), deposit held and deferrals.

With --json: the cowboy_getTimers answer, an array of timers.`,
		Example: `  cowboy timers list 0x5FbDB2315678afecb367f032d93F642f64180aa3 --json`,
		Args:    args("ADDR"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			ts, err := a.client().Timers(cmd.Context(), addr)
			if err != nil {
				return fmt.Errorf("timers of %s: %w", addr, err)
			}
			if a.jsonOut {
				return a.printJSON(ts)
			}
			if len(ts) == 0 {
				fmt.Fprintf(a.stdout, "%s has no pending timers\n", addr)
				return nil
			}
			fmt.Fprintf(a.stdout, "%-6s %-16s %-10s %-9s %-9s %-22s %s\n", "ID", "HANDLER", "DUE", "INTERVAL", "TIER", "DEPOSIT", "DEFERRALS")
			for _, t := range ts {
				fmt.Fprintf(a.stdout, "%-6d %-16s %-10d %-9s %-9s %-22s %d\n", uint64(t.ID), t.Handler, uint64(t.Due),
					interval(uint64(t.Interval)), t.Tier, amount((*big.Int)(&t.Deposit)), uint64(t.Deferrals))
			}
			return nil
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "show ID",
		Short: "Show one pending timer",
		Long: `Show pending timer ID: its owner, handler and data, due height and interval,
tier, the Gas Bidding Agent that bids for it, the deposit held, and the
history of the blocks it was due and did not run (budget: the timer lane
was full; funds: its owner could not pay; bid: its bid was under the
basefee).

With --json: the cowboy_getTimer answer.`,
		Example: `  cowboy timers show 1`,
		Args:    args("ID"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := timerID(argv[0])
			if err != nil {
				return err
			}
			t, err := a.client().Timer(cmd.Context(), id)
			if errors.Is(err, rpc.ErrNotFound) {
				return fmt.Errorf("timer %d is not pending: it ran, was cancelled or never existed (see cowboy timers receipts %d)", id, id)
			}
			if err != nil {
				return fmt.Errorf("timer %d: %w", id, err)
			}
			if a.jsonOut {
				return a.printJSON(t)
			}
			tb := newTable(a.stdout)
			tb.row("Timer", "%d", uint64(t.ID))
			tb.row("Owner", "%s", t.Owner)
			tb.row("Handler", "%s", t.Handler)
			if t.Value != nil {
				tb.row("Data", "%s", string(t.Value))
			} else {
				tb.row("Data", "%s", t.Data)
			}
			tb.row("Due", "block %d", uint64(t.Due))
			tb.row("Interval", "%s", interval(uint64(t.Interval)))
			tb.row("Tier", "%s", t.Tier)
			gba := "network default (basefee, no tip)"
			if t.GBA != nil {
				gba = t.GBA.String()
			}
			tb.row("GBA", "%s", gba)
			tb.row("Deposit", "%s", amount((*big.Int)(&t.Deposit)))
			tb.row("Scheduled", "block %d", uint64(t.Created))
			tb.row("Runs", "%d", uint64(t.Runs))
			var hist []string
			for _, d := range t.History {
				hist = append(hist, fmt.Sprintf("%d:%s", uint64(d.Height), d.Reason))
			}
			if len(hist) == 0 {
				tb.row("Deferrals", "%d", uint64(t.Deferrals))
			} else {
				tb.row("Deferrals", "%d (last: %s)", uint64(t.Deferrals), strings.Join(hist, " "))
			}
			return tb.flush()
		},
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "receipts ID",
		Short: "Show the receipts of a timer's runs",
		Long: `Show the receipts of timer ID's runs (the last 16, kept 10,000 blocks after the
timer ends): block, status, cycles and cells used, fee, the tip it won
with, and the error with its traceback line when the handler failed.

With --json: the cowboy_getTimerReceipts answer.`,
		Example: `  cowboy timers receipts 1`,
		Args:    args("ID"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			id, err := timerID(argv[0])
			if err != nil {
				return err
			}
			rs, err := a.client().TimerReceipts(cmd.Context(), id)
			if err != nil {
				return fmt.Errorf("receipts of timer %d: %w", id, err)
			}
			if a.jsonOut {
				return a.printJSON(rs)
			}
			if len(rs) == 0 {
				fmt.Fprintf(a.stdout, "timer %d has no receipts (it has not run, or ran more than 10,000 blocks ago)\n", id)
				return nil
			}
			for i, r := range rs {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				tb := newTable(a.stdout)
				tb.row("Block", "%d", uint64(r.BlockNumber))
				tb.row("Handler", "%s", r.Handler)
				status := "success"
				if uint64(r.Status) != types.ReceiptSuccess {
					status = "failed"
				}
				tb.row("Status", "%s", status)
				tb.row("Cycles", "%d", uint64(r.CyclesUsed))
				tb.row("Cells", "%d", uint64(r.CellsUsed))
				tb.row("Fee", "%s (burned %s, tip %s)", amount((*big.Int)(&r.Fee)), amount((*big.Int)(&r.Burned)), amount((*big.Int)(&r.Tip)))
				tb.row("Tip/cycle", "%d", uint64(r.TipPerCycle))
				if r.GBACycles != 0 {
					tb.row("GBA call", "%d cycles, %s (paid by the owner, burned)", uint64(r.GBACycles), amount((*big.Int)(&r.GBAFee)))
				}
				if r.Error != "" {
					tb.row("Error", "%s", r.Error)
				}
				if err := tb.flush(); err != nil {
					return err
				}
			}
			return nil
		},
	})
	return cmd
}

func timerID(s string) (uint64, error) {
	id, err := strconv.ParseUint(s, 0, 64)
	if err != nil || id == 0 {
		return 0, fmt.Errorf("timer id %q: want a positive integer", s)
	}
	return id, nil
}

func interval(n uint64) string {
	if n == 0 {
		return "once"
	}
	return fmt.Sprintf("every %d", n)
}
