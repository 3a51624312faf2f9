//go:build linux

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/chain/genesis"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/crypto"
	"github.com/cowboy-chain/cowboy/keystore"
)

// The docs' transcripts: every line `$ cowboy …` in docs/*.md, fenced or
// indented, is a command a reader may type. TestDocsCommands checks that
// each one is run by a test against a fresh devnet: the pages with a
// tutorial test of their own (actors.md, timers.md, devnet.md) by it, the
// reference docs/cli.md here, in order. The few that cannot run here are
// listed in notRun with the reason; a new command in the docs that is in
// neither fails the test.

// docsPagesWithTutorials are the pages whose transcripts other tests run.
var docsPagesWithTutorials = map[string]string{
	"actors.md": "TestActorTutorial",
	"timers.md": "TestTimersTutorial",
	"devnet.md": "TestDevnetControlsTutorial",
	"cbfs.md":   "TestCBFSTutorial",
}

// docsPagesRunWhole are the pages a test in another package reads and
// runs whole: every `$ ` line, whatever the program, run or listed there
// with its reason (that test fails on any other line).
var docsPagesRunWhole = map[string]string{
	"localnet.md": "cmd/cowboyd's TestLocalnetTutorial (localnetNotRun)",
}

// notRun are the transcript lines of docs/cli.md that this test does not
// run, and why.
var notRun = map[string]string{
	"cowboy actor call 0xTOKEN transfer dev1 25 --from dev0":                                                     "0xTOKEN and 0xPAYROLL stand for any actor: TestNamesInJSONArgs runs names inside JSON arguments",
	`cowboy actor call 0xPAYROLL pay '[{"to": "@alice", "amount": 5}, {"to": "dev2", "amount": 7}]' --from dev0`: "as above",
	"pass show cowboy/bot | cowboy keys import bot --password-file pw.txt":                                       "reads the key from another program (the same import from a file runs)",
	"cowboy validator register --home ~/.cowboy/node4 --stake 10cby":                                             "needs a validator home (cowboyd init); cmd/cowboyd's TestBecomeValidatorProcesses runs the real registration",
	"cowboy timers list 0x1514657329185bfaf08d731e65761CaA7F1Ae4a4":                                              "the timers commands run in docs/timers.md's transcript (TestTimersTutorial)",
	"cowboy timers show 1":                                                                                           "as above",
	"cowboy timers receipts 3":                                                                                       "as above",
	"cowboy completion bash > /etc/bash_completion.d/cowboy":                                                         "writes outside the test's directory; TestCompletionAndSuggestions runs `cowboy completion`",
	"source <(cowboy completion zsh)":                                                                                "a shell builtin",
	"cd sdk/python && /usr/bin/python3 examples/counter.py":                                                          "not the CLI: sdk/python's TestPythonClient runs examples/counter.py",
	"cowboyd devnet --block-time 200ms --runner-sim 3 --runner-sim-fault 2=lie":                                      "cmd/cowboy-runner's TestRunnersTutorial runs docs/runners.md's first transcript, this devnet and the cowboy lines after it",
	"cowboy actor deploy cmd/cowboy-runner/testdata/oracle.py --from dev2 --value 100cby":                            "as above",
	`cowboy actor call $ORACLE ask '"Is the sky blue? Answer yes or no."' '"sim-1"' 1000000000000000000 --from dev2`: "as above",
	"cowboy jobs show 1":                          "as above",
	"cowboy actor query $ORACLE answers":          "as above",
	"cowboy runner list":                          "as above",
	"cowboy jobs list":                            "as above",
	"cowboy-runner init --home ~/.cowboy/runner1": "a runner operator's home; cmd/cowboy-runner's TestEndToEnd runs init, register, delegate and start for three daemons with test homes and ports",
	"cowboy transfer --from dev0 --to 0x1442773248436f2412B7825E5b269EBd2f8d5400 --value 20000cby":                                            "funds the operator key of the line above (a fresh key each run); TestEndToEnd funds its runners the same way",
	"cowboy beacon verify 12 --genesis localnet/node0/genesis.json":                                                                           "needs a validator network with a beacon key (the devnet has none); TestBeaconVerify runs it against one",
	"cowboy runner register --home ~/.cowboy/runner1 --stake 10000cby --models sim-1 --rate-card card.json --endpoint http://127.0.0.1:7071/": "needs a runner home (cowboy-runner init); cmd/cowboy-runner's TestEndToEnd registers three runners",
	"cat card.json": "shows a file, not the CLI",
	"cowboy runner register --home ~/.cowboy/runner1 --stake 10000cby --models sim-1 --rate-card card.json --endpoint http://127.0.0.1:7071/ --max-job-value 100cby": "as for cowboy-runner init: TestEndToEnd registers its runners",
	"cowboy-runner start --home ~/.cowboy/runner1 --rpc http://127.0.0.1:8645 --llm-url http://127.0.0.1:8080 --listen 127.0.0.1:7071":                               "as above: TestEndToEnd starts three daemons",
	"cowboy runner delegate 0x1442773248436f2412B7825E5b269EBd2f8d5400 --value 5000cby --from dev1":                                                                  "the runner of the lines above; TestEndToEnd delegates to its liar and checks the delegator is slashed; chain/system/runner's registry tests cover undelegate and withdraw",
	"cowboy runner show 0x1442773248436f2412B7825E5b269EBd2f8d5400":                                                                                                  "as above",
	"cowboy runner undelegate 0x1442773248436f2412B7825E5b269EBd2f8d5400 --value 5000cby --from dev1":                                                                "as above",
	"cowboy runner withdraw 0x1442773248436f2412B7825E5b269EBd2f8d5400 --from dev1":                                                                                  "as above",
	"cowboy volume create logs --k 4 --m 2 --from dev0 --deposit 1cby":                                                                                               "needs relays: TestCBFSTutorial runs the same create (docs/cbfs.md) with six",
	"cowboy volume repair logs --every 10m --from dev0":                                                                                                              "needs relays and runs until Ctrl-C: cbfs/cluster's TestRepairDaemon runs the repair daemon, cmd/cbfs-relay's TestClusterKillAndRepair a repair after two relays died",
	"cowboy volume mount logs /mnt/logs --from dev0":                                                                                                                 "FUSE: cbfs/mount's TestPOSIXScriptMatchesLocalDir mounts a volume",
	"cowboy volume audit logs --challenge --every 1h --from dev0":                                                                                                    "needs relays and runs until Ctrl-C: TestRelayAnswersChallenges runs audit and audit --challenge once each",
	"cowboyd devnet --block-time 0 &":                                                                                                                                "TestDocsCommands runs its own devnet",
	"cowboy bench transfers --n 20000":                                                                                                                               "prints measured rates, which differ per run: TestBenchTransfers runs bench transfers (150 and 130 transfers) and checks its JSON",
	"cowboy --rpc http://127.0.0.1:8645 bench transfers --n 5000 --senders 100 --json":                                                                               "as above",
	"pip install ./sdk/python": "installs into the user's Python: sdk/python's TestPipInstall runs the same install into a temporary --target and imports the package from it",
	"go test ./sdk/python/":    "the test command itself (TestPythonClient, TestPipInstall and the Python unit tests)",
	// docs/cbfs.md: TestCBFSTutorial runs the cowboy lines.
	"cowboyd devnet --relays 6 --block-time 0          # a chain and six local relays": "its relays take fixed ports (7450…), which a test may not: TestCBFSTutorial runs an in-process devnet and six in-process relays on free ports in its place",
	"export COWBOY_RELAYS=~/.cowboy/devnet/relays.txt   # printed by the devnet":       "a shell builtin: TestCBFSTutorial sets $COWBOY_RELAYS to its relays' list",
	"cowboy volume mount logs /mnt/logs --from dev0 &":                                 "FUSE: cbfs/mount's TestPOSIXScriptMatchesLocalDir mounts a volume and runs ls, cat, cp, mv, rm in it, then unmounts",
	"ls /mnt/logs; cat /mnt/logs/audit-2026-11.jsonl | head":                           "as above",
	"cp big.parquet /mnt/logs/data/          # uploaded when cp closes the file":       "as above",
	"mv /mnt/logs/data/big.parquet /mnt/logs/archive/":                                 "as above",
	"rm /mnt/logs/old.log":     "as above",
	"fusermount3 -u /mnt/logs": "as above",
	"cat runner-params.json":   "cmd/cowboy-runner's TestRunnerParamsDocs runs docs/runners.md's parameters transcript: this file, the devnet and the cowboy line after it",
	"cowboyd devnet --block-time 200ms --runner-sim 3 --runner-params runner-params.json": "as above",
	"cowboy runner params": "as above",
}

