// Command cowboy-runner is the runner daemon of the off-chain compute
// market (technical spec §5, docs/runners.md):
//
//	cowboy-runner init --home DIR
//	cowboy-runner start --home DIR --rpc URL --llm-url URL [--listen ADDR]
//	cowboy-runner status --home DIR
//
// init makes the runner's key (DIR/runner.key) and prints its address;
// register that address with `cowboy runner register --home DIR`. start
// watches the chain for jobs assigned to it, executes them (LLM over any
// OpenAI-compatible endpoint, HTTP fetches of its registered domains),
// commits, pushes or collects results, reveals, and is paid; its state
// survives restarts in DIR/state (Pebble). status prints its counters.
package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/daemon"
	"github.com/cowboy-chain/cowboy/runner/executor"
)

func main() {
	if err := newRoot(os.Stdout, os.Stderr).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// KeyFile is the runner's secp256k1 key in its home, hex.
const KeyFile = "runner.key"

// listenFile records the running daemon's push server URL (status reads it).
const listenFile = "listen.txt"

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "cowboy-runner",
		Short:         "Run a runner of the Cowboy off-chain compute market",
		Long:          "cowboy-runner executes off-chain jobs (LLM inference, HTTP fetches) for Cowboy actors and is paid from their escrow; docs/runners.md.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newInit(stdout), newStart(stdout, stderr), newStatus(stdout))
	return root
}

// LoadOrCreateKey reads DIR/runner.key, making it first if absent.
func LoadOrCreateKey(home string) (*crypto.PrivateKey, bool, error) {
	path := filepath.Join(home, KeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
		if err != nil {
			return nil, false, fmt.Errorf("%s: not hex: %w", path, err)
		}
		k, err := crypto.PrivateKeyFromBytes(raw)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		return k, false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	k, err := crypto.GenerateKey()
	if err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, false, err
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(k.Bytes())+"\n"), 0o600); err != nil {
		return nil, false, fmt.Errorf("write %s: %w", path, err)
	}
	return k, true, nil
}

func newInit(stdout io.Writer) *cobra.Command {
	var home string
	cmd := &cobra.Command{
		Use:   "init --home DIR",
		Short: "Make the runner's key and print its address",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if home == "" {
				return errors.New("--home is required")
			}
			k, made, err := LoadOrCreateKey(home)
			if err != nil {
				return err
			}
			verb := "existing"
			if made {
				verb = "new"
			}
			fmt.Fprintf(stdout, "runner %s (%s key %s)\n", types.Address(k.Address()), verb, filepath.Join(home, KeyFile))
			return nil
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "runner home `DIR` (required)")
	return cmd
}

