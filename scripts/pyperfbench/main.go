// Command pyperfbench times the pyperformance programs of
// pvm/testdata/pyperf under the PVM and under CPython (python3) in the same
// run and prints a Markdown table: program, PVM time, CPython time, their
// ratio, and the geometric mean of the ratios (docs/benchmarks.md, "PVM vs
// CPython 3.11"). Each side's figure is the best of -runs runs; the runs of
// the two sides alternate so that a change in the machine's load affects
// both. Every PVM run's output is checked against the expected file.
//
//	go run ./scripts/pyperfbench [-runs 5] [-python python3] [program ...]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/modules"
)

// cpythonTimer runs a file once under CPython with stdout discarded and
// prints the seconds exec took (compilation included, as RunFile does).
const cpythonTimer = `
import sys, time, io
path = sys.argv[1]
src = open(path).read()
out = sys.stdout
sys.stdout = io.StringIO()
t = time.perf_counter()
exec(compile(src, path, "exec"), {"__name__": "__main__"})
d = time.perf_counter() - t
sys.stdout = out
print(d)
`

func main() {
	runs := flag.Int("runs", 5, "runs per program and side; the best is reported")
	python := flag.String("python", "python3", "CPython 3.11 interpreter")
	dir := flag.String("dir", "pvm/testdata/pyperf", "directory of the programs and their .out files")
	flag.Parse()
	if err := run(*dir, *python, *runs, flag.Args(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pyperfbench:", err)
		os.Exit(1)
	}
}

func run(dir, python string, runs int, only []string, w io.Writer) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil {
		return fmt.Errorf("list programs: %w", err)
	}
	if len(files) == 0 {
		return fmt.Errorf("no programs in %s", dir)
	}
	if len(only) > 0 {
		keep := files[:0]
		for _, f := range files {
			for _, o := range only {
				if strings.TrimSuffix(filepath.Base(f), ".py") == strings.TrimSuffix(o, ".py") {
					keep = append(keep, f)
				}
			}
		}
		files = keep
	}
	if _, err := exec.LookPath(python); err != nil {
		return fmt.Errorf("%s not found: the table compares against CPython: %w", python, err)
	}
	fmt.Fprintf(w, "| program | PVM | CPython 3.11 | ratio | cycles |\n|---|---|---|---|---|\n")
	logSum := 0.0
	worst, worstName := 0.0, ""
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".py")
		src, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		want, err := os.ReadFile(f + ".out")
		if err != nil {
			return fmt.Errorf("read expected output: %w", err)
		}
		bestPVM, bestPy := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		var cycles uint64
		for i := 0; i < runs; i++ {
			var out bytes.Buffer
			start := time.Now()
			res, err := pvm.RunFile(filepath.Base(f), src, pvm.Config{CyclesLimit: 1 << 40, CellsLimit: 1 << 20, Stdout: &out, Modules: modules.Standard()})
			d := time.Since(start)
			if err != nil {
				return fmt.Errorf("%s in the PVM: %w", name, err)
			}
			if out.String() != string(want) {
				return fmt.Errorf("%s: PVM output differs from %s.out:\n%s", name, name, out.String())
			}
			cycles = res.CyclesUsed
			bestPVM = min(bestPVM, d)

			cmd := exec.Command(python, "-c", cpythonTimer, f)
			cmd.Stderr = os.Stderr
			b, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("%s under %s: %w", name, python, err)
			}
			secs, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
			if err != nil {
				return fmt.Errorf("%s under %s: timing %q: %w", name, python, b, err)
			}
			bestPy = min(bestPy, time.Duration(secs*float64(time.Second)))
		}
		ratio := float64(bestPVM) / float64(bestPy)
		logSum += math.Log(ratio)
		if ratio > worst {
			worst, worstName = ratio, name
		}
		fmt.Fprintf(w, "| %s | %.1f ms | %.1f ms | %.2f× | %d |\n", name, ms(bestPVM), ms(bestPy), ratio, cycles)
	}
	fmt.Fprintf(w, "\nGeometric mean of the ratios: %.2f× over %d programs (highest: %s, %.2f×); best of %d runs per side.\n",
		math.Exp(logSum/float64(len(files))), len(files), worstName, worst, runs)
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
