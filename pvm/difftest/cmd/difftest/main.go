// Command difftest runs the PVM against CPython 3.11 on generated
// programs and prints every difference, minimized (see docs/testing.md,
// "Differential fuzzing against CPython").
//
//	go run ./pvm/difftest/cmd/difftest -n 100000 -seed 1 -j 2 -out /tmp/diffs
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cowboy-chain/cowboy/pvm/difftest"
)

func main() {
	n := flag.Int("n", 1000, "programs to generate and run")
	seed := flag.Uint64("seed", 1, "first seed; program i uses seed+i")
	j := flag.Int("j", 1, "parallel workers (one python3 each)")
	units := flag.Int("units", 25, "top-level units per program")
	out := flag.String("out", "", "directory to write each minimized difference to (seed_<n>.py)")
	show := flag.Int("show", 5, "print at most this many differences in full")
	print := flag.Uint64("print", 0, "print the program for this seed and exit")
	timeout := flag.Duration("timeout", 20*time.Second, "longest CPython run of one program before it counts as an error")
	flag.Parse()
	if *print != 0 {
		fmt.Print(difftest.Generate(*print, *units).Source())
		return
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "difftest:", err)
			os.Exit(2)
		}
	}
	start := time.Now()
	shown := 0
	stats, err := difftest.Run(difftest.Options{
		Seed: *seed, N: *n, Units: *units, Workers: *j, Timeout: *timeout,
		OnFinding: func(f difftest.Finding) {
			if shown < *show {
				fmt.Printf("=== difference\n%s\n", f.Report())
			} else {
				fmt.Printf("=== difference at seed %d\n", f.Seed)
			}
			shown++
			if *out != "" {
				p := filepath.Join(*out, fmt.Sprintf("seed_%d.py", f.Seed))
				if err := os.WriteFile(p, []byte(f.Report()), 0o644); err != nil {
					fmt.Fprintln(os.Stderr, "difftest:", err)
				}
			}
		},
		OnError: func(seed uint64, err error) {
			fmt.Printf("=== python3 failed at seed %d: %v\n", seed, err)
		},
		OnProgress: func(s difftest.Stats) {
			fmt.Fprintf(os.Stderr, "%d programs, %d same, %d outside the contract, %d differ, %d errors (%s)\n",
				s.Programs, s.Same, s.Outside, s.Differ, s.Errors, time.Since(start).Round(time.Second))
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "difftest:", err)
		os.Exit(2)
	}
	fmt.Printf("difftest: seeds %d..%d: %d programs, %d same, %d outside the contract, %d differ, %d errors in %s\n",
		*seed, *seed+uint64(*n)-1, stats.Programs, stats.Same, stats.Outside, stats.Differ, stats.Errors, time.Since(start).Round(time.Second))
	if stats.Differ > 0 || stats.Errors > 0 {
		os.Exit(1)
	}
}
