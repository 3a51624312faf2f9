package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/node"
)

// Files of a network home besides the keys (node.NodeKeyFile, BLSKeyFile)
// and the chain's data directory.
const (
	genesisFile = "genesis.json"
	configFile  = "config.json"
	pidFile     = "cowboyd.pid"
	logFile     = "cowboyd.log"
)

// homeConfig is config.json: the addresses `cowboyd start` uses when no
// flag overrides them.
type homeConfig struct {
	RPC       string   `json:"rpc"`
	P2P       string   `json:"p2p"`
	Bootstrap []string `json:"bootstrap,omitempty"` // empty: the other genesis validators
	BlockTime string   `json:"block_time"`
}

func writeHomeConfig(home string, c homeConfig) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, configFile), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", configFile, err)
	}
	return nil
}

func readHomeConfig(home string) (homeConfig, error) {
	c := homeConfig{RPC: "127.0.0.1:8645", P2P: "127.0.0.1:8745", BlockTime: "1s"}
	b, err := os.ReadFile(filepath.Join(home, configFile))
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", filepath.Join(home, configFile), err)
	}
	return c, nil
}

func randomSeed() ([32]byte, error) {
	var s [32]byte
	_, err := rand.Read(s[:])
	return s, err
}

func newInit(stdout io.Writer) *cobra.Command {
	var (
		home     string
		chainID  uint64
		p2pAddr  string
		rpcAddr  string
		join     string
		epochLen uint64
		rparams  string
	)
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create a validator home: keys and a one-validator genesis",
		Long: `Create a validator home in --home:

  node.key      secp256k1 node key: p2p identity and validator address (0600)
  bls.key       BLS12-381 key that signs votes and VRF proofs (0600)
  genesis.json  a genesis with this node as the only validator; the dev
                accounts dev0…dev9 of the devnet hold 1,000,000 CBY each
                (their keys are public: never use it for real value)
  config.json   the RPC and p2p addresses that "cowboyd start" uses

To build a network, collect every validator's entry into one genesis.json
and copy it into each home (or use "cowboyd localnet"). Existing keys are
never overwritten.

With --genesis FILE the home joins an existing chain instead: FILE is
copied as its genesis.json and the node starts as a full node. It becomes
a validator by staking ("cowboy validator register --home DIR"), from the
next epoch boundary on.`,
		Example: `  cowboyd init --home ~/.cowboy/val0 --chain-id 4242
  cowboyd start --home ~/.cowboy/val0

  cowboyd init --home ~/.cowboy/val5 --genesis ~/.cowboy/val0/genesis.json --p2p 127.0.0.1:8750 --rpc 127.0.0.1:8650
  cowboyd start --home ~/.cowboy/val5 --bootstrap 127.0.0.1:8745`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if home == "" {
				return errors.New("--home is required")
			}
			if chainID == 0 {
				return errors.New("--chain-id must not be 0")
			}
			if _, err := os.Stat(filepath.Join(home, genesisFile)); err == nil {
				return fmt.Errorf("%s already exists", filepath.Join(home, genesisFile))
			}
			if join != "" && rparams != "" {
				return errors.New("--runner-params makes a new chain: a joined chain's genesis.json already holds its runner parameters")
			}
			rp, err := loadRunnerParams(rparams)
			if err != nil {
				return err
			}
			if join != "" {
				g, err := genesis.Load(join)
				if err != nil {
					return fmt.Errorf("--genesis: %w", err)
				}
				keys, err := node.GenerateKeys(home)
				if err != nil {
					return err
				}
				if err := g.Save(filepath.Join(home, genesisFile)); err != nil {
					return err
				}
				if err := writeHomeConfig(home, homeConfig{RPC: rpcAddr, P2P: p2pAddr, BlockTime: "1s"}); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "initialised %s\nnode       %s (full node; not in the genesis validator set)\nchain id   %d\ngenesis    %s\n", home, keys.GenesisValidator(0, "").Address, g.ChainID, g.Hash())
				return nil
			}
			keys, err := node.GenerateKeys(home)
			if err != nil {
				return err
			}
			seed, err := randomSeed()
			if err != nil {
				return err
			}
			g := genesis.WithValidators(chainID, uint64(time.Now().Unix()),
				[]genesis.Validator{keys.GenesisValidator(node.DefaultStake, p2pAddr)}, seed)
			withEpochLength(g, epochLen)
			g.Runner = rp
			// A one-member beacon group: its validator can compute R_n alone.
			if err := node.DealGenesisBeacon(g, []*node.NodeKeys{keys}, func(int) string { return home }); err != nil {
				return err
			}
			if err := g.Validate(); err != nil {
				return err
			}
			if err := g.Save(filepath.Join(home, genesisFile)); err != nil {
				return err
			}
			if err := writeHomeConfig(home, homeConfig{RPC: rpcAddr, P2P: p2pAddr, BlockTime: "1s"}); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "initialised %s\nvalidator  %s\nchain id   %d\ngenesis    %s\n", home, keys.GenesisValidator(0, "").Address, chainID, g.Hash())
			return nil
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "directory to create the node's keys, genesis and config in")
	cmd.Flags().Uint64Var(&chainID, "chain-id", genesis.DevnetChainID, "chain id of the new chain")
	cmd.Flags().StringVar(&p2pAddr, "p2p", "127.0.0.1:8745", "UDP address to listen for peers on (written to genesis.json and config.json)")
	cmd.Flags().StringVar(&rpcAddr, "rpc", "127.0.0.1:8645", "address to serve JSON-RPC on (written to config.json)")
	cmd.Flags().StringVar(&join, "genesis", "", "join the chain of this genesis.json (copied into the home) instead of creating one")
	cmd.Flags().Uint64Var(&epochLen, "epoch-length", 0, "blocks per epoch of the new chain (default: the spec's 3,600)")
	cmd.Flags().StringVar(&rparams, "runner-params", "", runnerParamsHelp)
	return cmd
}

