package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/chain/system/runner"
	"github.com/cowboy-chain/cowboy/chain/types"
	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// buildOnce builds the three binaries the end-to-end test runs.
var buildOnce = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "cowboy-runner-e2e-bin")
	if err != nil {
		return "", err
	}
	builtDir = dir
	for _, b := range []string{"cowboyd", "cowboy", "cowboy-runner"} {
		if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, b), "../"+b).CombinedOutput(); err != nil {
			return "", fmt.Errorf("build %s: %v\n%s", b, err, out)
		}
	}
	return dir, nil
})

// builtDir is where buildOnce put the binaries ("" until it ran).
var builtDir string

// TestMain removes the binaries buildOnce made.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

type e2e struct {
	t      *testing.T
	bin    string
	dir    string
	rpcURL string
	client *rpc.Client
}

// start runs a long-lived process and stops it (kill -9) at the end.
func (e *e2e) start(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(e.bin, name), args...)
	logf, err := os.Create(filepath.Join(e.dir, fmt.Sprintf("%s-%d.log", name, time.Now().UnixNano())))
	if err != nil {
		e.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		logf.Close()
	})
	return cmd
}

// cli runs the cowboy CLI against the devnet and returns stdout.
func (e *e2e) cli(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(e.bin, "cowboy"), append([]string{"--rpc", e.rpcURL}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("cowboy %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (e *e2e) waitFor(what string, f func() bool) {
	e.t.Helper()
	for i := 0; i < 600; i++ { // a bound for waiting, not a timing assertion
		if f() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("gave up waiting for %s", what)
}

func (e *e2e) job(id uint64) *rpc.JobJSON {
	j, err := e.client.Job(context.Background(), id)
	if err != nil {
		e.t.Fatalf("job %d: %v", id, err)
	}
	return j
}

func (e *e2e) runnerRec(a types.Address) *rpc.RunnerJSON {
	r, err := e.client.Runner(context.Background(), a)
	if err != nil {
		e.t.Fatalf("runner %s: %v", a, err)
	}
	return r
}

// fetch has the oracle post an HTTP job and returns its id.
func (e *e2e) fetch(oracle, url, path string) uint64 {
	e.t.Helper()
	out := e.cli("actor", "call", oracle, "fetch", fmt.Sprintf("%q", url), fmt.Sprintf("%q", path), cby(10).String(), "--from", "dev2", "--json")
	return uint64(jsonField(e.t, out, "returnValue").(float64))
}

type answer struct {
	Job   uint64
	OK    bool
	Value any
	Error string
}

// answers reads the oracle actor's answers with cowboy actor query.
func (e *e2e) answers(oracle string) []answer {
	e.t.Helper()
	var rc struct{ ReturnValue []answer }
	out := e.cli("actor", "query", oracle, "answers", "--json")
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		e.t.Fatalf("answers: %v\n%s", err, out)
	}
	return rc.ReturnValue
}

// jsonField is one top-level field of a JSON document.
func jsonField(t *testing.T, doc, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(doc), &m); err != nil || m[name] == nil {
		t.Fatalf("no %s in %s (%v)", name, doc, err)
	}
	return m[name]
}

func bigOf(q rpc.BigQuantity) *big.Int { return new(big.Int).Set((*big.Int)(&q)) }

func cby(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// TestEndToEnd runs a devnet, three cowboy-runner processes and llmsim
// (this repository's deterministic OpenAI-compatible server, in the test
// process): an actor asks and gets the majority answer in its
// continuation; the runner that lies is slashed with its delegator; the
// same runner restarted frozen times out and loses reputation, not stake;
// and a job nobody can serve comes back as an error before its timeout.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries and runs five processes")
	}
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, bin: bin, dir: t.TempDir()}
	llm := httptest.NewServer(llmsim.Handler())
	defer llm.Close()

	prices := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"data": {"usd": "42.5", "at": 1}}`)
	}))
	defer prices.Close()
	rpcAddr := freeAddr(t)
	e.rpcURL = "http://" + rpcAddr
	e.client = rpc.NewClient(e.rpcURL, &http.Client{Timeout: 10 * time.Second})
	e.start("cowboyd", "devnet", "--home", filepath.Join(e.dir, "chain"), "--rpc", rpcAddr, "--block-time", "200ms", "--log-level", "warn")
	e.waitFor("the devnet", func() bool { _, err := e.client.BlockNumber(context.Background()); return err == nil })

	card := filepath.Join(e.dir, "card.json")
	mustWrite(t, card, []byte(`{"per_job": "0.5cby", "per_token": "0.01cby", "per_kb": "0"}`), 0o644)
	type proc struct {
		home, listen string
		addr         types.Address
	}
	runners := make([]proc, 3)
	for i := range runners {
		p := &runners[i]
		p.home, p.listen = filepath.Join(e.dir, fmt.Sprintf("runner%d", i)), freeAddr(t)
		out, err := exec.Command(filepath.Join(bin, "cowboy-runner"), "init", "--home", p.home).CombinedOutput()
		if err != nil {
			t.Fatalf("init: %v %s", err, out)
		}
		a, err := types.ParseAddress(strings.Fields(string(out))[1])
		if err != nil {
			t.Fatalf("init printed %q: %v", out, err)
		}
		p.addr = a
		e.cli("transfer", "--from", "dev0", "--to", a.Hex(), "--value", "20000cby")
		e.cli("runner", "register", "--home", p.home, "--stake", "10000cby", "--models", "sim-1", "--http-domains", "127.0.0.1",
			"--endpoint", "http://"+p.listen+"/", "--rate-card", card, "--max-job-value", "100cby")
	}
	liar := runners[2]
	e.cli("runner", "delegate", liar.addr.Hex(), "--value", "5000cby", "--from", "dev1")
	startRunner := func(p proc, fault string) *exec.Cmd {
		args := []string{"start", "--home", p.home, "--rpc", e.rpcURL, "--llm-url", llm.URL, "--listen", p.listen, "--poll", "100ms"}
		if fault != "" {
			args = append(args, "--fault", fault)
		}
		return e.start("cowboy-runner", args...)
	}
	startRunner(runners[0], "")
	startRunner(runners[1], "")
	liarProc := startRunner(liar, "lie")

	oracleSrc, _ := filepath.Abs("testdata/oracle.py")
	var dep struct{ ContractAddress string }
	json.Unmarshal([]byte(e.cli("actor", "deploy", oracleSrc, "--from", "dev2", "--value", "100cby", "--json")), &dep)
	oracle := dep.ContractAddress
	if oracle == "" {
		t.Fatal("no actor address")
	}
	ask := func(question, model string) uint64 {
		var rc struct{ ReturnValue uint64 }
		out := e.cli("actor", "call", oracle, "ask", fmt.Sprintf("%q", question), fmt.Sprintf("%q", model), cby(10).String(), "--from", "dev2", "--json")
		if err := json.Unmarshal([]byte(out), &rc); err != nil || rc.ReturnValue == 0 {
			t.Fatalf("ask: %v %s", err, out)
		}
		return rc.ReturnValue
	}
	delivered := func(id uint64) *rpc.JobJSON {
		var j *rpc.JobJSON
		e.waitFor(fmt.Sprintf("job %d's continuation", id), func() bool { j = e.job(id); return j.Delivered != 0 })
		return j
	}

	// 1. The majority answer; the liar is slashed with its delegator.
	q1 := "Is the sky blue? Answer yes or no."
	liarBefore := e.runnerRec(liar.addr)
	id1 := ask(q1, "sim-1")
	j1 := delivered(id1)
	if j1.Outcome != runner.OutcomeSuccess || j1.Output != llmsim.Answer(q1) || j1.CallbackError != "" {
		t.Fatalf("job 1: %s %q %q %q", j1.Outcome, j1.Output, j1.Error, j1.CallbackError)
	}
	if len(j1.Slashed) != 1 || types.Address(j1.Slashed[0]) != liar.addr {
		t.Fatalf("job 1 slashed %v, want the liar %s", j1.Slashed, liar.addr)
	}
	liarAfter := e.runnerRec(liar.addr)
	for _, c := range []struct {
		name          string
		before, after rpc.BigQuantity
	}{{"self-bond", liarBefore.SelfBond, liarAfter.SelfBond}, {"delegation", liarBefore.Delegated, liarAfter.Delegated}} {
		want := new(big.Int).Mul(bigOf(c.before), big.NewInt(int64(10_000-runner.DefaultParams().SlashBps)))
		want.Quo(want, big.NewInt(10_000))
		if bigOf(c.after).Cmp(want) != 0 {
			t.Fatalf("liar's %s %s after slashing, want %s", c.name, bigOf(c.after), want)
		}
	}
	answers := e.answers(oracle)
	if len(answers) != 1 || answers[0].Value != llmsim.Answer(q1) || !answers[0].OK || answers[0].Job != id1 {
		t.Fatalf("the actor's answers: %+v", answers)
	}

	// 2. The same runner restarted frozen (kill -9, its state kept) times
	// out: reputation, not stake.
	liarProc.Process.Kill()
	liarProc.Wait()
	startRunner(liar, "timeout")
	before := e.runnerRec(liar.addr)
	id2 := ask("Is water wet? Answer yes or no.", "sim-1")
	j2 := delivered(id2)
	if j2.Outcome != runner.OutcomeSuccess || len(j2.Slashed) != 0 {
		t.Fatalf("job 2: %s slashed %v (%s)", j2.Outcome, j2.Slashed, j2.Error)
	}
	after := e.runnerRec(liar.addr)
	if bigOf(after.SelfBond).Cmp(bigOf(before.SelfBond)) != 0 || bigOf(after.Delegated).Cmp(bigOf(before.Delegated)) != 0 {
		t.Fatal("the frozen runner lost stake: a timeout costs reputation only")
	}
	if uint64(after.Reputation) != uint64(before.Reputation)-runner.DefaultParams().RepTimeout || uint64(after.Timeouts) != uint64(before.Timeouts)+1 {
		t.Fatalf("reputation %d → %d, timeouts %d", before.Reputation, after.Reputation, after.Timeouts)
	}

	// 3. A job nobody can serve comes back as an error before its timeout.
	id3 := ask("Hello?", "no-such-model")
	j3 := delivered(id3)
	if j3.Outcome != runner.OutcomeNoRunners || uint64(j3.Delivered) >= uint64(j3.Deadline) {
		t.Fatalf("job 3: %s delivered at %d, deadline %d", j3.Outcome, j3.Delivered, j3.Deadline)
	}
	answers = e.answers(oracle)
	if len(answers) != 3 || answers[2].OK || !strings.Contains(answers[2].Error, "no committee") {
		t.Fatalf("the actor's answers: %+v", answers)
	}
	// 4. An HTTP job: the members fetch a price and agree byte for byte
	// (the frozen runner still says nothing).
	id4 := e.fetch(oracle, prices.URL+"/price", "$.data.usd")
	j4 := delivered(id4)
	usage := uint64(0)
	for _, r := range j4.Reveals {
		if r != nil {
			usage += uint64(r.Usage)
		}
	}
	if j4.Outcome != runner.OutcomeSuccess || j4.Output != "42.5" || usage == 0 || j4.Trust != runner.TrustExact {
		t.Fatalf("job 4: %s %q (%s)", j4.Outcome, j4.Output, j4.Error)
	}
	// The daemons answered over HTTP: the status command reads one.
	out, err := exec.Command(filepath.Join(bin, "cowboy-runner"), "status", "--home", runners[0].home).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "executed 3") {
		t.Fatalf("status: %v %s", err, out)
	}
	logTail(t, e.dir)
}

// logTail prints the processes' last log lines when the test is verbose.
func logTail(t *testing.T, dir string) {
	if !testing.Verbose() {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		var lines []string
		s := bufio.NewScanner(fh)
		for s.Scan() {
			lines = append(lines, s.Text())
		}
		fh.Close()
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		t.Logf("%s:\n%s", filepath.Base(f), strings.Join(lines, "\n"))
	}
}
