package difftest

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// Finding is one program on which the PVM and CPython differ, minimized.
type Finding struct {
	Seed        uint64
	Source      string // the minimized program
	Python, PVM Outcome
}

// Report formats a finding for a person: the program and both outcomes.
func (f Finding) Report() string {
	return fmt.Sprintf("seed %d\n--- program (after difftest.Prelude)\n%s--- CPython stdout (exception %q)\n%s--- PVM stdout (exception %q)\n%s",
		f.Seed, strings.TrimPrefix(f.Source, Prelude), f.Python.Exc, f.Python.Stdout, f.PVM.Exc, f.PVM.Stdout)
}

// Stats counts what a run did.
type Stats struct {
	Programs, Same, Outside, Differ, Errors int
}

// Options configure Run.
type Options struct {
	Seed    uint64 // first seed; program i uses Seed+i
	N       int    // programs to run
	Units   int    // units per program (default 25)
	Workers int    // parallel workers, each with its own python3 (default 1)
	// Timeout bounds one CPython run (0: none). A generated program is
	// small and bounded; the timeout is the long-running tool's guard
	// against a generator mistake, which then shows up as an error.
	Timeout time.Duration
	// OnFinding is called (serialised) for every difference, after
	// minimization; OnProgress every 1000 programs.
	OnFinding  func(Finding)
	OnProgress func(Stats)
	// OnError is called (serialised) when python3 failed on a seed, e.g.
	// a timeout; the seed counts in Stats.Errors.
	OnError func(seed uint64, err error)
}

// Run generates and compares opts.N programs. It fails only when python3
// cannot be started.
func Run(opts Options) (Stats, error) {
	if opts.Units == 0 {
		opts.Units = 25
	}
	if opts.Workers < 1 {
		opts.Workers = 1
	}
	seeds := make(chan uint64)
	var (
		mu    sync.Mutex
		stats Stats
		wg    sync.WaitGroup
	)
	for w := 0; w < opts.Workers; w++ {
		py, err := StartCPython()
		if err != nil {
			return stats, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				var f *Finding
				var v Verdict
				py, f, v, err = check(py, seed, opts)
				mu.Lock()
				stats.Programs++
				switch {
				case err != nil:
					stats.Errors++
					if opts.OnError != nil {
						opts.OnError(seed, err)
					}
				case v == Same:
					stats.Same++
				case v == Outside:
					stats.Outside++
				default:
					stats.Differ++
					if opts.OnFinding != nil {
						opts.OnFinding(*f)
					}
				}
				if opts.OnProgress != nil && stats.Programs%1000 == 0 {
					opts.OnProgress(stats)
				}
				mu.Unlock()
			}
			if py != nil {
				py.Close()
			}
		}()
	}
	for i := 0; i < opts.N; i++ {
		seeds <- opts.Seed + uint64(i)
	}
	close(seeds)
	wg.Wait()
	return stats, nil
}

// check runs one seed; on a python3 failure it restarts the process.
func check(py *CPython, seed uint64, opts Options) (*CPython, *Finding, Verdict, error) {
	p := Generate(seed, opts.Units)
	run := func(units []string) (Outcome, Outcome, error) {
		src := Source(units)
		a, err := py.Run(src, opts.Timeout)
		if err != nil {
			py.Close()
			np, serr := StartCPython()
			if serr != nil {
				return a, Outcome{}, serr
			}
			py = np
			return a, Outcome{}, fmt.Errorf("seed %d: %w", seed, err)
		}
		return a, RunPVM(src), nil
	}
	a, b, err := run(p.Units)
	if err != nil {
		return py, nil, Outside, err
	}
	v := Compare(a, b)
	if v != Differ {
		return py, nil, v, nil
	}
	min := Minimize(p.Units, func(units []string) bool {
		a, b, err := run(units)
		return err == nil && Compare(a, b) == Differ
	})
	a, b, err = run(min)
	if err != nil {
		return py, nil, Outside, err
	}
	return py, &Finding{Seed: seed, Source: Source(min), Python: a, PVM: b}, Differ, nil
}