func newStart(stdout, stderr io.Writer) *cobra.Command {
	var (
		home      string
		rpcAddr   string
		p2pAddr   string
		bootstrap []string
		blockTime time.Duration
		logLevel  string
		logFormat string
		retain    int
	)
	cmd := &cobra.Command{
		Use:   "start",
		Short: "Run a validator or full node of the chain in --home",
		Long: `Run a node of the chain described by --home/genesis.json.

If the home's node key is in the genesis validator set, the node validates
(proposes, votes; Simplex BFT over QUIC, docs/consensus.md); otherwise it
is a full node that follows and verifies the chain without voting. Blocks
are executed once final; RPC shows finalized blocks only.

Addresses come from --home/config.json unless a flag is given. By default
the node dials every other genesis validator's p2p address. The process id
is written to --home/cowboyd.pid while it runs. Stop it with Ctrl-C or
SIGTERM; kill -9 is safe too (it restarts at the last finalized block).`,
		Example: `  cowboyd start --home ~/.cowboy/val0
  cowboyd start --home /tmp/full --rpc 127.0.0.1:9000 --p2p 127.0.0.1:9100 --bootstrap 0xabc…@127.0.0.1:8745`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level %q: want debug, info, warn or error", logLevel)
			}
			if home == "" {
				return errors.New("--home is required")
			}
			hc, err := readHomeConfig(home)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("rpc") {
				rpcAddr = hc.RPC
			}
			if !cmd.Flags().Changed("p2p") {
				p2pAddr = hc.P2P
			}
			if !cmd.Flags().Changed("bootstrap") && len(hc.Bootstrap) > 0 {
				bootstrap = hc.Bootstrap
			}
			if !cmd.Flags().Changed("block-time") && hc.BlockTime != "" {
				if blockTime, err = time.ParseDuration(hc.BlockTime); err != nil {
					return fmt.Errorf("%s: block_time: %w", configFile, err)
				}
			}
			if blockTime < 0 {
				return errors.New("--block-time must not be negative")
			}
			g, err := genesis.Load(filepath.Join(home, genesisFile))
			if err != nil {
				return fmt.Errorf("%w (run cowboyd init first)", err)
			}
			keys, err := node.LoadKeys(home)
			if err != nil {
				return err
			}
			log, err := newLogger(stderr, logFormat, level)
			if err != nil {
				return err
			}
			if retain < 1 {
				return fmt.Errorf("--retain-heights %d: must be at least 1", retain)
			}
			n, err := node.Open(node.Config{Home: home, Genesis: g, BlockTime: blockTime, RPCAddr: rpcAddr, Logger: log, RetainHeights: retain,
				Network: &node.NetworkConfig{Keys: keys, ListenAddr: p2pAddr, Bootstrap: bootstrap}})
			if err != nil {
				return err
			}
			pid := filepath.Join(home, pidFile)
			if err := os.WriteFile(pid, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
				n.Close()
				return fmt.Errorf("write pid file: %w", err)
			}
			defer os.Remove(pid)
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			runErr := make(chan error, 1)
			go func() { runErr <- n.Run(ctx) }()
			for i := 0; i < 200 && n.RPCAddr() == "" && rpcAddr != ""; i++ {
				select {
				case err := <-runErr:
					n.Close()
					return startHint(err)
				case <-time.After(5 * time.Millisecond):
				}
			}
			role := "full node (follows without voting)"
			if ci, _ := n.Consensus(); ci.Validator >= 0 {
				role = fmt.Sprintf("validator %d of %d", ci.Validator, len(g.Validators))
			}
			fmt.Fprintf(stdout, "Cowboy node  chain id %d  genesis %s  home %s\n", g.ChainID, g.Hash(), home)
			fmt.Fprintf(stdout, "Role         %s, address %s\n", role, n.Proposer())
			fmt.Fprintf(stdout, "JSON-RPC     http://%s\n", n.RPCAddr())
			fmt.Fprintf(stdout, "P2P          %s@%s\n", n.P2PID(), n.P2PAddr())
			fmt.Fprintf(stdout, "Head         height %d  %s\n", n.Head().Height, n.Head().Hash())
			err = <-runErr
			if cerr := n.Close(); err == nil {
				err = cerr
			}
			fmt.Fprintln(stdout, "stopped at height", n.Head().Height)
			return err
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "the node's home (cowboyd init or localnet made it)")
	cmd.Flags().StringVar(&rpcAddr, "rpc", "", "address to serve JSON-RPC on (default: config.json's)")
	cmd.Flags().StringVar(&p2pAddr, "p2p", "", "UDP address to listen for peers on (default: config.json's)")
	cmd.Flags().StringSliceVar(&bootstrap, "bootstrap", nil, "peers to dial, 0x<id>@ip:port or ip:port (default: the other genesis validators)")
	cmd.Flags().DurationVar(&blockTime, "block-time", time.Second, "time a proposer waits before proposing (default: config.json's, else 1s)")
	cmd.Flags().StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	cmd.Flags().StringVar(&logFormat, "log-format", "text", "log format: text (key=value) or json (one object per line)")
	cmd.Flags().IntVar(&retain, "retain-heights", 256, "how many recent heights stay provable (cowboy_getProof with a height)")
	return cmd
}

