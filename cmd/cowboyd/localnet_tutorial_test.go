package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/rpc"
)

// localnetNotRun are docs/localnet.md's `$ ` lines TestLocalnetTutorial
// does not run, and why.
var localnetNotRun = map[string]string{
	"cowboyd localnet 2 --home /tmp/lnet --epoch-length 10":                                                        "TestBecomeValidatorProcesses runs the \"Becoming a validator\" commands, with its own homes and free ports",
	"cowboyd init --home /tmp/v4 --genesis /tmp/lnet/node0/genesis.json --p2p 127.0.0.1:8760 --rpc 127.0.0.1:8660": "as above",
	"cowboyd start --home /tmp/v4 --bootstrap 127.0.0.1:8745 &":                                                    "as above",
	"cowboy transfer --from dev0 --to 0x11A1…A41d --value 5000cby":                                                 "as above (the address init printed)",
	"cowboy validator register --home /tmp/v4 --stake 2000cby":                                                     "as above",
	"cowboy validator list        # pending":                                                                       "as above",
	"cowboy validator list        # two boundaries on (the set is fixed when its DKG opens): active":               "as above",
}

var (
	dollarLine    = regexp.MustCompile(`^\s*\$ (.*)$`)
	shellComment  = regexp.MustCompile(`\s+#\s.*$`)
	localnetPort  = regexp.MustCompile(`127\.0\.0\.1:86(\d\d)`)
	blockHeightRE = regexp.MustCompile(`(?m)^Block\s+(\d+)`)
	txHashRE      = regexp.MustCompile(`(?m)^Transaction\s+(0x[0-9a-f]{64})`)
)

