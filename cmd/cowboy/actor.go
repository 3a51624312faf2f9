package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/rpc"
)

func (a *app) actorCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "actor",
		Short: "Write, test, deploy, call and query Python actors",
		Long: `An actor is a Python class living on the chain: private persistent state,
methods anyone can call with a transaction, messages to other actors.

  cowboy actor new counter                      # actors/counter/main.py and its test
  cowboy actor test actors/counter              # run the test on an in-memory chain
  cowboy actor deploy actors/counter/main.py --from dev0
  cowboy actor call 0xADDR increment --from dev0
  cowboy actor query 0xADDR get_count           # read-only: no transaction, no fee
  cowboy actor storage 0xADDR                   # every entry of its storage

Arguments and return values are JSON on the command line and canonical CBOR
on chain. Each JSON_ARG is one JSON value (42, "text", [1,2], {"a":1});
an argument that is not valid JSON is taken as a string, so addresses can be
typed bare. See docs/actors.md for the tutorial.`,
		Example: "  cowboy actor new counter\n  cowboy actor test actors/counter",
		Args:    cobra.ArbitraryArgs,
		RunE:    groupRun,
	}
	cmd.AddCommand(a.actorNewCmd(), a.actorTestCmd(), a.actorDeployCmd(), a.actorCallCmd(), a.actorQueryCmd(), a.actorCodeCmd(), a.actorStorageCmd())
	return cmd
}

// sendActorTx sends a deployment or call, prints its receipt and returns
// the failure of an included transaction that failed.
func (a *app) sendActorTx(cmd *cobra.Command, f *txFlags, to *types.Address, value *big.Int, payload []byte) error {
	_, rcpt, err := a.sendTx(cmd.Context(), f, to, value, payload, nil)
	if err != nil || rcpt == nil {
		return err
	}
	rcpt.Error = a.renameActorFile(rcpt.Error)
	for i := range rcpt.Messages {
		rcpt.Messages[i].Error = a.renameActorFile(rcpt.Messages[i].Error)
	}
	if err := a.printActorReceipt(rcpt); err != nil {
		return err
	}
	return failedErr(rcpt)
}

// parseSalt reads --salt: 0x + up to 64 hex digits (left-padded to 32
// bytes), or any other text, whose keccak256 is the salt.
func parseSalt(s string) ([]byte, error) {
	salt := make([]byte, types.SaltSize)
	if s == "" {
		return salt, nil
	}
	if body, ok := strings.CutPrefix(s, "0x"); ok {
		b, err := hex.DecodeString(body)
		if err != nil || len(b) > types.SaltSize {
			return nil, fmt.Errorf("--salt %q: want 0x and at most 64 hex digits, or any text (its keccak256 is used)", s)
		}
		copy(salt[types.SaltSize-len(b):], b)
		return salt, nil
	}
	h := crypto.Keccak256([]byte(s))
	return h[:], nil
}