func newLocalnet(stdout, stderr io.Writer) *cobra.Command {
	var (
		home        string
		basePort    int
		chainID     uint64
		blockTime   time.Duration
		binary      string
		logLevel    string
		epochLength uint64
		rparams     string
	)
	cmd := &cobra.Command{
		Use:   "localnet N",
		Short: "Run N validators on loopback, each its own cowboyd process",
		Long: `Write one genesis and N validator homes --home/node0 … node{N-1}, then
start each as its own "cowboyd start --home DIR/node{i}" process and wait.

Node i serves JSON-RPC on 127.0.0.1:(P+i) and listens for peers on UDP
127.0.0.1:(P+100+i), where P is --base-port (default 8645). Each home holds
its keys, genesis.json, config.json, the chain data, cowboyd.log (the
process's output) and cowboyd.pid while it runs. Any node can be killed and
restarted on its own with "cowboyd start --home DIR/node{i}". If --home
already holds a localnet, it is started again as it was (N must match).

Every validator has the same stake; the dev accounts dev0…dev9 of the devnet
are funded. Ctrl-C stops every node. --log-level is passed to every
"cowboyd start" (debug shows each refused consensus message, p2p
connects and disconnects, and sync attempts in cowboyd.log).`,
		Example: `  cowboyd localnet 4 --home /tmp/lnet
  cowboy --rpc http://127.0.0.1:8646 block latest
  kill -9 $(cat /tmp/lnet/node3/cowboyd.pid); cowboyd start --home /tmp/lnet/node3`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			count, err := strconv.Atoi(args[0])
			if err != nil || count < 1 || count > 100 {
				return fmt.Errorf("N must be a number from 1 to 100, not %q", args[0])
			}
			if home == "" {
				return errors.New("--home is required")
			}
			if basePort <= 0 || basePort+100+count > 65535 {
				return fmt.Errorf("--base-port %d leaves no room for %d nodes", basePort, count)
			}
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level %q: want debug, info, warn or error", logLevel)
			}
			if binary == "" {
				if binary, err = os.Executable(); err != nil {
					return fmt.Errorf("find the cowboyd executable: %w", err)
				}
			}
			if epochLength == 0 {
				return errors.New("--epoch-length must be at least 1 block")
			}
			rp, err := loadRunnerParams(rparams)
			if err != nil {
				return err
			}
			if err := writeLocalnet(home, count, basePort, chainID, blockTime, epochLength, rp); err != nil {
				return err
			}
			return runLocalnet(stdout, stderr, binary, home, count, basePort, logLevel)
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "directory for the N node homes")
	cmd.Flags().IntVar(&basePort, "base-port", 8645, "node i serves RPC on base-port+i and p2p on base-port+100+i")
	cmd.Flags().Uint64Var(&chainID, "chain-id", genesis.DevnetChainID, "chain id of the new chain")
	cmd.Flags().DurationVar(&blockTime, "block-time", time.Second, "time a proposer waits before proposing")
	cmd.Flags().StringVar(&binary, "cowboyd", "", "cowboyd binary to start the nodes with (default: this one)")
	cmd.Flags().MarkHidden("cowboyd")
	cmd.Flags().StringVar(&logLevel, "log-level", "info", "log level of every node (passed to cowboyd start): debug, info, warn, error")
	cmd.Flags().StringVar(&rparams, "runner-params", "", runnerParamsHelp+"; a localnet that exists keeps its own")
	cmd.Flags().Uint64Var(&epochLength, "epoch-length", LocalnetEpochLength, "blocks per epoch in the new genesis: validators registered with `cowboy validator register` join at the next boundary")
	return cmd
}

