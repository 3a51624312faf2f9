package pvm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/modules"
)

// pyperfConfig is how the pyperformance programs run: the default 10 MiB
// live-heap limit, cycles and cells without practical bound.
func pyperfConfig(stdout *bytes.Buffer) Config {
	return Config{CyclesLimit: 1 << 40, CellsLimit: 1 << 20, Stdout: stdout, Modules: modules.Standard()}
}

// pyperfPrograms lists testdata/pyperf/*.py, the pyperformance benchmark
// programs adapted to the PVM's whitelist.
func pyperfPrograms(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "pyperf", "*.py"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no pyperf programs: %v", err)
	}
	return files
}

// TestPyperf runs each pyperformance program in the PVM under the default
// memory limit and compares its output with the expected file, which is
// CPython 3.11's output, and with python3's output when python3 is on PATH.
func TestPyperf(t *testing.T) {
	py, _ := exec.LookPath("python3")
	for _, file := range pyperfPrograms(t) {
		file := file
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(file + ".out")
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			res, err := RunFile(filepath.Base(file), src, pyperfConfig(&out))
			if err != nil {
				t.Fatalf("PVM: %v\noutput so far:\n%s", err, out.String())
			}
			if out.String() != string(want) {
				t.Fatalf("PVM output:\n%s\nwant (%s.out):\n%s", out.String(), filepath.Base(file), want)
			}
			t.Logf("%d cycles, %d heap measurements (%d cycles)", res.CyclesUsed, res.HeapMeasurements, res.HeapMeasurementCycles)
			if py == "" || testing.Short() {
				return
			}
			cmd := exec.Command(py, file)
			cmd.Stderr = os.Stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("python3 %s: %v", file, err)
			}
			if string(got) != out.String() {
				t.Fatalf("CPython output differs:\n%s\nPVM:\n%s", got, out.String())
			}
		})
	}
}
