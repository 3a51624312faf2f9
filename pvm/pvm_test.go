package pvm

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

var update = flag.Bool("update", false, "regenerate testdata/*.py.out and *.py.err with python3, and testdata/cycles.golden")

// conformanceConfig is generous: conformance programs test semantics, not
// limits.
func conformanceConfig(stdout *bytes.Buffer) Config {
	return Config{CyclesLimit: 2_000_000_000, CellsLimit: 1 << 20, Stdout: stdout, Modules: modules.Standard()}
}

// regenerate runs CPython on file (in testdata, by base name so tracebacks
// name the same file) and writes the expected stdout and, for a failing
// program, the expected traceback frames and last line.
func regenerate(t *testing.T, file string) {
	t.Helper()
	cmd := exec.Command("python3", filepath.Base(file))
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(), "PYTHONHASHSEED=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	if err := os.WriteFile(file+".out", out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	errFile := file + ".err"
	if runErr == nil {
		os.Remove(errFile)
		return
	}
	// CPython names the main script by its absolute path; the PVM by the
	// name it was given.
	abs, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		t.Fatal(err)
	}
	tb := strings.ReplaceAll(errb.String(), abs+string(filepath.Separator), "")
	if err := os.WriteFile(errFile, []byte(tracebackSummary(tb)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tracebackSummary keeps the parts of a traceback both implementations print
// identically: the header, the File lines and the last line (CPython 3.11
// also prints source lines and ^^^ markers, which the PVM does not).
func tracebackSummary(tb string) string {
	var keep []string
	for _, line := range strings.Split(strings.TrimRight(tb, "\n"), "\n") {
		if strings.HasPrefix(line, "Traceback") || strings.HasPrefix(line, "  File ") ||
			(line != "" && !strings.HasPrefix(line, " ")) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n") + "\n"
}

func TestConformance(t *testing.T) {
	files, err := filepath.Glob("testdata/*.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	passed := 0
	for _, file := range files {
		if *update {
			regenerate(t, file)
		}
		ok := t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(file + ".out")
			if err != nil {
				t.Fatalf("missing golden (run go test ./pvm -run TestConformance -update): %v", err)
			}
			wantErr, _ := os.ReadFile(file + ".err")
			var out bytes.Buffer
			res, runErr := RunFile(filepath.Base(file), src, conformanceConfig(&out))
			// Determinism: a second run prints the same and uses exactly the
			// same cycles and cells.
			var out2 bytes.Buffer
			res2, runErr2 := RunFile(filepath.Base(file), src, conformanceConfig(&out2))
			if res != res2 || out.String() != out2.String() || fmt.Sprint(runErr) != fmt.Sprint(runErr2) {
				t.Errorf("second run differs: %+v vs %+v", res, res2)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("stdout differs\n--- got\n%s\n--- want\n%s", got, want)
			}
			if len(wantErr) == 0 {
				if runErr != nil {
					t.Fatalf("unexpected error: %v", runErr)
				}
				return
			}
			var pe *vm.PyError
			if !errors.As(runErr, &pe) {
				t.Fatalf("want a Python exception, got %v", runErr)
			}
			if got := tracebackSummary(pe.Traceback); got != string(wantErr) {
				t.Errorf("traceback differs\n--- got\n%s--- want\n%s", got, wantErr)
			}
		})
		if ok {
			passed++
		}
	}
	t.Logf("%d of %d conformance programs pass", passed, len(files))
}

// TestCyclesExact pins the exact cycles of a set of programs: metering is
// consensus, so any change to the cost table or to how the compiler lowers a
// construct shows up here. Each program also runs twice to show the count
// does not vary between runs.
func TestCyclesExact(t *testing.T) {
	progs := []string{"arith_int.py", "lists.py", "dicts.py", "classes.py", "generators.py", "exceptions_basic.py", "strings_format.py", "recursion_ok.py"}
	var lines []string
	for _, p := range progs {
		src, err := os.ReadFile(filepath.Join("testdata", p))
		if err != nil {
			t.Fatal(err)
		}
		var used [2]Result
		for i := range used {
			var out bytes.Buffer
			r, err := RunFile(p, src, conformanceConfig(&out))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			used[i] = r
		}
		if used[0] != used[1] {
			t.Fatalf("%s: cycles differ between runs: %+v vs %+v", p, used[0], used[1])
		}
		lines = append(lines, fmt.Sprintf("%s %d", p, used[0].CyclesUsed))
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "cycles.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("missing %s (run with -update): %v", golden, err)
	}
	if got != string(want) {
		t.Errorf("cycle counts changed\n--- got\n%s--- want\n%s", got, want)
	}
}

func lastLine(err error) string {
	var pe *vm.PyError
	if errors.As(err, &pe) {
		return pe.LastLine()
	}
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestHostile runs programs written to break the VM: each must end with its
// specific error, quickly and without a Go panic or stack overflow.
func TestHostile(t *testing.T) {
	nested := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	cases := []struct {
		name, src string
		check     func(err error) bool
		want      string
	}{
		{"infinite loop", "while True:\n    pass\n", func(err error) bool { return errors.Is(err, meter.ErrOutOfCycles) }, "out of cycles"},
		{"infinite loop caught", "try:\n    while True:\n        pass\nexcept BaseException:\n    print('caught')\n", func(err error) bool { return errors.Is(err, meter.ErrOutOfCycles) }, "out of cycles (uncatchable)"},
		{"infinite recursion", "def f(n):\n    return f(n + 1)\nf(0)\n", func(err error) bool { return lastLine(err) == "RecursionError: maximum recursion depth exceeded" }, "RecursionError"},
		{"mutual recursion", "def a(): return b()\ndef b(): return a()\na()\n", func(err error) bool { return lastLine(err) == "RecursionError: maximum recursion depth exceeded" }, "RecursionError"},
		{"big int power", "x = 2 ** 10**6\n", func(err error) bool {
			return strings.HasPrefix(lastLine(err), "OverflowError: int exceeds the 4096-bit limit")
		}, "OverflowError"},
		{"big int growth", "x = 3\nwhile True:\n    x = x * x\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "OverflowError") }, "OverflowError"},
		{"big shift", "x = 1 << 5000\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "OverflowError") }, "OverflowError"},
		{"string bomb", "s = 'x' * 10**9\n", func(err error) bool { return lastLine(err) == "MemoryError" }, "MemoryError"},
		{"list bomb", "l = [0] * 10**9\n", func(err error) bool { return lastLine(err) == "MemoryError" }, "MemoryError"},
		{"growing list", "l = []\nwhile True:\n    l.append(l)\n    l = [l, l]\n", func(err error) bool { return lastLine(err) == "MemoryError" || errors.Is(err, meter.ErrOutOfCycles) }, "MemoryError or out of cycles"},
		{"doubling list", "l = [1]\nwhile True:\n    l = l + l\n", func(err error) bool { return lastLine(err) == "MemoryError" }, "MemoryError"},
		{"doubling string", "s = 'ab'\nwhile True:\n    s += s\n", func(err error) bool { return lastLine(err) == "MemoryError" }, "MemoryError"},
		{"nested literal", "x = " + nested + "\n", func(err error) bool {
			l := lastLine(err)
			return strings.HasPrefix(l, "SyntaxError") || strings.HasPrefix(l, "RecursionError") || strings.Contains(l, "too many nested")
		}, "SyntaxError or RecursionError"},
		{"repr nested", "x = []\nfor i in range(100000):\n    x = [x]\nprint(x)\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "RecursionError") }, "RecursionError"},
		{"eval", "eval('1')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"exec", "exec('x=1')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"compile", "compile('1', 'f', 'eval')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"input", "input()\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"globals", "globals()['x'] = 1\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"dynamic import", "__import__('os')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "ImportError") }, "ImportError"},
		{"import not whitelisted", "import os\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "ModuleNotFoundError") }, "ModuleNotFoundError"},
		{"open outside tmp", "open('/etc/passwd')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "PermissionError") }, "PermissionError"},
		{"is on str", "a = 'x'\nprint(a is 'x')\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
		{"is on int", "a = 1000\nb = 1000\nprint(a is not b)\n", func(err error) bool { return strings.HasPrefix(lastLine(err), "DeterminismError") }, "DeterminismError"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := RunFile("hostile.py", []byte(c.src), Config{CyclesLimit: 50_000_000, CellsLimit: 1 << 16, Stdout: &out})
			if !c.check(err) {
				t.Fatalf("want %s, got %v", c.want, err)
			}
		})
	}
}

// TestIdentityAllowed shows `is` stays usable where the spec allows it.
func TestIdentityAllowed(t *testing.T) {
	var out bytes.Buffer
	src := "x = None\nprint(x is None, 1 is not None, True is True, [] is [], (a := []) is a)\n"
	if _, err := RunFile("is.py", []byte(src), conformanceConfig(&out)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "True True True False True\n" {
		t.Fatalf("got %q", got)
	}
}

func TestScratchFile(t *testing.T) {
	var out bytes.Buffer
	src := "with open('/tmp/a.txt', 'w') as f:\n    f.write('hello\\nworld\\n')\nwith open('/tmp/a.txt') as f:\n    print(f.read().split())\n"
	if _, err := RunFile("tmp.py", []byte(src), conformanceConfig(&out)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "['hello', 'world']\n" {
		t.Fatalf("got %q", got)
	}
}

func TestOutOfCyclesReportsUsage(t *testing.T) {
	r, err := RunFile("loop.py", []byte("while True:\n    pass\n"), Config{CyclesLimit: 1000})
	if !errors.Is(err, meter.ErrOutOfCycles) {
		t.Fatalf("got %v", err)
	}
	if r.CyclesUsed != 1000 {
		t.Fatalf("cycles used %d, want the whole limit", r.CyclesUsed)
	}
}
