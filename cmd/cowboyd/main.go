// Command cowboyd runs a Cowboy node.
//
//	cowboyd devnet [--home DIR] [--rpc 127.0.0.1:8645] [--block-time 1s] [--relays N]
//
// starts a single-validator development chain with ten funded accounts.
//
//	cowboyd init --home DIR [--chain-id N]
//	cowboyd start --home DIR [--rpc ADDR] [--p2p ADDR] [--bootstrap PEER,...]
//	cowboyd localnet N --home DIR [--base-port P]
//
// create a validator home, run a validator or full node of a
// multi-validator chain, and run N validators as N processes on loopback
// (docs/localnet.md).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/internal/gctune"
	"github.com/cowboy-chain/cowboy/node"
)

func main() {
	gctune.Start() // the collector policy of a node process (GOGC overrides)
	if err := newRoot(os.Stdout, os.Stderr).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "cowboyd",
		Short:         "Run a Cowboy node",
		Long:          "cowboyd runs a Cowboy node: the chain's store, mempool, block producer and JSON-RPC server.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newDevnet(stdout, stderr), newInit(stdout), newStart(stdout, stderr), newLocalnet(stdout, stderr))
	addPprof(root, stderr)
	return root
}

func defaultHome() string {
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".cowboy", "devnet")
	}
	return ".cowboy-devnet"
}

func newDevnet(stdout, stderr io.Writer) *cobra.Command {
	var (
		home      string
		rpcAddr   string
		blockTime time.Duration
		logLevel  string
		logFormat string
		retain    int
		relays    int
		runnerSim int
		simFaults []string
		rparams   string
	)
	cmd := &cobra.Command{
		Use:   "devnet",
		Short: "Run a single-validator development chain with ten funded accounts",
		Long: `Run a single-validator development chain (chain id 7777).

The chain is kept under --home; stopping and restarting with the same --home
continues the same chain. Ten accounts dev0…dev9 hold 1,000,000 CBY each at
genesis; their keys come from the public test mnemonic
"test test test test test test test test test test test junk" (BIP-44 path
m/44'/60'/0'/0/i), so never send them real value. The cowboy CLI accepts
dev0…dev9 wherever a key or address is expected.

A block is produced every --block-time; with --block-time 0 a block is made
as soon as a transaction arrives. JSON-RPC is served on --rpc.`,
		Example: `  cowboyd devnet
  cowboyd devnet --home /tmp/dev --rpc 127.0.0.1:9000 --block-time 0`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level %q: want debug, info, warn or error", logLevel)
			}
			if blockTime < 0 {
				return errors.New("--block-time must not be negative")
			}
			log, err := newLogger(stderr, logFormat, level)
			if err != nil {
				return err
			}
			if retain < 1 {
				return fmt.Errorf("--retain-heights %d: must be at least 1", retain)
			}
			if relays < 0 || relays > 64 {
				return fmt.Errorf("--relays %d: want 0..64", relays)
			}
			g := genesis.Devnet()
			if g.Runner, err = loadRunnerParams(rparams); err != nil {
				return err
			}
			// A start that fails leaves no new home behind (issue 16): a
			// half-made one would be reused by the next try.
			_, statErr := os.Stat(home)
			fresh := errors.Is(statErr, os.ErrNotExist)
			n, err := node.Open(node.Config{Home: home, BlockTime: blockTime, RPCAddr: rpcAddr, Genesis: g, Logger: log, RetainHeights: retain})
			if err != nil {
				if fresh {
					os.RemoveAll(home)
				}
				return err
			}
			if err := sameRunnerParams(n, g, home); err != nil {
				n.Close()
				return err
			}
			faults, err := parseSimFaults(simFaults, runnerSim)
			if err != nil {
				n.Close()
				return err
			}
			var relayList string
			var followRelays func(context.Context, string)
			if relays > 0 {
				list, stopRelays, follow, err := startDevRelays(home, relays, log)
				if err != nil {
					n.Close()
					return err
				}
				defer stopRelays()
				relayList, followRelays = list, follow
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			runErr := make(chan error, 1)
			go func() { runErr <- n.Run(ctx) }()
			// Run starts the RPC listener first; wait for it before printing.
			for i := 0; i < 200 && n.RPCAddr() == ""; i++ {
				select {
				case err := <-runErr:
					n.Close()
					if fresh {
						os.RemoveAll(home)
					}
					return startHint(err)
				case <-time.After(5 * time.Millisecond):
				}
			}
			printBanner(stdout, n, home, blockTime)
			if runnerSim > 0 {
				desc, stopSim, err := startRunnerSim(ctx, home, "http://"+n.RPCAddr(), runnerSim, faults, log)
				if err != nil {
					stop()
					<-runErr
					n.Close()
					return fmt.Errorf("--runner-sim: %w", err)
				}
				defer stopSim()
				fmt.Fprintf(stdout, "Runner sim     %d runners serving %s: %s\n", runnerSim, strings.Join(SimModels, ", "), desc)
			}
			if relayList != "" {
				followRelays(ctx, n.RPCAddr())
				fmt.Fprintf(stdout, "CBFS relays  %d on 127.0.0.1:%d…  list %s (export COWBOY_RELAYS=%s)\n", relays, devRelayBasePort, relayList, relayList)
			}
			err = <-runErr
			if cerr := n.Close(); err == nil {
				err = cerr
			}
			fmt.Fprintln(stdout, "stopped at height", n.Head().Height)
			return err
		},
	}
	cmd.Flags().StringVar(&home, "home", defaultHome(), "directory holding the chain's data")
	cmd.Flags().StringVar(&rpcAddr, "rpc", "127.0.0.1:8645", "address to serve JSON-RPC on")
	cmd.Flags().DurationVar(&blockTime, "block-time", time.Second, "time between blocks; 0 mines a block as soon as a transaction arrives")
	cmd.Flags().StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	cmd.Flags().StringVar(&logFormat, "log-format", "text", "log format: text (key=value) or json (one object per line)")
	cmd.Flags().IntVar(&retain, "retain-heights", 256, "how many recent heights stay provable (cowboy_getProof with a height)")
	cmd.Flags().IntVar(&runnerSim, "runner-sim", 0, "also run N simulated runners answering LLM jobs for models sim-1 and sim-2 at once (docs/runners.md)")
	cmd.Flags().StringSliceVar(&simFaults, "runner-sim-fault", nil, "make simulated runner I misbehave: I=lie or I=timeout (repeatable)")
	cmd.Flags().StringVar(&rparams, "runner-params", "", runnerParamsHelp)
	cmd.Flags().IntVar(&relays, "relays", 0, "also run N CBFS storage relays on 127.0.0.1:7450… and write HOME/relays.txt (docs/cbfs.md)")
	return cmd
}