// LocalnetEpochLength is a localnet's default epoch: 20 blocks instead of
// the spec's 3,600, so that a registered validator joins within seconds.
const LocalnetEpochLength = 20

// withEpochLength sets genesis.json's staking.epoch_length when n > 0.
func withEpochLength(g *genesis.Genesis, n uint64) {
	if n == 0 {
		return
	}
	if g.Staking == nil {
		g.Staking = &genesis.Staking{}
	}
	g.Staking.EpochLength = &n
}

func nodeHome(dir string, i int) string { return filepath.Join(dir, fmt.Sprintf("node%d", i)) }

// writeLocalnet makes the homes and the shared genesis, unless they exist.
func writeLocalnet(dir string, count, basePort int, chainID uint64, blockTime time.Duration, epochLength uint64, rp *genesis.Runner) error {
	if g, err := genesis.Load(filepath.Join(nodeHome(dir, 0), genesisFile)); err == nil {
		if len(g.Validators) != count {
			return fmt.Errorf("%s holds a localnet of %d validators, not %d", dir, len(g.Validators), count)
		}
		return nil
	}
	var vals []genesis.Validator
	var all []*node.NodeKeys
	for i := 0; i < count; i++ {
		keys, err := node.GenerateKeys(nodeHome(dir, i))
		if err != nil {
			return err
		}
		all = append(all, keys)
		vals = append(vals, keys.GenesisValidator(node.DefaultStake, fmt.Sprintf("127.0.0.1:%d", basePort+100+i)))
	}
	seed, err := randomSeed()
	if err != nil {
		return err
	}
	g := genesis.WithValidators(chainID, uint64(time.Now().Unix()), vals, seed)
	withEpochLength(g, epochLength)
	g.Runner = rp
	if err := node.DealGenesisBeacon(g, all, func(i int) string { return nodeHome(dir, i) }); err != nil {
		return err
	}
	if err := g.Validate(); err != nil {
		return err
	}
	for i := 0; i < count; i++ {
		h := nodeHome(dir, i)
		if err := g.Save(filepath.Join(h, genesisFile)); err != nil {
			return err
		}
		hc := homeConfig{RPC: fmt.Sprintf("127.0.0.1:%d", basePort+i), P2P: fmt.Sprintf("127.0.0.1:%d", basePort+100+i), BlockTime: blockTime.String()}
		if err := writeHomeConfig(h, hc); err != nil {
			return err
		}
	}
	return nil
}

