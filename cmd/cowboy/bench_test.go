package main

import (
	"encoding/json"
	"testing"
)

// TestBenchTransfers runs the load generator against an in-process devnet
// (block time 0, as `cowboyd devnet --block-time 0`): every accepted
// transfer must commit, with receipts, and the numbers must add up.
func TestBenchTransfers(t *testing.T) {
	h := devnetHarness(t)
	for _, tt := range []struct {
		name    string
		args    []string
		sent    int
		senders int
	}{
		{"default senders", []string{"--n", "150"}, 150, 3},
		{"more senders", []string{"--n", "130", "--senders", "13"}, 130, 13},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := h.ok(append([]string{"bench", "transfers", "--json"}, tt.args...)...)
			var r benchResult
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if r.Sent != tt.sent || r.Committed != r.Sent || r.Failed != 0 || r.Rejected != 0 || r.Senders != tt.senders {
				t.Fatalf("result: %+v", r)
			}
			if r.TPS <= 0 || r.Blocks < 1 || r.P50ms > r.P99ms || r.P99ms > r.MaxMs {
				t.Fatalf("implausible numbers: %+v", r)
			}
			// The keys the issue names are present.
			var m map[string]any
			json.Unmarshal([]byte(out), &m)
			for _, k := range []string{"sent", "committed", "tps", "p50_ms", "p99_ms"} {
				if _, ok := m[k]; !ok {
					t.Fatalf("--json lacks %q: %s", k, out)
				}
			}
		})
	}
}

func TestBenchTransfersRejectsBadFlags(t *testing.T) {
	h := devnetHarness(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--n", "0"}, "--n 0"},
		{[]string{"--n", "200", "--senders", "2"}, "--senders 2"},
		{[]string{"--n", "5", "--senders", "6"}, "--senders 6"},
	} {
		h.fails(append([]string{"bench", "transfers"}, tt.args...), tt.want)
	}
}

// TestBenchMaxFee: the bench's max fee covers the basefee after the run's
// full blocks (each raises it by an eighth, rounded down, §4.2: a basefee
// below 8 does not move).
func TestBenchMaxFee(t *testing.T) {
	for _, tt := range []struct{ est, blocks, want uint64 }{
		{3, 0, 3},
		{1, 1, 1},
		{7, 8, 7},
		{8, 1, 9},
		{16, 1, 18},
		{8, 8, 16}, // 8 → 9 → … → 16: an eighth of each, rounded down
	} {
		if got := benchMaxFee(tt.est, tt.blocks); got != tt.want {
			t.Errorf("benchMaxFee(%d, %d) = %d, want %d", tt.est, tt.blocks, got, tt.want)
		}
	}
}
