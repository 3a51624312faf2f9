// Command pyperfbench times the pyperformance programs of
// pvm/testdata/pyperf under the PVM and under CPython (python3) in the same
// run and prints a Markdown table: program, PVM time, CPython time, their
// ratio, and the geometric mean of the ratios (docs/benchmarks.md, "PVM vs
// CPython 3.11"), in wall time and in CPU time (user + system of the
// process, which includes the Go collector's background work; on a machine
// other jobs load, CPU time is the steadier of the two). Each figure is the
// best of -runs runs; the runs of the two sides alternate so that a change
// in the machine's load affects both. Every PVM run's output is checked
// against the expected file.
//
// With -gc node the process first sets the collector policy a cowboyd
// process runs under (gctune.Start: a heap floor of gctune.HeapFloor
// before collecting), so that the PVM's figures are those of the node
// that runs actors; the default leaves Go's GOGC=100, under which a
// short run with a small live heap collects every few MB allocated.
//
//	go run ./scripts/pyperfbench [-runs 5] [-python python3] [-gc default|node] [program ...]
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
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cowboy-chain/cowboy/internal/gctune"
	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/modules"
)

// cpythonTimer runs a file once under CPython with stdout discarded and
// prints the wall and CPU seconds exec took (compilation included, as
// RunFile does).
const cpythonTimer = `
import sys, time, io
path = sys.argv[1]
src = open(path).read()
out = sys.stdout
sys.stdout = io.StringIO()
t, c = time.perf_counter(), time.process_time()
exec(compile(src, path, "exec"), {"__name__": "__main__"})
d, dc = time.perf_counter() - t, time.process_time() - c
sys.stdout = out
print(d, dc)
`

// cpuTime is this process's user + system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	runs := flag.Int("runs", 5, "runs per program and side; the best is reported")
	python := flag.String("python", "python3", "CPython 3.11 interpreter")
	dir := flag.String("dir", "pvm/testdata/pyperf", "directory of the programs and their .out files")
	gc := flag.String("gc", "default", "collector policy: default (GOGC as the environment sets it) or node (as cowboyd runs)")
	flag.Parse()
	switch *gc {
	case "default":
	case "node":
		if !gctune.Start() {
			fmt.Fprintln(os.Stderr, "pyperfbench: GOGC is set in the environment; -gc node leaves it")
		}
	default:
		fmt.Fprintln(os.Stderr, "pyperfbench: -gc must be default or node")
		os.Exit(2)
	}
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
	fmt.Fprintf(w, "| program | PVM wall | CPython wall | ratio | PVM CPU | CPython CPU | CPU ratio | cycles |\n|---|---|---|---|---|---|---|---|\n")
	logSum, logSumCPU := 0.0, 0.0
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
		cpuPVM, cpuPy := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
		var cycles uint64
		for i := 0; i < runs; i++ {
			var out bytes.Buffer
			runtime.GC()
			start, startCPU := time.Now(), cpuTime()
			res, err := pvm.RunFile(filepath.Base(f), src, pvm.Config{CyclesLimit: 1 << 40, CellsLimit: 1 << 20, Stdout: &out, Modules: modules.Standard()})
			d, dc := time.Since(start), cpuTime()-startCPU
			if err != nil {
				return fmt.Errorf("%s in the PVM: %w", name, err)
			}
			if out.String() != string(want) {
				return fmt.Errorf("%s: PVM output differs from %s.out:\n%s", name, name, out.String())
			}
			cycles = res.CyclesUsed
			bestPVM, cpuPVM = min(bestPVM, d), min(cpuPVM, dc)

			cmd := exec.Command(python, "-c", cpythonTimer, f)
			cmd.Stderr = os.Stderr
			b, err := cmd.Output()
			if err != nil {
				return fmt.Errorf("%s under %s: %w", name, python, err)
			}
			fields := strings.Fields(string(b))
			if len(fields) != 2 {
				return fmt.Errorf("%s under %s: timing %q", name, python, b)
			}
			secs, err := strconv.ParseFloat(fields[0], 64)
			if err != nil {
				return fmt.Errorf("%s under %s: timing %q: %w", name, python, b, err)
			}
			cpuSecs, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				return fmt.Errorf("%s under %s: timing %q: %w", name, python, b, err)
			}
			bestPy = min(bestPy, time.Duration(secs*float64(time.Second)))
			cpuPy = min(cpuPy, time.Duration(cpuSecs*float64(time.Second)))
		}
		ratio := float64(bestPVM) / float64(bestPy)
		ratioCPU := float64(cpuPVM) / float64(cpuPy)
		logSum += math.Log(ratio)
		logSumCPU += math.Log(ratioCPU)
		if ratioCPU > worst {
			worst, worstName = ratioCPU, name
		}
		fmt.Fprintf(w, "| %s | %.1f ms | %.1f ms | %.2f× | %.1f ms | %.1f ms | %.2f× | %d |\n",
			name, ms(bestPVM), ms(bestPy), ratio, ms(cpuPVM), ms(cpuPy), ratioCPU, cycles)
	}
	n := float64(len(files))
	fmt.Fprintf(w, "\nGeometric mean of the ratios over %d programs: %.2f× wall, %.2f× CPU (highest CPU ratio: %s, %.2f×); best of %d runs per side.\n",
		len(files), math.Exp(logSum/n), math.Exp(logSumCPU/n), worstName, worst, runs)
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
