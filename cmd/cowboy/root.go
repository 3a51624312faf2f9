package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/keystore"
	"github.com/cowboy-chain/cowboy/rpc"
)

// DefaultRPC is where the CLI finds a node when neither --rpc nor
// $COWBOY_RPC says otherwise: cowboyd devnet's default address.
const DefaultRPC = "http://127.0.0.1:8645"

// envRPC names the environment variable that replaces DefaultRPC.
const envRPC = "COWBOY_RPC"

// requestTimeout bounds one JSON-RPC round trip, so a hung node cannot
// hang the CLI forever.
const requestTimeout = 30 * time.Second

// app is one invocation of the CLI: its streams, its global flags, and
// the seams tests replace (the terminal, the keystore's scrypt cost).
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer

	// Global flags.
	rpcURL      string
	keystoreDir string
	jsonOut     bool

	// actorFile is the file being deployed, whose name replaces main.py
	// in error lines (actorcheck.go).
	actorFile string

	// openTTY opens the terminal for passphrase prompts.
	openTTY func() (*os.File, error)
	// ksOptions are passed to keystore.Open; tests make scrypt cheap.
	ksOptions []keystore.Option
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, openTTY: openTTY}
}

// run executes one command line and returns the exit status: 0, or 1
// after printing one "error: ..." line on stderr.
func run(ctx context.Context, a *app, args []string) int {
	root := a.rootCmd()
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		var ee *exitError
		if errors.As(err, &ee) { // already reported (a Python traceback)
			return ee.code
		}
		fmt.Fprintln(a.stderr, "error: "+a.describe(err))
		return 1
	}
	return 0
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "cowboy",
		Short: "Keys, transfers and chain queries for a Cowboy node",
		Long: `cowboy talks to a Cowboy node over JSON-RPC: it keeps your keys in an
encrypted keystore, signs and sends transfers, and shows balances,
transactions, blocks and basefees.

On a devnet (chain id 7777, started with ` + "`cowboyd devnet`" + `), the names
dev0 … dev9 stand for the ten funded dev accounts wherever a key name or an
address is expected.

Amounts are written 1.5cby (CBY, up to 18 decimals) or as a plain integer of
base units (1 CBY = 10^18 base units). Output is for people by default; with
--json it is one JSON document on stdout, with every amount a decimal string
of base units.`,
		Example: `  cowboy balance dev0
  cowboy transfer --from dev0 --to dev1 --value 1.5cby
  cowboy --rpc http://10.0.0.5:8645 block latest --json`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// `cowboy completion bash|zsh|fish|powershell` is cobra's, as cowboyd's.
	root.CompletionOptions.HiddenDefaultCmd = false
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	pf := root.PersistentFlags()
	pf.StringVar(&a.rpcURL, "rpc", "", "node JSON-RPC `URL` (default $"+envRPC+", else "+DefaultRPC+")")
	pf.StringVar(&a.keystoreDir, "keystore", "", "keystore directory `DIR` (default $"+keystore.EnvDir+", else ~/.cowboy/keys)")
	pf.BoolVar(&a.jsonOut, "json", false, "print one JSON document for scripts; amounts as decimal strings of base units")

	root.AddCommand(a.benchCmd(), a.keysCmd(), a.balanceCmd(), a.transferCmd(), a.txCmd(), a.blockCmd(), a.feesCmd(), a.stateCmd(), a.pvmCmd(), a.actorCmd(), a.validatorCmd(), a.volumeCmd(), a.relayCmd(), a.timersCmd(), a.devCmd(), a.runnerCmd(), a.jobsCmd(), a.beaconCmd())
	return root
}

// url is the node's address by precedence: --rpc, $COWBOY_RPC, default.
func (a *app) url() string {
	if a.rpcURL != "" {
		return a.rpcURL
	}
	if u := os.Getenv(envRPC); u != "" {
		return u
	}
	return DefaultRPC
}

func (a *app) client() *rpc.Client {
	return rpc.NewClient(a.url(), &http.Client{Timeout: requestTimeout})
}

