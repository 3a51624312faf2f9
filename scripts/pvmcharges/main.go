// Command pvmcharges prints what the PVM charges for a corpus of programs
// under several meter settings, one line per run: program, setting,
// cycles and cells used, heap measurements and their cycles, whether the
// run failed, and a hash of its output and error. Two builds that must
// charge the same (an interpreter change that only makes it faster) print
// the same lines; `diff` of the two outputs is the check
// (docs/benchmarks.md, "PVM: slice temporaries, smaller generators, charges
// diffed per build").
//
// The corpus is pvm/testdata/*.py (the conformance programs),
// pvm/testdata/pyperf/*.py and -difftest generated programs from -seed
// on. The settings are the generous default, three live-heap limits and
// eight cycle limits and a small cells limit, so that runs stop in the
// middle of loops, of calls and of straight-line code.
//
//	go run ./scripts/pvmcharges [-difftest 300] [-seed 41000000] > charges.txt
package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/difftest"
	"github.com/cowboy-chain/cowboy/pvm/modules"
)

// setting is one meter configuration.
type setting struct {
	name                string
	cycles, cells, heap uint64
}

var settings = []setting{
	{"default", 2_000_000_000, 1 << 20, 0},
	{"heap40K", 2_000_000_000, 1 << 20, 40_000},
	{"heap200K", 2_000_000_000, 1 << 20, 200_000},
	{"heap1M", 2_000_000_000, 1 << 20, 1 << 20},
	{"cyc1", 1, 1 << 20, 0},
	{"cyc997", 997, 1 << 20, 0},
	{"cyc5000", 5_000, 1 << 20, 0},
	{"cyc12345", 12_345, 1 << 20, 0},
	{"cyc77777", 77_777, 1 << 20, 0},
	{"cyc250001", 250_001, 1 << 20, 0},
	{"cyc1000003", 1_000_003, 1 << 20, 0},
	{"cyc3333331", 3_333_331, 1 << 20, 0},
	{"cells50", 2_000_000_000, 50, 0},
}

// program is one source to run, named as its tracebacks name it.
type program struct {
	name string
	src  []byte
}

func main() {
	n := flag.Int("difftest", 300, "how many generated difftest programs to add")
	seed := flag.Uint64("seed", 41_000_000, "seed of the first generated program")
	dir := flag.String("dir", "pvm/testdata", "the conformance programs' directory (pyperf/ below it)")
	only := flag.String("run", "", "run only the programs whose name matches this regular expression")
	setName := flag.String("setting", "", "run only this setting (for timing one program)")
	repeat := flag.Int("repeat", 1, "run each program and setting this many times (for timing; one line each)")
	flag.Parse()
	re, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pvmcharges: -run:", err)
		os.Exit(2)
	}
	progs, err := corpus(*dir, *n, *seed, re)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pvmcharges:", err)
		os.Exit(1)
	}
	var runs, failed, measured int
	for _, p := range progs {
		for _, s := range settings {
			if *setName != "" && s.name != *setName {
				continue
			}
			for i := 0; i < *repeat; i++ {
				line, fail, meas := run(p, s)
				fmt.Println(line)
				runs++
				if fail {
					failed++
				}
				if meas {
					measured++
				}
			}
		}
	}
	fmt.Fprintf(os.Stderr, "pvmcharges: %d programs, %d runs, %d ending in an error, %d measuring the heap\n", len(progs), runs, failed, measured)
}

// corpus lists the programs in a fixed order.
func corpus(dir string, n int, seed uint64, only *regexp.Regexp) ([]program, error) {
	var progs []program
	for _, pattern := range []string{filepath.Join(dir, "*.py"), filepath.Join(dir, "pyperf", "*.py")} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", pattern, err)
		}
		sort.Strings(files)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				return nil, fmt.Errorf("read program: %w", err)
			}
			if only.MatchString(f) {
				progs = append(progs, program{name: f, src: src})
			}
		}
	}
	for i := 0; i < n; i++ {
		s := seed + uint64(i)
		if !only.MatchString(fmt.Sprintf("difftest-%d", s)) {
			continue
		}
		progs = append(progs, program{name: fmt.Sprintf("difftest-%d", s), src: []byte(difftest.Generate(s, 25).Source())})
	}
	if len(progs) == 0 {
		return nil, errors.New("no programs under " + dir + " match")
	}
	return progs, nil
}

// run runs p under s and formats the line that must not change.
func run(p program, s setting) (line string, failed, measured bool) {
	var out bytes.Buffer
	res, err := pvm.RunFile(filepath.Base(p.name), p.src, pvm.Config{
		CyclesLimit: s.cycles, CellsLimit: s.cells, MemoryLimit: s.heap, Stdout: &out, Modules: modules.Standard(),
	})
	h := sha256.New()
	h.Write(out.Bytes())
	h.Write([]byte{0})
	if err != nil {
		h.Write([]byte(err.Error()))
	}
	line = fmt.Sprintf("%s %s cycles=%d cells=%d heapwalks=%d heapcycles=%d failed=%t %x",
		p.name, s.name, res.CyclesUsed, res.CellsUsed, res.HeapMeasurements, res.HeapMeasurementCycles, err != nil, h.Sum(nil)[:12])
	return line, err != nil, res.HeapMeasurements > 0
}