// newLogger makes the node's structured logger (log/slog): key=value text
// for people, or one JSON object per line for log pipelines.
func newLogger(w io.Writer, format string, level slog.Level) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: level}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: want text or json", format)
}

// startHint adds what to do to a start that failed because the RPC port
// is taken.
func startHint(err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("%w: another cowboyd (or another program) already listens there; stop it, or serve on another port with --rpc 127.0.0.1:PORT", err)
	}
	return err
}

func printBanner(w io.Writer, n *node.Node, home string, blockTime time.Duration) {
	head := n.Head()
	fmt.Fprintf(w, "Cowboy devnet  chain id %d  home %s\n", n.ChainID(), home)
	fmt.Fprintf(w, "JSON-RPC       http://%s\n", n.RPCAddr())
	fmt.Fprintf(w, "Explorer       http://%s/ (docs/explorer.md)\n", n.RPCAddr())
	if blockTime == 0 {
		fmt.Fprintf(w, "Blocks         on demand (a block as soon as a transaction arrives)\n")
	} else {
		fmt.Fprintf(w, "Blocks         every %s\n", blockTime)
	}
	fmt.Fprintf(w, "Head           height %d  %s\n", head.Height, head.Hash())
	fmt.Fprintf(w, "Validator      %s (receives tips)\n\n", n.Proposer())
	fmt.Fprintf(w, "Dev accounts (mnemonic %q, m/44'/60'/0'/0/i):\n", "test test test test test test test test test test test junk")
	for i := 0; i < genesis.DevAccounts; i++ {
		k, _ := genesis.DevKey(i)
		a, _ := genesis.DevAddress(i)
		_, bal, err := n.Account(a)
		balance := "?"
		if err == nil {
			balance = types.FormatCBY(bal)
		}
		fmt.Fprintf(w, "  dev%d  %s  %s  key 0x%x\n", i, a, balance, k.Bytes())
	}
	fmt.Fprintln(w)
}