// withoutEnv is a command line without its leading VAR=value assignments.
func withoutEnv(cmd string) string {
	_, rest := envPrefix(cmd)
	return rest
}

// docStep is one `$ ` line of a page and the output shown under it.
type docStep struct {
	line     int
	indented bool   // in an indented block (tutorialSteps reads only fenced, unindented lines)
	cmd      string // after "$ "
	want     []string
}

var dollarRE = regexp.MustCompile(`^(\s*)\$ (.*)$`)

// docSteps reads every `$ ` line of a page, fenced or indented, with the
// lines under it up to the next `$ ` line, the end of the fence, or (in an
// indented block) the first line indented less.
func docSteps(text string) []docStep {
	lines := strings.Split(text, "\n")
	var steps []docStep
	for i := 0; i < len(lines); i++ {
		m := dollarRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent := m[1]
		st := docStep{line: i + 1, indented: indent != "", cmd: strings.TrimSpace(m[2])}
		for i+1 < len(lines) {
			next := lines[i+1]
			if dollarRE.MatchString(next) || strings.HasPrefix(strings.TrimSpace(next), "```") {
				break
			}
			if strings.TrimSpace(next) == "" {
				// A blank line ends an indented block unless the block goes on.
				j := i + 1
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				if indent == "" || j >= len(lines) || !strings.HasPrefix(lines[j], indent) || dollarRE.MatchString(lines[j]) {
					break
				}
				i = j - 1
				continue
			}
			if indent != "" && !strings.HasPrefix(next, indent) {
				break
			}
			st.want = append(st.want, strings.TrimPrefix(next, indent))
			i++
		}
		steps = append(steps, st)
	}
	return steps
}