// TestLocalnetTutorial runs the `$ ` lines of docs/localnet.md as they are
// written, in a temporary directory standing for the repository (its
// examples/ linked in), with the localnet on free ports and 200 ms blocks:
// build both binaries, start a localnet of four, kill two validators,
// restart them, deploy and trace on another node, and ask for the
// consensus status. It checks what each comment says: the chain still
// grows with one validator down, the two left agree on every block, and
// finality resumes once both are back. Lines it does not run are in
// localnetNotRun with the reason; any other line fails the test.
func TestLocalnetTutorial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cowboyd and cowboy and runs a localnet of four processes")
	}
	raw, err := os.ReadFile("../../docs/localnet.md")
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	work, lnet := filepath.Join(dir, "work"), filepath.Join(dir, "lnet")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(repo, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Fatal(err)
	}
	base := freePortBase(t)
	var bg []*exec.Cmd
	var bgOut bytes.Buffer
	defer func() {
		for i := len(bg) - 1; i >= 0; i-- {
			bg[i].Process.Signal(syscall.SIGTERM)
			bg[i].Wait()
		}
		if t.Failed() {
			t.Logf("background output:\n%s", bgOut.String())
		}
	}()
	client := func(i int) *rpc.Client { return rpc.NewClient(fmt.Sprintf("http://127.0.0.1:%d", base+i), nil) }
	height := func(i int) uint64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		h, _ := client(i).BlockNumber(ctx)
		return h
	}
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(d); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %s", what, d)
			}
		}
	}
	hashAt := func(i int, h uint64) string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		b, err := client(i).BlockByNumber(ctx, rpc.BlockAt(h), false)
		if err != nil {
			t.Fatalf("node %d block %d: %v", i, h, err)
		}
		return b.Hash.String()
	}

	var ran, listed int
	var stalled uint64
	var lastTx string
	for i, line := range strings.Split(string(raw), "\n") {
		m := dollarLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		doc := strings.TrimSpace(m[1])
		if _, ok := localnetNotRun[doc]; ok {
			listed++
			continue
		}
		comment := ""
		if c := shellComment.FindString(doc); c != "" {
			comment = strings.TrimSpace(c)
		}
		cmd := strings.TrimSpace(shellComment.ReplaceAllString(doc, ""))
		cmd = strings.ReplaceAll(cmd, "/tmp/lnet", lnet)
		cmd = localnetPort.ReplaceAllStringFunc(cmd, func(s string) string {
			n, _ := strconv.Atoi(s[len(s)-2:])
			return fmt.Sprintf("127.0.0.1:%d", base+n-45)
		})
		cmd = strings.ReplaceAll(cmd, "0x…", lastTx)
		where := fmt.Sprintf("docs/localnet.md:%d: $ %s", i+1, doc)
		ran++
		switch f := strings.Fields(cmd); {
		case len(f) == 5 && f[0] == "go" && f[1] == "build" && f[2] == "-o":
			b := exec.Command("go", "build", "-o", filepath.Join(work, f[3]), f[4])
			b.Dir = repo
			if out, err := b.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", where, err, out)
			}
		case len(f) > 1 && f[0] == "./cowboyd" && (f[1] == "localnet" || f[1] == "start"):
			if f[1] == "localnet" {
				f = append(f, "--base-port", strconv.Itoa(base), "--block-time", "200ms")
			}
			c := exec.Command(f[0], f[1:]...)
			c.Dir, c.Stdout, c.Stderr = work, &bgOut, &bgOut
			if err := c.Start(); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			bg = append(bg, c)
			if f[1] == "localnet" {
				waitFor("all four at height 3", 60*time.Second, func() bool {
					return height(0) >= 3 && height(1) >= 3 && height(2) >= 3 && height(3) >= 3
				})
			}
		default:
			if strings.Contains(cmd, " tx trace ") {
				// The transaction is final on the node it was sent to; the
				// node asked for the trace may apply that block a moment
				// later, as a user's second node would.
				h := height(0)
				waitFor("node 1 at height "+strconv.FormatUint(h, 10), 60*time.Second, func() bool {
					return height(1) >= h
				})
			}
			c := exec.Command("sh", "-c", cmd)
			c.Dir = work
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", where, err, out)
			}
			if m := txHashRE.FindSubmatch(out); m != nil {
				lastTx = string(m[1])
			}
			var shown uint64
			if m := blockHeightRE.FindSubmatch(out); m != nil {
				shown, _ = strconv.ParseUint(string(m[1]), 10, 64)
			}
			switch {
			case strings.Contains(comment, "still growing"):
				waitFor("the chain grows past "+strconv.FormatUint(shown, 10)+" with one validator down", 60*time.Second, func() bool { return height(0) > shown })
			case strings.Contains(comment, "stops, no fork"):
				stalled = shown
			case strings.Contains(cmd, " tx trace "):
				if !strings.Contains(string(out), "__init__") {
					t.Fatalf("%s printed no __init__ handler:\n%s", where, out)
				}
			case strings.Contains(cmd, "cowboy_consensusStatus"):
				if !strings.Contains(string(out), `"mode":"validator"`) {
					t.Fatalf("%s:\n%s", where, out)
				}
			}
		}
		if strings.Contains(comment, "finality resumes") {
			waitFor("all four past the stall", 60*time.Second, func() bool {
				return height(0) > stalled+3 && height(1) > stalled+3 && height(2) > stalled+3 && height(3) > stalled+3
			})
			// No fork: every node has the same block at every height up to the stall.
			for h := uint64(1); h <= stalled; h++ {
				want := hashAt(0, h)
				for n := 1; n < 4; n++ {
					if got := hashAt(n, h); got != want {
						t.Fatalf("height %d: node %d has %s, node 0 %s", h, n, got, want)
					}
				}
			}
		}
	}
	if listed != len(localnetNotRun) {
		t.Errorf("%d lines of localnetNotRun are on the page, want all %d", listed, len(localnetNotRun))
	}
	if ran < 12 || stalled == 0 || lastTx == "" {
		t.Fatalf("ran %d lines (stall at %d, last transaction %q)", ran, stalled, lastTx)
	}
}