// keystore opens the keystore by precedence: --keystore, $COWBOY_KEYSTORE,
// ~/.cowboy/keys.
func (a *app) keystore() (*keystore.Store, error) {
	dir := a.keystoreDir
	if dir == "" {
		d, err := keystore.DefaultDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	return keystore.Open(dir, a.ksOptions...)
}

// describe turns an error into the one line the user reads.
func (a *app) describe(err error) string {
	var op *net.OpError
	if errors.Is(err, rpc.ErrUnreachable) || (errors.As(err, &op) && op.Op == "dial") {
		return fmt.Sprintf("the node is not reachable at %s: start one with `cowboyd devnet`, "+
			"or point --rpc (or $%s) at a running node", rpc.NewClient(a.url(), nil).URL(), envRPC)
	}
	var rerr *rpc.Error
	if errors.As(err, &rerr) && rerr.Code == rpc.CodeTxRejected {
		msg := "the node rejected the transaction: " + rerr.Message
		if r := rerr.RejectReason(); r != "" {
			msg += " (" + r + ")"
		}
		return a.renameActorFile(oneLine(msg))
	}
	if errors.As(err, &rerr) && (rerr.Code == rpc.CodeNotFound || rerr.Code == rpc.CodeLimitExceeded) {
		return oneLine(rerr.Message) // the message says it all; the code is for programs
	}
	return a.renameActorFile(oneLine(err.Error()))
}

// oneLine joins a multi-line message into one line: lines "; "-separated,
// blank lines dropped, and cobra's "Did you mean this?" list folded into
// one question.
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			parts = append(parts, l)
		}
	}
	for i, p := range parts {
		if p == "Did you mean this?" && i+1 < len(parts) {
			head := strings.Join(parts[:i], "; ")
			return head + ": did you mean " + strings.Join(parts[i+1:], " or ") + "?"
		}
	}
	return strings.Join(parts, "; ")
}

// printJSON writes v as indented JSON on stdout.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// args checks the positional arguments against their names, so a missing
// one is reported by name with a pointer to --help.
func args(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, got []string) error {
		if len(got) < len(names) {
			return fmt.Errorf("%s needs %s: see `%s --help`", cmd.CommandPath(), strings.Join(names[len(got):], " "), cmd.CommandPath())
		}
		if len(got) > len(names) {
			return fmt.Errorf("%s takes %d argument(s), got %d (%q): see `%s --help`",
				cmd.CommandPath(), len(names), len(got), strings.Join(got, " "), cmd.CommandPath())
		}
		return nil
	}
}

// argsThenMore is args for commands that take further arguments after
// the named ones (JSON_ARGS...).
func argsThenMore(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, got []string) error {
		if len(got) < len(names) {
			return fmt.Errorf("%s needs %s: see `%s --help`", cmd.CommandPath(), strings.Join(names[len(got):], " "), cmd.CommandPath())
		}
		return nil
	}
}

// optionalArg allows zero or one positional argument.
func optionalArg(name string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, got []string) error {
		if len(got) > 1 {
			return fmt.Errorf("%s takes at most one %s, got %q: see `%s --help`", cmd.CommandPath(), name, strings.Join(got, " "), cmd.CommandPath())
		}
		return nil
	}
}

// groupRun makes a command group (keys, tx) print its help when called
// alone and refuse a mistyped subcommand, instead of silently succeeding.
func groupRun(cmd *cobra.Command, argv []string) error {
	if len(argv) > 0 {
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2 // cobra's default for the root
		}
		if sug := cmd.SuggestionsFor(argv[0]); len(sug) > 0 {
			return fmt.Errorf("unknown command %q for %q: did you mean %s?", argv[0], cmd.CommandPath(), strings.Join(sug, " or "))
		}
		return fmt.Errorf("unknown command %q for %q: see `%s --help`", argv[0], cmd.CommandPath(), cmd.CommandPath())
	}
	return cmd.Help()
}