func (a *app) actorDeployCmd() *cobra.Command {
	var (
		f           txFlags
		salt, value string
	)
	cmd := &cobra.Command{
		Use:   "deploy FILE [JSON_ARGS...] --from K",
		Short: "Deploy an actor from a Python file and wait for the receipt",
		Long: `Deploy the actor in FILE: the node checks that it parses, compiles and imports
only whitelisted modules, then runs its __init__ with JSON_ARGS. The new
actor's address is last_20_bytes(keccak256(creator || salt || code_hash))
(technical spec §1.2), so it is known in advance and the same creator cannot
deploy the same code with the same salt twice; use --salt for another copy.

Deployment costs 50,000 cycles and 100 + code size cells before __init__
runs. Limits and fees default to the node's estimate, which simulates the
deployment.`,
		Example: `  cowboy actor deploy actors/counter/main.py --from dev0
  cowboy actor deploy token.py '"Gold"' '"GLD"' 1000000 --from dev0 --salt v2`,
		Args: argsThenMore("FILE"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			src, err := os.ReadFile(argv[0])
			if err != nil {
				return fmt.Errorf("read %s: %w", argv[0], err)
			}
			cb, err := a.jsonArgs(argv[1:])
			if err != nil {
				return err
			}
			s, err := parseSalt(salt)
			if err != nil {
				return err
			}
			v, err := parseValue(value)
			if err != nil {
				return err
			}
			payload, err := (&types.DeployPayload{Code: string(src), Salt: s, Args: cb}).Encode()
			if err != nil {
				return fmt.Errorf("encode deployment: %w", err)
			}
			if err := checkDeploySize(argv[0], len(src), len(payload)); err != nil {
				return err
			}
			a.actorFile = argv[0]
			return a.sendActorTx(cmd, &f, nil, v, payload)
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().StringVar(&salt, "salt", "", "`S`: 0x + up to 64 hex digits, or any text (hashed); default all zeros")
	cmd.Flags().StringVar(&value, "value", "0", "CBY `V` given to the actor at deployment: 1.5cby or base units")
	mustRequire(cmd, "from")
	return cmd
}

func parseValue(s string) (*big.Int, error) {
	v, err := types.ParseAmount(s)
	if err != nil {
		return nil, fmt.Errorf("--value: %w", err)
	}
	return v, nil
}

func mustRequire(cmd *cobra.Command, names ...string) {
	for _, n := range names {
		if err := cmd.MarkFlagRequired(n); err != nil {
			panic(err) // the flag is defined by the caller
		}
	}
}

func (a *app) actorCallCmd() *cobra.Command {
	var (
		f     txFlags
		value string
	)
	cmd := &cobra.Command{
		Use:   "call ADDR METHOD [JSON_ARGS...] --from K",
		Short: "Call an actor's method in a transaction and wait for the receipt",
		Long: `Send a transaction that calls METHOD on the actor at ADDR with JSON_ARGS,
wait for it, and print the receipt: status, the return value as JSON,
cycles and cells used, fee, events, and one line per message the call
caused. A Python exception in the handler is shown with its type, message
and line, and the command exits 1.

Methods whose names start with "_" cannot be called from outside. --value
sends CBY with the call (the handler sees it as ctx.value).`,
		Example: `  cowboy actor call 0xADDR increment --from dev0
  cowboy actor call 0xADDR transfer 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 25 --from dev0`,
		Args: argsThenMore("ADDR", "METHOD"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			to, err := a.resolveAddress(argv[0])
			if err != nil {
				return fmt.Errorf("ADDR: %w", err)
			}
			cb, err := a.jsonArgs(argv[2:])
			if err != nil {
				return err
			}
			v, err := parseValue(value)
			if err != nil {
				return err
			}
			payload, err := (&types.CallPayload{Method: argv[1], Args: cb}).Encode()
			if err != nil {
				return fmt.Errorf("encode call: %w", err)
			}
			if err := a.mustBeActor(cmd.Context(), to); err != nil {
				return err
			}
			return a.sendActorTx(cmd, &f, &to, v, payload)
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().StringVar(&value, "value", "0", "CBY `V` sent with the call: 1.5cby or base units")
	mustRequire(cmd, "from")
	return cmd
}

func (a *app) actorQueryCmd() *cobra.Command {
	var from, value, cycles string
	cmd := &cobra.Command{
		Use:   "query ADDR METHOD [JSON_ARGS...]",
		Short: "Run an actor's method read-only: no transaction, no fee",
		Long: `Run METHOD on the actor at ADDR against the latest state (cowboy_call) and
print its return value as JSON. Nothing is committed and nothing is paid;
the cycles and cells the call would use are reported on stderr (with
--json, in the object), which is also how fees are estimated.`,
		Example: `  cowboy actor query 0xADDR get_count
  cowboy actor query 0xADDR balance_of '"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"' --json`,
		Args: argsThenMore("ADDR", "METHOD"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			to, err := a.resolveAddress(argv[0])
			if err != nil {
				return fmt.Errorf("ADDR: %w", err)
			}
			raw, err := a.rawArgs(argv[2:])
			if err != nil {
				return err
			}
			rto := rpc.Address(to)
			req := rpc.CallArgs{To: &rto, Method: argv[1], Args: raw}
			if from != "" {
				fa, err := a.resolveAddress(from)
				if err != nil {
					return fmt.Errorf("--from: %w", err)
				}
				rf := rpc.Address(fa)
				req.From = &rf
			}
			if value != "" {
				v, err := parseValue(value)
				if err != nil {
					return err
				}
				req.Value = rpc.NewBigQuantity(v)
			}
			if cycles != "" {
				var n uint64
				if err := optUint(&n, "cycles-limit", cycles); err != nil {
					return err
				}
				q := rpc.Quantity(n)
				req.CyclesLimit = &q
			}
			var res rpc.CallJSON
			if err := a.client().Call(cmd.Context(), &res, "cowboy_call", req); err != nil {
				return err
			}
			return a.printQuery(&res)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "run as `WHO` (the handler's ctx.sender); default the zero address")
	cmd.Flags().StringVar(&value, "value", "", "pretend CBY `V` came with the call")
	cmd.Flags().StringVar(&cycles, "cycles-limit", "", "cap of `N` cycles (default: a transaction's maximum)")
	return cmd
}

func (a *app) actorCodeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "code ADDR",
		Short: "Print the Python source of a deployed actor",
		Long: `Print the canonical source (UTF-8, NFC, LF) the actor at ADDR runs; with
--json, its code hash too.`,
		Example: `  cowboy actor code 0xADDR > counter.py`,
		Args:    args("ADDR"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			addr, err := a.resolveAddress(argv[0])
			if err != nil {
				return fmt.Errorf("ADDR: %w", err)
			}
			var res *rpc.CodeJSON
			err = a.client().Call(cmd.Context(), &res, "cowboy_getCode", rpc.Address(addr))
			if errors.Is(err, rpc.ErrNotFound) || (err == nil && res == nil) {
				return fmt.Errorf("%s is not an actor: it has no code", addr)
			}
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.printJSON(res)
			}
			_, err = fmt.Fprint(a.stdout, res.Source)
			return err
		},
	}
}

// queryView is `cowboy actor query --json`.
type queryView struct {
	Status      string          `json:"status"`
	ReturnValue json.RawMessage `json:"returnValue"`
	CyclesUsed  uint64          `json:"cyclesUsed"`
	CellsUsed   uint64          `json:"cellsUsed"`
	Error       string          `json:"error,omitempty"`
	Events      []eventView     `json:"events"`
}

func (a *app) printQuery(r *rpc.CallJSON) error {
	ok := uint64(r.Status) == types.ReceiptSuccess
	if a.jsonOut {
		v := queryView{Status: "success", ReturnValue: r.ReturnValue, CyclesUsed: uint64(r.CyclesUsed), CellsUsed: uint64(r.CellsUsed),
			Error: r.Error, Events: make([]eventView, len(r.Events))}
		if !ok {
			v.Status = "failed"
		}
		if v.ReturnValue == nil {
			v.ReturnValue = json.RawMessage("null")
		}
		for i, e := range r.Events {
			v.Events[i] = newEventView(e)
		}
		if err := a.printJSON(v); err != nil {
			return err
		}
	} else if ok {
		fmt.Fprintln(a.stdout, jsonText(r.ReturnValue))
		fmt.Fprintf(a.stderr, "(read-only: %s cycles, %s cells would be used)\n", types.GroupDigits(decU(uint64(r.CyclesUsed))), types.GroupDigits(decU(uint64(r.CellsUsed))))
	}
	if !ok {
		return fmt.Errorf("the call failed: %s", r.Error)
	}
	return nil
}

func jsonText(j json.RawMessage) string {
	if j == nil {
		return "null"
	}
	return string(j)
}

func newEventView(e rpc.EventJSON) eventView {
	return eventView{Address: e.Address.String(), Name: e.Name, Data: e.Data.String(), Value: e.Value}
}

// printActorReceipt shows a deploy or call receipt: the transfer receipt's
// rows, plus the actor address, return value and messages.
func (a *app) printActorReceipt(r *rpc.ReceiptJSON) error {
	if a.jsonOut {
		return a.printJSON(newReceiptView(r))
	}
	t := newTable(a.stdout)
	printReceipt(t, r)
	return t.flush()
}

// scaffold is what `cowboy actor new` writes.
var scaffoldMain = `"""{{name}}: a Cowboy actor.

Instance attributes persist between calls; __init__ runs once, at deploy.
Methods starting with "_" cannot be called from outside.
"""


class Actor:
    def __init__(self):
        self.count = 0

    def increment(self, by=1):
        if by <= 0:
            raise ValueError("by must be positive")
        self.count += by
        return self.count

    def get_count(self):
        return self.count
`

var scaffoldTest = `{
  "deploy": {"args": []},
  "steps": [
    {"call": "get_count", "expect": 0},
    {"call": "increment", "expect": 1},
    {"call": "increment", "args": [5], "expect": 6},
    {"call": "increment", "args": [0], "expectError": "ValueError: by must be positive"},
    {"call": "get_count", "expect": 6}
  ]
}
`

var actorName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

func (a *app) actorNewCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "new NAME",
		Short: "Scaffold a new actor: DIR/NAME/main.py and its test",
		Long: `Write DIR/NAME/main.py (a counter actor to start from) and
DIR/NAME/main_test.json (calls and their expected results), then run the
test with ` + "`cowboy actor test DIR/NAME`" + `. Existing files are never
overwritten.`,
		Example: `  cowboy actor new counter
  cowboy actor new vault --dir contracts`,
		Args: args("NAME"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name := argv[0]
			if !actorName.MatchString(name) {
				return fmt.Errorf("actor name %q: use letters, digits, _ and -, starting with a letter or _", name)
			}
			d := filepath.Join(dir, name)
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("create %s: %w", d, err)
			}
			files := []struct{ path, body string }{
				{filepath.Join(d, "main.py"), strings.ReplaceAll(scaffoldMain, "{{name}}", name)},
				{filepath.Join(d, "main_test.json"), scaffoldTest},
			}
			for _, f := range files {
				if _, err := os.Stat(f.path); err == nil {
					return fmt.Errorf("%s already exists; not overwriting it", f.path)
				}
			}
			for _, f := range files {
				if err := os.WriteFile(f.path, []byte(f.body), 0o644); err != nil {
					return fmt.Errorf("write %s: %w", f.path, err)
				}
				fmt.Fprintf(a.stdout, "wrote %s\n", f.path)
			}
			fmt.Fprintf(a.stdout, "next: cowboy actor test %s\n", d)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "actors", "parent `DIR` of the new actor's directory")
	return cmd
}

