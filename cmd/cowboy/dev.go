package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
)

// devCmd is `cowboy dev …`, the devnet controls (docs/devnet.md "Devnet
// controls"), each one RPC dev_* call.
func (a *app) devCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dev",
		Short: "Drive a devnet: mine, snapshot and revert, set balances and time, impersonate",
		Long: `Devnet controls, served only by ` + "`cowboyd devnet`" + ` (a node in a validator
network refuses them). Each change is made by a block the command mines,
and the command prints that block (with --json: {"height", "hash", "time",
"stateRoot"}).

A snapshot is just a block: revert takes the height or hash that snapshot
printed, as long as it is among the node's retained heights (the last 256
by default).`,
		Example: `  cowboy dev mine 5
  cowboy dev snapshot
  cowboy dev revert 12
  cowboy dev set-balance dev3 1000cby
  cowboy dev faucet 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF
  cowboy dev increase-time 3600
  cowboy dev impersonate 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --to dev1 --value 1cby`,
		RunE: groupRun,
	}
	show := func(cmd *cobra.Command, verb string, b *rpc.DevBlockJSON, err error) error {
		if err != nil {
			return fmt.Errorf("dev %s: %w", verb, err)
		}
		return a.printDevBlock(b)
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "mine [N]",
		Short: "Mine N blocks now (default 1)",
		Long:  "Mine N blocks now (default 1, at most 10,000) with what the mempool holds; prints the head.",
		Example: `  cowboy dev mine
  cowboy dev mine 10 --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, argv []string) error {
			n := uint64(1)
			if len(argv) == 1 {
				v, err := strconv.ParseUint(argv[0], 10, 64)
				if err != nil || v == 0 {
					return fmt.Errorf("dev mine: N must be a positive integer, not %q", argv[0])
				}
				n = v
			}
			blocks, err := a.client().DevMine(cmd.Context(), n)
			if err != nil {
				return fmt.Errorf("dev mine: %w", err)
			}
			if a.jsonOut {
				return a.printJSON(blocks)
			}
			last := blocks[len(blocks)-1]
			fmt.Fprintf(a.stdout, "Mined %d block(s); the head is %d %s\n", len(blocks), uint64(last.Height), last.Hash)
			return nil
		},
	}, &cobra.Command{
		Use:   "snapshot",
		Short: "Print the head, to revert to later",
		Long:  "Print the head block: a snapshot costs nothing, since the node keeps the last 256 heights to revert to.",
		Example: `  cowboy dev snapshot
  cowboy dev snapshot --json`,
		Args: args(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := a.client().DevSnapshot(cmd.Context())
			return show(cmd, "snapshot", b, err)
		},
	}, &cobra.Command{
		Use:   "revert HEIGHT|HASH",
		Short: "Rewind the chain to a retained block",
		Long:  "Rewind the chain to a retained block by height or hash: state, receipts and blocks above it, in one atomic write that survives a restart.",
		Example: `  cowboy dev revert 12
  cowboy dev revert 0x9c19bfc3832252ed12d83bdbf83cdb2f791343ec32339f73db6d0774e08ad904`,
		Args: args("HEIGHT|HASH"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			ref := argv[0]
			if !strings.HasPrefix(ref, "0x") {
				h, err := strconv.ParseUint(ref, 10, 64)
				if err != nil {
					return fmt.Errorf("dev revert: %q is neither a height nor a block hash (0x + 64 hex digits)", ref)
				}
				ref = rpc.Quantity(h).String()
			} else if len(ref) == 66 {
				if _, err := types.ParseHash(ref); err != nil {
					return fmt.Errorf("dev revert: %w", err)
				}
			}
			b, err := a.client().DevRevert(cmd.Context(), ref)
			return show(cmd, "revert", b, err)
		},
	}, &cobra.Command{
		Use:   "set-balance WHO AMOUNT",
		Short: "Set an account's balance (the supply changes by the difference)",
		Long:  "Mine a block that first sets WHO's balance to AMOUNT (1.5cby or base units), minting or burning the difference.",
		Example: `  cowboy dev set-balance dev3 5cby
  cowboy dev set-balance 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF 0`,
		Args: args("WHO", "AMOUNT"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			v, err := types.ParseAmount(argv[1])
			if err != nil {
				return fmt.Errorf("dev set-balance: AMOUNT: %w", err)
			}
			b, err := a.client().DevSetBalance(cmd.Context(), addr, v)
			return show(cmd, "set-balance", b, err)
		},
	}, a.devFaucetCmd(show), a.devImpersonateCmd(), &cobra.Command{
		Use:     "set-time UNIX_SECONDS",
		Short:   "Mine a block with this timestamp; later blocks continue from it",
		Long:    "Mine a block whose timestamp is UNIX_SECONDS (not below the head's); later blocks continue from it on the clock.",
		Example: `  cowboy dev set-time 4102444800`,
		Args:    args("UNIX_SECONDS"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			t, err := strconv.ParseUint(argv[0], 10, 64)
			if err != nil {
				return fmt.Errorf("dev set-time: %q is not a unix time in seconds", argv[0])
			}
			b, err := a.client().DevSetTime(cmd.Context(), t)
			return show(cmd, "set-time", b, err)
		},
	}, &cobra.Command{
		Use:   "increase-time SECONDS",
		Short: "Move block time forward and mine a block",
		Long:  "Add SECONDS to the devnet's clock and mine a block with the new time; later blocks keep the offset.",
		Example: `  cowboy dev increase-time 3600
  cowboy dev impersonate 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --to dev1 --value 1cby`,
		Args: args("SECONDS"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			s, err := strconv.ParseUint(argv[0], 10, 64)
			if err != nil || s == 0 {
				return fmt.Errorf("dev increase-time: SECONDS must be a positive integer, not %q", argv[0])
			}
			b, err := a.client().DevIncreaseTime(cmd.Context(), s)
			return show(cmd, "increase-time", b, err)
		},
	})
	return cmd
}

func (a *app) devFaucetCmd(show func(*cobra.Command, string, *rpc.DevBlockJSON, error) error) *cobra.Command {
	var value string
	cmd := &cobra.Command{
		Use:   "faucet WHO [--value V]",
		Short: "Mint CBY to an account (default 100cby, at most 1,000,000cby)",
		Long:  "Mine a block that first mints --value to WHO (an address, key name or dev0 … dev9).",
		Example: `  cowboy dev faucet dev3
  cowboy dev faucet 0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF --value 2.5cby`,
		Args: args("WHO"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return err
			}
			v, err := parseValue(value)
			if err != nil {
				return err
			}
			b, err := a.client().DevFaucet(cmd.Context(), addr, v)
			return show(cmd, "faucet", b, err)
		},
	}
	cmd.Flags().StringVar(&value, "value", "100cby", "amount `V` to mint: 1.5cby or base units")
	return cmd
}

func (a *app) printDevBlock(b *rpc.DevBlockJSON) error {
	if a.jsonOut {
		return a.printJSON(b)
	}
	t := newTable(a.stdout)
	t.row("Height", "%d", uint64(b.Height))
	t.row("Hash", "%s", b.Hash)
	t.row("Time", "%d", uint64(b.Time))
	t.row("State root", "%s", b.StateRoot)
	return t.flush()
}
