// Command cbfs-relay runs a CBFS storage relay: it keeps encrypted shards
// and sealed manifests for volumes on local disk (Pebble) and serves them
// over QUIC to holders of capability tokens (docs/cbfs.md).
//
//	cbfs-relay start --home DIR [--listen 127.0.0.1:7450] [--capacity 64GiB] [--rpc URL [--stake V] [--addr IP:PORT]]
//	cbfs-relay id --home DIR
//
// On start it writes DIR/relay.json ({"id","addr"}), the line a client's
// relay list needs. With --stake (and --rpc) it first registers the relay
// in the Relay Registry 0x0B unless it is registered already.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/cbfs/cluster"
	"github.com/cowboy-chain/cowboy/cbfs/relay"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/cmd/internal/chainfeed"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := newRoot(ctx, os.Stdout, os.Stderr)
	cmd.SetArgs(os.Args[1:])
	if err := cmd.Execute(); err != nil {
		os.Exit(1)
	}
}

func newRoot(ctx context.Context, stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{Use: "cbfs-relay", Short: "CBFS storage relay", SilenceUsage: true}
	root.SetOut(stdout)
	root.SetErr(stderr)
	var home, listen, capacity, rpcURL, cpuProfile, stake, pubAddr string
	var follow time.Duration
	var procs int
	var noTCP bool
	start := &cobra.Command{
		Use:   "start",
		Short: "Run the relay until interrupted",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if procs < 0 {
				return fmt.Errorf("--procs %d: want 0 (every core) or more", procs)
			}
			if procs > 0 {
				runtime.GOMAXPROCS(procs)
			}
			capBytes, err := parseSize(capacity)
			if err != nil {
				return err
			}
			var stakeV *big.Int
			if stake != "" {
				if rpcURL == "" {
					return errors.New("--stake needs --rpc URL: the relay registers through a node")
				}
				if stakeV, err = types.ParseAmount(stake); err != nil {
					return fmt.Errorf("--stake: %w", err)
				}
			}
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return fmt.Errorf("cpu profile: %w", err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return fmt.Errorf("cpu profile: %w", err)
				}
				defer pprof.StopCPUProfile()
			}
			key, err := loadOrCreateKey(home)
			if err != nil {
				return err
			}
			log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
			srv, err := relay.New(relay.Config{Dir: filepath.Join(home, "db"), Listen: listen, NoTCP: noTCP, Key: key, Limits: relay.Limits{Capacity: capBytes}, Log: log})
			if err != nil {
				return err
			}
			if err := srv.Start(); err != nil {
				srv.Close()
				return err
			}
			info := cluster.RelayInfo{ID: srv.ID(), Addr: srv.Addr()}
			if stakeV != nil {
				// Registered before relay.json exists and before following the
				// chain: a relay that failed to register does not serve.
				reg := info.Addr
				if pubAddr != "" {
					reg = pubAddr
				}
				if err := ensureRegistered(ctx, rpc.Dial(rpcURL), key, reg, capBytes, stakeV, stdout); err != nil {
					srv.Close()
					return err
				}
			}
			b, _ := json.Marshal(info)
			if err := writeFileAtomic(filepath.Join(home, "relay.json"), append(b, '\n')); err != nil {
				srv.Close()
				return err
			}
			fmt.Fprintf(stdout, "cbfs-relay %s listening (capacity %d bytes)\n", info, capBytes)
			// The chain followers read and write the relay's store: they end
			// (ctx is done) before it closes, or a sync still running at the
			// stop would reach a closed Pebble and panic.
			var followers sync.WaitGroup
			if rpcURL != "" {
				node := rpc.Dial(rpcURL)
				followers.Add(2)
				go func() {
					defer followers.Done()
					srv.FollowChain(ctx, &chainfeed.RPC{Client: node}, follow)
				}()
				go func() {
					defer followers.Done()
					(&chainfeed.Responder{Client: node, Key: key, Server: srv, Log: log}).Run(ctx, follow)
				}()
				fmt.Fprintf(stdout, "following revocations, evictions and custody challenges on %s every %s\n", rpcURL, follow)
			}
			<-ctx.Done()
			fmt.Fprintln(stdout, "cbfs-relay stopping")
			followers.Wait()
			return srv.Close()
		},
	}
	start.Flags().StringVar(&home, "home", "", "relay directory (key, store, relay.json)")
	start.Flags().StringVar(&listen, "listen", "127.0.0.1:7450", "address to serve on: QUIC on UDP, and shard transfers over TLS on TCP at the same port (port 0: any port free on both)")
	start.Flags().BoolVar(&noTCP, "no-tcp", false, "serve QUIC only: no TCP listener (clients then move shards over QUIC)")
	start.Flags().StringVar(&capacity, "capacity", "64GiB", "bytes of shards to accept (suffixes KiB MiB GiB TiB)")
	start.Flags().StringVar(&rpcURL, "rpc", "", "a node's RPC `URL`: follow the token revocations and volume evictions recorded in 0x0A, and answer custody challenges in 0x0B")
	start.Flags().StringVar(&stake, "stake", "", "bond stake `V` (at least 1000cby) and register the relay in 0x0B through --rpc, paid by DIR/relay.key; skipped if it is registered already")
	start.Flags().StringVar(&pubAddr, "addr", "", "the public `IP:PORT` to register with --stake (default: the listening address)")
	start.Flags().DurationVar(&follow, "follow-every", 2*time.Second, "how often to read new 0x0A events from --rpc (the bound on their delay)")
	start.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the relay to `FILE` until it stops (SIGINT or SIGTERM)")
	// Relays sharing a few cores (a devnet, six relays on two cores) spend
	// 10–15% less CPU per put or get with one thread running Go code each:
	// fewer threads spinning and waking for quic-go's packet hand-offs
	// (docs/benchmarks.md, the issue-15 fourth-session section).
	start.Flags().IntVar(&procs, "procs", 0, "at most `N` threads running Go code at once (GOMAXPROCS); 0: one per core")
	start.MarkFlagRequired("home")
	id := &cobra.Command{
		Use:   "id",
		Short: "Print the relay's node address (creating its key if needed)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			key, err := loadOrCreateKey(home)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "0x%x\n", key.Address())
			return nil
		},
	}
	id.Flags().StringVar(&home, "home", "", "relay directory")
	id.MarkFlagRequired("home")
	root.AddCommand(start, id)
	return root
}

// loadOrCreateKey is the relay's node key under --home.
func loadOrCreateKey(home string) (*crypto.PrivateKey, error) {
	if home == "" {
		return nil, errors.New("--home is required")
	}
	return relay.LoadOrCreateKey(home)
}

func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// parseSize reads "123", "64GiB", "500MiB".
func parseSize(s string) (uint64, error) {
	mult := uint64(1)
	for _, u := range []struct {
		suf string
		m   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"B", 1}} {
		if t, ok := strings.CutSuffix(s, u.suf); ok {
			s, mult = t, u.m
			break
		}
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n == 0 || n > (1<<63)/mult {
		return 0, fmt.Errorf("size %q: want a positive number with an optional KiB/MiB/GiB/TiB suffix", s)
	}
	return n * mult, nil
}
