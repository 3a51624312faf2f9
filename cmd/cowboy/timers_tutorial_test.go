package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/rpc"
)

// receiptCostRE masks the numbers of a timer receipt's cost lines: they
// move with the cost table, their shape is what docs/timers.md promises.
var receiptCostRE = regexp.MustCompile(`^(Cycles|Cells|Fee) .*$`)

// proofRE masks what depends on the devnet's proposer key (its balance is
// in the state): the state root and the proof's size.
var proofRE = regexp.MustCompile(`^(State root|Proof) +(0x[0-9a-f]{64}|\d+ bytes)$`)

func normTimersLine(s string) string {
	s = normTutorialLine(s)
	if m := receiptCostRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	if m := proofRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return s
}

// TestTimersTutorial runs every command of docs/timers.md, in order,
// against a fresh devnet, and checks the output shown under each (hashes
// skipped, costs compared by shape, as TestActorTutorial does). The devnet
// makes a block per transaction, so the heights in the tutorial are exact.
func TestTimersTutorial(t *testing.T) {
	raw, err := os.ReadFile("../../docs/timers.md")
	if err != nil {
		t.Fatal(err)
	}
	steps := tutorialSteps(t, string(raw))
	if len(steps) < 10 {
		t.Fatalf("found only %d steps in docs/timers.md", len(steps))
	}
	h := devnetHarness(t)
	t.Chdir(t.TempDir())
	var transcript strings.Builder
	for _, st := range steps {
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
		fmt.Fprintf(&transcript, "$ cowboy %s\n%s\n", strings.Join(st.args, " "), strings.Join(got, "\n"))
		transcriptOnly := os.Getenv("TIMERS_TUTORIAL_TRANSCRIPT") != ""
		wantFail := len(st.want) > 0 && strings.HasPrefix(st.want[0], "error:")
		if (r.code != 0) != wantFail && !transcriptOnly {
			t.Fatalf("docs/timers.md:%d: cowboy %s: exit %d\nstdout: %s\nstderr: %s", st.line, strings.Join(st.args, " "), r.code, r.stdout, r.stderr)
		}
		if transcriptOnly {
			continue
		}
		if len(got) != len(st.want) {
			t.Fatalf("docs/timers.md:%d: cowboy %s printed\n%s\nbut the docs show\n%s", st.line, strings.Join(st.args, " "), strings.Join(got, "\n"), strings.Join(st.want, "\n"))
		}
		for i := range got {
			if strings.HasPrefix(st.want[i], "Transaction ") || strings.HasPrefix(st.want[i], "Block ") {
				continue
			}
			if normTimersLine(got[i]) != normTimersLine(st.want[i]) {
				t.Fatalf("docs/timers.md:%d: cowboy %s line %d:\n got  %s\n want %s", st.line, strings.Join(st.args, " "), i+1, got[i], st.want[i])
			}
		}
	}
	if os.Getenv("TIMERS_TUTORIAL_TRANSCRIPT") != "" {
		t.Log("\n" + transcript.String())
	}
	// The proof of a timer's record verifies offline (here of timer 2's
	// absence: it ran), and fails once its timer id is altered.
	var p rpc.ProofJSON
	if err := json.Unmarshal([]byte(h.ok("state", "proof", "--timer", "2", "--json")), &p); err != nil {
		t.Fatal(err)
	}
	if p.Timer == nil || p.Value != nil {
		t.Fatalf("timer 2 proof: %+v", p)
	}
	if err := p.Verify(); err != nil {
		t.Fatal(err)
	}
	other := rpc.Quantity(3)
	p.Timer = &other
	if err := p.Verify(); err == nil {
		t.Fatal("a proof of timer 2 verified as timer 3")
	}
}