func newStart(stdout, stderr io.Writer) *cobra.Command {
	var (
		home, rpcURL, llmURL, apiKey, listen, fault, logLevel string
		payout, keep                                          string
		challenge                                             bool
		poll                                                  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "start --home DIR --rpc URL --llm-url URL",
		Short: "Run the daemon: watch for jobs, execute, commit, reveal",
		Long: `Run the runner daemon. It serves committee peers' result pushes on --listen
(register that URL as the runner's endpoint), polls the node at --rpc for
jobs whose committee it sits on, runs LLM jobs against the
OpenAI-compatible chat-completions server at --llm-url (temperature 0, the
job's seed) and HTTP jobs against its registered domains, and keeps its
results in DIR/state so a restart reveals what it committed.

With --challenge it also re-executes every economic_bond result another
runner gives for a model or domain it serves, during the result's
challenge window, and challenges a different answer (it pays the
challenge bond and the re-execution's max_price, and gets the bond back
when the challenge is upheld). With --payout ADDR it sends its balance
above --keep (the reserve for fees, bonds and re-executions) to ADDR as it
earns; an exited runner's self-bond is withdrawn once it has unbonded.

--fault lie or timeout makes it misbehave on purpose (tests, devnets).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if home == "" || rpcURL == "" {
				return errors.New("--home and --rpc are required")
			}
			var level slog.Level
			if err := level.UnmarshalText([]byte(logLevel)); err != nil {
				return fmt.Errorf("--log-level %q: want debug, info, warn or error", logLevel)
			}
			log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
			key, _, err := LoadOrCreateKey(home)
			if err != nil {
				return err
			}
			client := rpc.NewClient(rpcURL, &http.Client{Timeout: 30 * time.Second})
			me := types.Address(key.Address())
			var domains []string
			if r, err := client.Runner(cmd.Context(), me); err == nil {
				domains = r.Domains
			} else {
				log.Warn("the runner is not registered yet: it serves no HTTP domains until restarted after registration", "runner", me)
			}
			exec := executor.Kinds{runner.KindHTTP: &executor.HTTP{Domains: domains}}
			if llmURL != "" {
				exec[runner.KindLLM] = &executor.LLM{URL: llmURL, APIKey: apiKey}
			}
			cfg := daemon.Config{Home: home, Key: key, RPC: client, Exec: exec, Listen: listen, Poll: poll, Fault: fault, Log: log, Challenge: challenge}
			if payout != "" {
				a, err := types.ParseAddress(payout)
				if err != nil {
					return fmt.Errorf("--payout: %w", err)
				}
				if a == me {
					return errors.New("--payout is the runner's own address: name another (a cold wallet)")
				}
				cfg.Payout = a
			}
			if cfg.Keep, err = types.ParseAmount(keep); err != nil {
				return fmt.Errorf("--keep: %w", err)
			}
			d, err := daemon.Open(cfg)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := os.WriteFile(filepath.Join(home, listenFile), []byte(d.URL()+"\n"), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "runner %s listening %s\n", me, d.URL())
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return d.Run(ctx)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&home, "home", "", "runner home `DIR` with runner.key and state (required)")
	fl.StringVar(&rpcURL, "rpc", "", "node JSON-RPC `URL` (required)")
	fl.StringVar(&llmURL, "llm-url", "", "OpenAI-compatible server base `URL` for LLM jobs")
	fl.StringVar(&apiKey, "llm-api-key", os.Getenv("COWBOY_LLM_API_KEY"), "bearer `KEY` for --llm-url (default $COWBOY_LLM_API_KEY)")
	fl.StringVar(&listen, "listen", "127.0.0.1:7070", "`ADDR` to serve result pushes, /status and /metrics on")
	fl.StringVar(&fault, "fault", "", "misbehave on purpose: lie or timeout")
	fl.BoolVar(&challenge, "challenge", false, "re-execute other runners' economic_bond results and challenge wrong ones (pays the bond and the re-execution)")
	fl.StringVar(&payout, "payout", "", "send the balance above --keep to this `ADDRESS` as the runner earns")
	fl.StringVar(&keep, "keep", "200cby", "the `AMOUNT` --payout leaves on the runner's key for fees, challenge bonds and re-executions")
	fl.DurationVar(&poll, "poll", 250*time.Millisecond, "how often to ask the node for jobs")
	fl.StringVar(&logLevel, "log-level", "info", "log level: debug, info, warn, error")
	return cmd
}

func newStatus(stdout io.Writer) *cobra.Command {
	var home string
	cmd := &cobra.Command{
		Use:   "status --home DIR",
		Short: "Print the running daemon's counters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			b, err := os.ReadFile(filepath.Join(home, listenFile))
			if err != nil {
				return fmt.Errorf("is the daemon running? %w", err)
			}
			url := strings.TrimSpace(string(b))
			ctx, cancel := context.WithTimeout(cmd.Context(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"status", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return fmt.Errorf("daemon at %s: %w", url, err)
			}
			defer resp.Body.Close()
			var s daemon.StatusJSON
			if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "runner %s\nexecuted %d  commits %d  reveals %d  pushes sent %d  received %d  errors %d\nchecked %d  challenges %d  sweeps %d  withdrawals %d\n",
				s.Runner, s.Executed, s.Commits, s.Reveals, s.PushesSent, s.PushesReceived, s.Errors, s.Checked, s.Challenges, s.Sweeps, s.Withdrawals)
			if s.Payout != "" {
				fmt.Fprintf(stdout, "payout %s\n", s.Payout)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&home, "home", "", "runner home `DIR` (required)")
	return cmd
}
