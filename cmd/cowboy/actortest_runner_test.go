package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `cowboy actor test` with "runner_sim": an actor's job is answered by a
// simulated committee offline, a lying member is outvoted, and a job for a
// model nobody serves comes back as an error.
func TestActorTestRunnerSim(t *testing.T) {
	h := newHarness(t, 7777)
	dir := t.TempDir()
	src, err := os.ReadFile("../cowboy-runner/testdata/oracle.py")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "main.py"), src, 0o644)
	mustWrite(t, filepath.Join(dir, "main_test.json"), []byte(`{
  "deploy": {"value": "100cby"},
  "runner_sim": {"runners": 3, "faults": {"2": "lie"}},
  "steps": [
    {"call": "ask", "args": ["Is the sky blue? Answer yes or no.", "sim-1", 1000000000000000000], "expect": 1},
    {"advance": 3},
    {"call": "answers", "expect": [{"job": 1, "ok": true, "value": "yes", "error": null}]},
    {"call": "ask", "args": ["Hello?", "no-such-model", 1000000000000000000], "expect": 2},
    {"advance": 2},
    {"call": "answers", "expect": [{"job": 1, "ok": true, "value": "yes", "error": null},
      {"job": 2, "ok": false, "value": null, "error": "no committee: 0 eligible runner(s) for model no-such-model at max_price 1000000000000000000, the job needs 3"}]}
  ]
}`), 0o644)
	out := h.ok("actor", "test", dir)
	if !strings.Contains(out, "PASS") {
		t.Fatalf("actor test:\n%s", out)
	}
}