// errMismatch marks a failed actor test step (already reported).
var errMismatch = errors.New("actor test failed")

func (a *app) actorTestCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "test DIR",
		Short: "Run an actor's main_test.json on an in-memory chain",
		Long: `Deploy DIR/main.py on a fresh in-memory chain (the real executor and PVM, no
node needed) and run the steps of DIR/main_test.json in order, each a call
whose return value or error is compared with what the file expects:

  {"actors": [{"deploy": "../other/main.py", "as": "other", "args": [...]}],
   "deploy": {"args": [...], "value": "1cby"},
   "steps": [{"call": "METHOD", "args": [...], "from": "dev1", "value": "0",
              "to": "other", "expect": JSON} | {..., "expectError": "ValueError: text"}
             | {"deploy": PATH, "as": NAME, "args": [...]}]}

"$NAME" in args and expectations is the address of the actor deployed as
NAME ("$self": the actor under test; "$dev0" … "$dev9": the dev accounts).
"deploy": {"file": "x.py"} tests DIR/x.py instead of DIR/main.py.
"expectError" matches the start of the receipt's error ("Type: message
(main.py, line N)"). Calls come from dev0 unless "from" names another dev
account. Exit status 1 if any step differs.`,
		Example: `  cowboy actor test actors/counter`,
		Args:    args("DIR"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			err := a.runActorTest(argv[0])
			if errors.Is(err, errMismatch) {
				return &exitError{code: 1}
			}
			return err
		},
	}
}

// checkReturn compares a step's JSON return value with the expected JSON,
// semantically (spacing and key order do not matter).
func checkReturn(got json.RawMessage, want json.RawMessage) bool {
	var g, w any
	if json.Unmarshal(normJSON(got), &g) != nil || json.Unmarshal(normJSON(want), &w) != nil {
		return false
	}
	gb, _ := json.Marshal(g)
	wb, _ := json.Marshal(w)
	return bytes.Equal(gb, wb)
}

func normJSON(j json.RawMessage) []byte {
	if len(j) == 0 {
		return []byte("null")
	}
	return j
}
