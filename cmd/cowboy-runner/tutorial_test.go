package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cowboy-chain/cowboy/rpc"
	"github.com/cowboy-chain/cowboy/runner/llmsim"
)

// tutorialCommands are the "$ " lines of the docs/runners.md block marked
// runners-tutorial.
func tutorialCommands(t *testing.T) []string {
	b, err := os.ReadFile("../../docs/runners.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- runners-tutorial")
	if !ok {
		t.Fatal("docs/runners.md has no runners-tutorial block")
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	var out []string
	for _, l := range strings.Split(block, "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			out = append(out, c)
		}
	}
	return out
}

var contractLine = regexp.MustCompile(`(?m)^Actor\s+(0x[0-9a-fA-F]{40})`)

// TestRunnersTutorial runs the actor author's commands of docs/runners.md
// against `cowboyd devnet --runner-sim` as the page starts it (on a free
// port, with $COWBOY_RPC pointing there), and checks what the page says
// they show.
func TestRunnersTutorial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and runs a devnet")
	}
	cmds := tutorialCommands(t)
	if len(cmds) < 3 || !strings.HasPrefix(cmds[0], "cowboyd devnet ") {
		t.Fatalf("tutorial commands %q", cmds)
	}
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, bin: bin, dir: t.TempDir()}
	rpcAddr := freeAddr(t)
	e.rpcURL = "http://" + rpcAddr
	e.client = rpc.NewClient(e.rpcURL, &http.Client{Timeout: 10 * time.Second})
	args := append(strings.Fields(cmds[0])[1:], "--home", filepath.Join(e.dir, "chain"), "--rpc", rpcAddr, "--log-level", "warn")
	e.start("cowboyd", args...)
	e.waitFor("the simulated runners", func() bool {
		rs, err := e.client.Runners(context.Background())
		return err == nil && len(rs) == 3
	})
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "COWBOY_RPC="+e.rpcURL)
	outputs := map[string]string{}
	for _, c := range cmds[1:] {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir, cmd.Env = "../..", env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("$ %s: %v\n%s", c, err, out)
		}
		outputs[c] = string(out)
		t.Logf("$ %s\n%s", c, out)
		switch {
		case strings.Contains(c, "actor deploy"):
			m := contractLine.FindStringSubmatch(string(out))
			if m == nil {
				t.Fatalf("no contract address in:\n%s", out)
			}
			env = append(env, "ORACLE="+m[1])
		case strings.Contains(c, " ask "):
			e.waitFor("the continuation", func() bool { return e.job(1).Delivered != 0 })
		case strings.HasPrefix(c, "cowboy jobs show 1"):
			if !strings.Contains(string(out), "Slashed") || !strings.Contains(string(out), "success") {
				t.Fatalf("jobs show does not show the success and the slashed liar:\n%s", out)
			}
		case strings.Contains(c, "answers"):
			if !strings.Contains(string(out), llmsim.Answer("Is the sky blue? Answer yes or no.")) {
				t.Fatalf("the answers do not hold the committee's answer:\n%s", out)
			}
		}
	}
}