// runLocalnet starts one cowboyd per home and waits for Ctrl-C (then stops
// them all) or for every node to exit.
func runLocalnet(stdout, stderr io.Writer, binary, dir string, count, basePort int, logLevel string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	procs := make([]*exec.Cmd, count)
	var wg sync.WaitGroup
	allDone := make(chan struct{})
	stopAll := func() {
		for _, p := range procs {
			if p != nil && p.Process != nil {
				p.Process.Signal(syscall.SIGTERM)
			}
		}
	}
	for i := 0; i < count; i++ {
		h := nodeHome(dir, i)
		lf, err := os.OpenFile(filepath.Join(h, logFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			stopAll()
			return fmt.Errorf("open log: %w", err)
		}
		c := exec.Command(binary, "start", "--home", h, "--log-level", logLevel)
		c.Stdout, c.Stderr = lf, lf
		if err := c.Start(); err != nil {
			lf.Close()
			stopAll()
			return fmt.Errorf("start node %d: %w", i, err)
		}
		procs[i] = c
		os.WriteFile(filepath.Join(h, pidFile), []byte(strconv.Itoa(c.Process.Pid)+"\n"), 0o644)
		fmt.Fprintf(stdout, "node%d  pid %-7d rpc http://127.0.0.1:%d  p2p 127.0.0.1:%d  log %s\n",
			i, c.Process.Pid, basePort+i, basePort+100+i, filepath.Join(h, logFile))
		wg.Add(1)
		go func(i int, c *exec.Cmd, lf *os.File) {
			defer wg.Done()
			err := c.Wait()
			lf.Close()
			fmt.Fprintf(stderr, "node%d exited: %v\n", i, errOrOK(err))
		}(i, c, lf)
	}
	fmt.Fprintf(stdout, "localnet of %d validators in %s; Ctrl-C stops them all\n", count, dir)
	go func() { wg.Wait(); close(allDone) }()
	select {
	case <-ctx.Done():
		stopAll()
		<-allDone
	case <-allDone:
	}
	return nil
}

func errOrOK(err error) string {
	if err == nil {
		return "ok"
	}
	return strings.TrimSpace(err.Error())
}
