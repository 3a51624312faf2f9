package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `cowboy actor test` advances blocks with {"advance": N}, so timer tests
// run offline with the real executor.
func TestActorTestAdvancesBlocksForTimers(t *testing.T) {
	h := newHarness(t, 7777)
	dir := t.TempDir()
	src, err := os.ReadFile("../../examples/heartbeat/main.py")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "main.py"), src, 0o644)
	mustWrite(t, filepath.Join(dir, "main_test.json"), []byte(`{
  "deploy": {"value": "1cby"},
  "steps": [
    {"call": "beats", "expect": 0},
    {"advance": 5},
    {"call": "beats", "expect": 1},
    {"advance": 10},
    {"call": "beats", "expect": 3},
    {"call": "stop", "expect": 10000000000000000},
    {"advance": 10},
    {"call": "beats", "expect": 3}
  ]
}`), 0o644)
	out := h.ok("actor", "test", dir)
	for _, want := range []string{"ok   advance 5 blocks -> block 7 (1 timer runs, 0 failed)", "ok   beats() -> 3", "PASS"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in\n%s", want, out)
		}
	}
}
