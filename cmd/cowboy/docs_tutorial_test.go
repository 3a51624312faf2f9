package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What a docs transcript may show that differs per devnet run: hashes and
// state roots (the proposer key, which is in the state, is made per home)
// and block times (the wall clock).
var (
	hashRE = regexp.MustCompile(`0x[0-9a-fA-F]{64}`)
	timeRE = regexp.MustCompile(`^(Time +)\d+$`)
)

// normDocsLine is how runTutorial compares a line: exactly, but with every
// 64-digit hash replaced by 0x… and a "Time" row's number masked.
func normDocsLine(s string) string {
	s = hashRE.ReplaceAllString(normTutorialLine(s), "0x…")
	return timeRE.ReplaceAllString(s, "${1}…")
}

// runTutorial runs every `$ cowboy …` line of a docs page against the
// harness, in order, saving the files the page asks the reader to save,
// in a fresh working directory, and checks each command's exit status and the lines shown under it
// (normalized by norm). TUTORIAL_TRANSCRIPT=1 prints what each command
// printed instead of failing, to write or update a page.
func runTutorial(t *testing.T, h *harness, page string, norm func(string) string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("../../docs", page))
	if err != nil {
		t.Fatal(err)
	}
	steps := tutorialSteps(t, string(raw))
	if len(steps) == 0 {
		t.Fatalf("docs/%s shows no `$ cowboy` command", page)
	}
	t.Chdir(t.TempDir()) // files the page saves land in a fresh directory
	transcriptOnly := os.Getenv("TUTORIAL_TRANSCRIPT") != ""
	var transcript strings.Builder
	// Transaction hashes depend on fees, which move with every cost-table
	// change; a later command that names one shown earlier gets the hash
	// this run printed at the same place.
	bound := map[string]string{}
	for _, st := range steps {
		for i, a := range st.args {
			for doc, got := range bound {
				st.args[i] = strings.ReplaceAll(a, doc, got)
				a = st.args[i]
			}
		}
		if st.writeFile != "" {
			if err := os.MkdirAll(filepath.Dir(st.writeFile), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(st.writeFile, []byte(st.body), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		r := h.run(st.args...)
		got := shownLines(r.stdout + r.stderr)
		bindHashes(bound, got, st.want)
		fmt.Fprintf(&transcript, "$ cowboy %s\n%s\n", strings.Join(st.args, " "), strings.Join(got, "\n"))
		if transcriptOnly {
			continue
		}
		wantFail := len(st.want) > 0 && strings.HasPrefix(st.want[0], "error:")
		if (r.code != 0) != wantFail {
			t.Fatalf("docs/%s:%d: cowboy %s: exit %d\nstdout: %s\nstderr: %s", page, st.line, strings.Join(st.args, " "), r.code, r.stdout, r.stderr)
		}
		if len(got) != len(st.want) {
			t.Fatalf("docs/%s:%d: cowboy %s printed\n%s\nbut the docs show\n%s", page, st.line, strings.Join(st.args, " "), strings.Join(got, "\n"), strings.Join(st.want, "\n"))
		}
		for i := range got {
			if norm(got[i]) != norm(st.want[i]) {
				t.Errorf("docs/%s:%d: cowboy %s line %d:\n got  %s\n want %s", page, st.line, strings.Join(st.args, " "), i+1, got[i], st.want[i])
			}
		}
	}
	if transcriptOnly {
		t.Log("\n" + transcript.String())
	}
}

// TestDevnetControlsTutorial runs docs/devnet.md's transcript (the devnet
// controls) against a fresh devnet.
func TestDevnetControlsTutorial(t *testing.T) {
	h := devnetHarness(t)
	runTutorial(t, h, "devnet.md", normDocsLine)
}

// txHash finds the 32-byte hashes a transcript line shows.
var txHash = regexp.MustCompile(`0x[0-9a-fA-F]{64}`)

// bindHashes records, for each line that reads the same but for its
// transaction hashes, which hash the docs show and which this run printed.
func bindHashes(bound map[string]string, got, want []string) {
	for i := range min(len(got), len(want)) {
		g, w := txHash.FindAllString(got[i], -1), txHash.FindAllString(want[i], -1)
		if len(g) != len(w) || txHash.ReplaceAllString(got[i], "") != txHash.ReplaceAllString(want[i], "") {
			continue
		}
		for j := range w {
			if w[j] != g[j] {
				bound[w[j]] = g[j]
			}
		}
	}
}
