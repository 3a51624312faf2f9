package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// `cbfs-relay start --procs N` refuses a negative N before it opens the
// store or listens (BenchmarkProcesses runs the relays with --procs 1).
func TestStartProcsRefusesNegative(t *testing.T) {
	for _, n := range []string{"-1", "-8"} {
		t.Run(n, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out syncBuf
			cmd := newRoot(ctx, &out, io.Discard)
			cmd.SetArgs([]string{"start", "--home", t.TempDir(), "--listen", "127.0.0.1:0", "--procs", n})
			done := make(chan error, 1)
			go func() { done <- cmd.Execute() }()
			var err error
		wait:
			for {
				select {
				case err = <-done:
					break wait
				case <-time.After(5 * time.Millisecond):
				}
				if strings.Contains(out.String(), "listening") { // it started: stop it, fail below
					cancel()
					err = <-done
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), "--procs "+n) {
				t.Fatalf("--procs %s: err %v, output %q; want a refusal", n, err, out.String())
			}
		})
	}
}