// hexTokenRE is an address or a hash, or the docs' 0x… for "any".
var hexTokenRE = regexp.MustCompile(`0x(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{40}|…)`)

// docsNorm masks what differs per run and is not a token: block times
// (the wall clock) and proof sizes (the proposer's random key is in the
// state, so the tree's shape differs).
var (
	docsTimeRE  = regexp.MustCompile(`^(Time +).*$`)
	docsProofRE = regexp.MustCompile(`^(Proof +)\d+ bytes$`)
)

func docsNorm(s string) string {
	s = strings.TrimRight(s, " ")
	s = docsTimeRE.ReplaceAllString(s, "${1}…")
	return docsProofRE.ReplaceAllString(s, "${1}… bytes")
}

// matcher compares a transcript with what the commands print. A token
// (address or hash) the docs show that is not a dev account's stands for
// whatever the run printed in its place the first time; from then on it
// must be that value everywhere, and commands that quote it get the run's
// value. 0x… matches any token, and a line "..." or "…" any lines.
type matcher struct {
	bound map[string]string
	dev   map[string]bool
}

func newMatcher(t *testing.T) *matcher {
	m := &matcher{bound: map[string]string{}, dev: map[string]bool{}}
	for i := 0; i < 10; i++ {
		k, err := genesis.DevKey(i)
		if err != nil {
			t.Fatal(err)
		}
		m.dev[types.Address(k.Address()).Hex()] = true
	}
	return m
}

