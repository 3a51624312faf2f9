package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/modules"
)

var update = flag.Bool("update", false, "rewrite testdata/sample.flat.py and its .out with python3")

// TestFlatten runs flatten.py on testdata/sample.py (doctests in a module,
// function, class, decorated function; a main guard; an example that does
// not parse) and compares the program with testdata/sample.flat.py. It
// needs python3 and is skipped without it.
func TestFlatten(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	out, err := exec.Command(py, "-I", "flatten.py", filepath.Join("testdata", "sample.py")).Output()
	if err != nil {
		t.Fatalf("flatten.py: %v", err)
	}
	var fl flattened
	if err := json.Unmarshal(out, &fl); err != nil {
		t.Fatalf("flatten.py answer: %v", err)
	}
	if fl.Examples != 12 || len(fl.Uses) != 0 {
		t.Errorf("examples %d uses %v, want 12 and none (input() is only in the main guard)", fl.Examples, fl.Uses)
	}
	kinds := map[string]int{}
	for _, u := range fl.Units {
		kinds[u.Kind]++
	}
	if kinds["module"] != 6 || kinds["example"] != 12 {
		t.Errorf("units %v, want 6 module and 12 example", kinds)
	}
	prog := join(fl.Units)
	golden := filepath.Join("testdata", "sample.flat.py")
	if *update {
		if err := os.WriteFile(golden, []byte(prog), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := exec.Command(py, golden).Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden+".out", res, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if prog != string(want) {
		t.Errorf("flattened program differs from %s (-update rewrites it):\n%s", golden, prog)
	}
}

// TestFlatProgramInPVM runs the checked-in flattened program in the PVM
// and compares with CPython's output beside it: the flattener's output
// shape (markers, try/except, repr) is one the PVM runs as CPython does.
func TestFlatProgramInPVM(t *testing.T) {
	golden := filepath.Join("testdata", "sample.flat.py")
	src, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(golden + ".out")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := pvm.RunFile("sample.flat.py", src, pvm.Config{CyclesLimit: 1e8, CellsLimit: 1e6, Stdout: &out, Modules: modules.Standard()}); err != nil {
		t.Fatalf("PVM: %v", err)
	}
	if out.String() != string(want) {
		t.Errorf("PVM printed\n%s\nCPython\n%s", out.String(), want)
	}
}

func TestCompare(t *testing.T) {
	cases := []struct {
		name   string
		py, pv outcome
		want   verdict
	}{
		{"same", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n4\n"}, verdictSame},
		{"value", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n5\n"}, verdictDiffer},
		{"PVM raised at the end", outcome{Stdout: "#1\n"}, outcome{Stdout: "#1\n", Exc: "TypeError"}, verdictDiffer},
		{"cycles", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n", Exc: "<limit>", Limit: true}, verdictOutside},
		{"PVM timeout", outcome{Stdout: "#1\n4\n"}, outcome{Timeout: true}, verdictOutside},
		{"memory in an example", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n! MemoryError\n"}, verdictOutside},
		{"recursion in an example", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n! RecursionError\n"}, verdictOutside},
		{"int cap in an example", outcome{Stdout: "#1\n4\n"}, outcome{Stdout: "#1\n! CAP\n"}, verdictOutside},
		{"int cap uncaught", outcome{Stdout: ""}, outcome{Exc: "OverflowError", Err: "OverflowError: int exceeds the 4096-bit limit"}, verdictOutside},
		{"other overflow", outcome{Stdout: ""}, outcome{Exc: "OverflowError", Err: "OverflowError: math range error"}, verdictDiffer},
		{"set order", outcome{Stdout: "#1\n{2, 3, 4}\n#2\n1\n"}, outcome{Stdout: "#1\n{4, 3, 2}\n#2\n1\n"}, verdictOrder},
		{"set order and a value", outcome{Stdout: "#1\n{2, 3, 4}\n#2\n1\n"}, outcome{Stdout: "#1\n{4, 3, 2}\n#2\n7\n"}, verdictDiffer},
		{"import in an example", outcome{Stdout: "#1\n'x'\n"}, outcome{Stdout: "#1\n! ModuleNotFoundError\n"}, verdictRefusedInExample},
		{"import error not at an example's start", outcome{Stdout: "#1\na\nb\n"}, outcome{Stdout: "#1\na\n! ImportError\n"}, verdictDiffer},
	}
	for _, c := range cases {
		if got := compare(c.py, c.pv); got != c.want {
			t.Errorf("%s: compare = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestFirstDifference(t *testing.T) {
	cases := []struct {
		py, pv string
		k      int
	}{
		{"#1\n4\n#2\n5\n", "#1\n4\n#2\n6\n", 2},
		{"x\n#1\n", "y\n#1\n", 0},
		{"#1\n4", "#1\n4\n#2", -1},
		{"#9\n#10\n1\n", "#9\n#10\n2\n", 10},
	}
	for _, c := range cases {
		if k, _ := firstDifference(c.py, c.pv); k != c.k {
			t.Errorf("firstDifference(%q, %q) = %d, want %d", c.py, c.pv, k, c.k)
		}
	}
}

func TestAddressesNormalized(t *testing.T) {
	for in, want := range map[string]string{
		"<__main__.Q object at 0x7f53a0a003d0>": "<__main__.Q object>",
		"<__main__.Q object at 0x1130>":         "<__main__.Q object>",
		"<map object at 0x7fc0449e0d30>":        "<map object>",
		"0x10 at 0x1f":                          "0x10 at 0x1f",
	} {
		if got := addressRE.ReplaceAllString(in, ">"); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}
