//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docsComment cuts a shell comment off a transcript line.
var docsComment = regexp.MustCompile(`\s+#\s.*$`)

// envPrefix splits leading VAR=value assignments off a command line.
func envPrefix(cmd string) (env map[string]string, rest string) {
	env = map[string]string{}
	for {
		f, after, ok := strings.Cut(cmd, " ")
		name, value, isAssign := strings.Cut(f, "=")
		if !ok || !isAssign || name == "" || strings.ToUpper(name) != name || strings.ContainsAny(name, "-./") {
			return env, cmd
		}
		env[name], cmd = value, after
	}
}

// TestCBFSTutorial runs the `$ cowboy …` lines of docs/cbfs.md in order,
// as a reader would, on a fresh devnet with six in-process relays (in
// place of `cowboyd devnet --relays 6`, with $COWBOY_RELAYS set to their
// list and $HOME to a fresh directory): create with a deposit, put with a
// commitment, ls, get, mv and get under the new name, then share reports/ read-only with dev1, open and
// read as the holder, and revoke. The placeholders the page shows for
// what a run prints (the token, its id, the volume key) take the run's
// values. The files it reads back must be the ones it put, and after the
// revoke the holder can read nothing.
func TestCBFSTutorial(t *testing.T) {
	raw, err := os.ReadFile("../../docs/cbfs.md")
	if err != nil {
		t.Fatal(err)
	}
	h := devnetHarness(t)
	relays := startRelays(t, 6)
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir)
	t.Setenv(envVolumes, "")
	t.Setenv(envRelays, relays)
	rng := rand.New(rand.NewPCG(1, 2))
	fixture := func(name string, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
		return b
	}
	audit, q3 := fixture("audit-2026-11.jsonl", 200<<10), fixture("q3.jsonl", 5<<10)

	subst := map[string]string{"relays.txt": relays}
	ran := 0
	for _, st := range docSteps(string(raw)) {
		if _, skip := notRun[st.cmd]; skip {
			continue
		}
		env, cmd := envPrefix(docsComment.ReplaceAllString(st.cmd, ""))
		if !strings.HasPrefix(cmd, "cowboy ") {
			t.Fatalf("docs/cbfs.md:%d: `$ %s` is neither a cowboy command nor in notRun", st.line, st.cmd)
		}
		for k, v := range subst {
			cmd = strings.ReplaceAll(cmd, k, v)
		}
		cmd = strings.ReplaceAll(cmd, "~/", dir+"/")
		os.Setenv(envVolumes, "")
		for k, v := range env {
			os.Setenv(k, strings.ReplaceAll(v, "~/", dir+"/"))
		}
		r := h.run(splitShell(strings.TrimPrefix(cmd, "cowboy "))...)
		ran++
		if r.code != 0 {
			t.Fatalf("docs/cbfs.md:%d: $ %s: exit %d\n%s%s", st.line, cmd, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(cmd, "volume grant") {
			// "token id 0x… (expires …)" and the token on the next line.
			m := regexp.MustCompile(`token id (0x[0-9a-f]+) \(expires [^)]*\)\n(\S+)`).FindStringSubmatch(r.stdout)
			if m == nil {
				t.Fatalf("grant printed no token:\n%s", r.stdout)
			}
			subst["0x0f41…39d5"], subst["cbfs1.…"] = m[1], m[2]
			var vc volumeConfig
			b, err := os.ReadFile(filepath.Join(dir, ".cowboy", "volumes", "logs.json"))
			if err == nil {
				err = json.Unmarshal(b, &vc)
			}
			if err != nil || vc.Key == "" {
				t.Fatalf("the owner's logs.json: %v", err)
			}
			subst["3f…a0"] = vc.Key
		}
	}
	if ran < 9 {
		t.Fatalf("ran %d commands of docs/cbfs.md", ran)
	}
	for name, want := range map[string][]byte{"out.jsonl": audit, "moved.jsonl": audit, "q3.jsonl": q3} {
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes back (%v), want the %d put", name, len(got), err, len(want))
		}
	}
	os.Setenv(envVolumes, filepath.Join(dir, ".holder"))
	h.fails([]string{"volume", "get", "logs", "reports/q3.jsonl", "-o", "again.jsonl", "--from", "dev1"}, "revoked")
}