// subst replaces bound tokens in a command line with the run's values.
func (m *matcher) subst(s string) string {
	return hexTokenRE.ReplaceAllStringFunc(s, func(tok string) string {
		if v, ok := m.bound[tok]; ok {
			return v
		}
		return tok
	})
}

// line matches one line, returning the new bindings it needs.
func (m *matcher) line(want, got string) (map[string]string, bool) {
	want, got = docsNorm(want), docsNorm(got)
	wt, gt := hexTokenRE.FindAllStringIndex(want, -1), hexTokenRE.FindAllStringIndex(got, -1)
	if len(wt) != len(gt) {
		return nil, false
	}
	add := map[string]string{}
	wp, gp := 0, 0
	for i := range wt {
		if want[wp:wt[i][0]] != got[gp:gt[i][0]] {
			return nil, false
		}
		w, g := want[wt[i][0]:wt[i][1]], got[gt[i][0]:gt[i][1]]
		switch v, ok := m.bound[w]; {
		case w == "0x…":
		case ok:
			if v != g {
				return nil, false
			}
		case m.dev[w] || w == g:
			if w != g {
				return nil, false
			}
		default:
			if prev, ok := add[w]; ok && prev != g {
				return nil, false
			}
			add[w] = g
		}
		wp, gp = wt[i][1], gt[i][1]
	}
	if want[wp:] != got[gp:] {
		return nil, false
	}
	return add, true
}

// lines matches a transcript's lines, "..." lines matching any run of lines.
func (m *matcher) lines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if w := strings.TrimSpace(want[0]); w == "..." || w == "…" {
		for k := 0; k <= len(got); k++ {
			if m.lines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	add, ok := m.line(want[0], got[0])
	if !ok {
		return false
	}
	for w, g := range add {
		m.bound[w] = g
	}
	if m.lines(want[1:], got[1:]) {
		return true
	}
	for w := range add {
		delete(m.bound, w)
	}
	return false
}

// docsFixtures are the files docs/cli.md's reader has before starting:
// the passphrase file, a private key to import, and the two Python files
// `pvm run` shows.
func docsFixtures(t *testing.T, dir string) {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"pw.txt":  "correct horse battery\n",
		"bot.hex": fmt.Sprintf("%x\n", k.Bytes()),
		"hello.py": "def answer():\n    return 6 * 7\n" +
			"print(\"hello\", answer())\n",
		"err.py": "def g():\n    raise ValueError(\"bad thing\")\ng()\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// tamper writes tampered.json: dev1.proof.json with its balance changed,
// as a reader would edit it to see verification fail.
func tamper(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "dev1.proof.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `"balance": "0x`, `"balance": "0x1`, 1)
	if s == string(b) {
		t.Fatalf("dev1.proof.json has no balance to change:\n%s", b)
	}
	if err := os.WriteFile(filepath.Join(dir, "tampered.json"), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestDocsCommands runs docs/cli.md's transcript against a fresh devnet
// and checks that every `$ ` line of every page is run by a test or listed
// in notRun. TUTORIAL_TRANSCRIPT=1 prints what each command printed.
func TestDocsCommands(t *testing.T) {
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("docs pages: %v", err)
	}
	listed := map[string]bool{}
	for _, p := range pages {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		for _, st := range docSteps(string(raw)) {
			_, tut := docsPagesWithTutorials[name]
			_, skip := notRun[st.cmd]
			_, whole := docsPagesRunWhole[name]
			switch {
			case whole:
			case skip:
				listed[st.cmd] = true
			case tut && !st.indented && strings.HasPrefix(withoutEnv(st.cmd), "cowboy "):
			case name == "cli.md" && strings.HasPrefix(st.cmd, "cowboy "):
			default:
				t.Errorf("docs/%s:%d: `$ %s` is run by no test: run it in one, or list it in notRun with the reason", name, st.line, st.cmd)
			}
		}
	}
	for cmd := range notRun {
		if !listed[cmd] {
			t.Errorf("notRun lists `%s`, which no page shows any more", cmd)
		}
	}

	raw, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	h := devnetHarness(t)
	dir := t.TempDir()
	t.Chdir(dir)
	docsFixtures(t, dir)
	m := newMatcher(t)
	transcriptOnly := os.Getenv("TUTORIAL_TRANSCRIPT") != ""
	var transcript strings.Builder
	ran := 0
	for _, st := range docSteps(string(raw)) {
		if _, skip := notRun[st.cmd]; skip {
			continue
		}
		cmd := m.subst(strings.TrimPrefix(st.cmd, "cowboy "))
		out := ""
		if before, file, ok := strings.Cut(cmd, " > "); ok {
			cmd, out = before, strings.TrimSpace(file)
		}
		if strings.Contains(cmd, "tampered.json") {
			tamper(t, dir)
		}
		args := splitShell(cmd)
		var tty *fakeTerminal
		if strings.Contains(strings.Join(st.want, "\n"), "Passphrase for key") {
			if tty, err = newFakeTerminal(); err != nil {
				t.Skipf("no pseudo-terminal for the passphrase prompts: %v", err)
			}
			tty.typeLines("correct horse battery", "correct horse battery")
		}
		r := h.runTTY(tty, args...)
		ran++
		shown := r.stdout + r.stderr
		if out != "" {
			if err := os.WriteFile(filepath.Join(dir, out), []byte(r.stdout), 0o600); err != nil {
				t.Fatal(err)
			}
			shown = r.stderr
		}
		if tty != nil {
			shown = tty.written() + "\n" + shown
			tty.Close()
		}
		shown = strings.ReplaceAll(shown, h.keystore, "/home/you/.cowboy/keys")
		got := shownLines(shown)
		fmt.Fprintf(&transcript, "docs/cli.md:%d\n$ %s\n%s\n", st.line, st.cmd, strings.Join(got, "\n"))
		if transcriptOnly {
			continue
		}
		wantFail := len(st.want) > 0 && (strings.HasPrefix(st.want[0], "error:") || strings.HasPrefix(st.want[0], "Traceback "))
		if (r.code != 0) != wantFail {
			t.Fatalf("docs/cli.md:%d: $ %s: exit %d\nstdout: %s\nstderr: %s", st.line, st.cmd, r.code, r.stdout, r.stderr)
		}
		// The docs show the progress lines on stderr that shownLines drops.
		if !m.lines(shownLines(strings.Join(st.want, "\n")), got) {
			t.Errorf("docs/cli.md:%d: $ %s printed\n%s\nbut the docs show\n%s", st.line, st.cmd, strings.Join(got, "\n"), strings.Join(st.want, "\n"))
		}
	}
	if transcriptOnly {
		t.Log("\n" + transcript.String())
	}
	if ran < 25 {
		t.Fatalf("ran only %d commands of docs/cli.md", ran)
	}
}

// runTTY is run with tty, if not nil, as the terminal that prompts open.
func (h *harness) runTTY(tty *fakeTerminal, args ...string) result {
	h.t.Helper()
	var out, errb bytes.Buffer
	a := newApp(strings.NewReader(""), &out, &errb)
	a.openTTY = func() (*os.File, error) { return nil, errors.New("no terminal in tests") }
	if tty != nil {
		a.openTTY = tty.open
	}
	a.ksOptions = []keystore.Option{keystore.WithScryptParams(1<<4, 8, 1)}
	code := run(context.Background(), a, append([]string{"--rpc", h.url, "--keystore", h.keystore}, args...))
	return result{out.String(), errb.String(), code}
}
