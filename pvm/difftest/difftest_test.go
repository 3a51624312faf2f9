package difftest

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

var (
	seeds     = flag.Int("difftest.n", 40, "programs TestAgainstCPython runs")
	firstSeed = flag.Uint64("difftest.seed", 1, "first seed of TestAgainstCPython")
)

// TestAgainstCPython runs a fixed set of generated programs under CPython
// and the PVM and fails on the first difference, printing the minimized
// program. Raise -difftest.n for a longer run, or use cmd/difftest.
func TestAgainstCPython(t *testing.T) {
	if testing.Short() {
		t.Skip("difftest: skipped in -short mode")
	}
	st, err := Run(Options{Seed: *firstSeed, N: *seeds, OnFinding: func(f Finding) {
		t.Errorf("PVM differs from CPython:\n%s", f.Report())
	}})
	if errors.Is(err, ErrNoPython) {
		t.Skip("difftest: python3 (CPython 3.11) is not on PATH; the differential test needs it as the reference")
	}
	if err != nil {
		t.Fatal(err)
	}
	if st.Errors > 0 {
		t.Errorf("%d programs could not be run under python3", st.Errors)
	}
	t.Logf("%d programs: %d same, %d outside the contract, %d differ", st.Programs, st.Same, st.Outside, st.Differ)
}

// TestGenerateDeterministic: a seed names a program.
func TestGenerateDeterministic(t *testing.T) {
	for seed := uint64(1); seed < 50; seed++ {
		a, b := Generate(seed, 25).Source(), Generate(seed, 25).Source()
		if a != b {
			t.Fatalf("seed %d generates two different programs", seed)
		}
		if c := Generate(seed+1, 25).Source(); c == a {
			t.Fatalf("seeds %d and %d generate the same program", seed, seed+1)
		}
		if !strings.HasPrefix(a, Prelude) {
			t.Fatal("program does not start with the prelude")
		}
	}
}

// TestMinimize keeps exactly the units a difference needs.
func TestMinimize(t *testing.T) {
	units := []string{"a", "b", "bad1", "c", "d", "e", "bad2", "f"}
	got := Minimize(units, func(u []string) bool {
		n := 0
		for _, x := range u {
			if strings.HasPrefix(x, "bad") {
				n++
			}
		}
		return n == 2
	})
	if strings.Join(got, ",") != "bad1,bad2" {
		t.Fatalf("Minimize kept %v", got)
	}
}

// TestCompare: the PVM's documented limits are set aside, not reported.
func TestCompare(t *testing.T) {
	cases := []struct {
		py, pv Outcome
		want   Verdict
	}{
		{Outcome{Stdout: "1\n"}, Outcome{Stdout: "1\n"}, Same},
		{Outcome{Stdout: "1\n"}, Outcome{Stdout: "2\n"}, Differ},
		{Outcome{Stdout: "x\n"}, Outcome{Stdout: "! CAP\n"}, Outside},
		{Outcome{Stdout: ""}, Outcome{Stdout: "", Exc: "MemoryError"}, Outside},
		{Outcome{Stdout: "", Exc: "ValueError"}, Outcome{Stdout: "", Exc: "TypeError"}, Differ},
	}
	for i, k := range cases {
		if got := Compare(k.py, k.pv); got != k.want {
			t.Errorf("case %d: %v, want %v", i, got, k.want)
		}
	}
}

// TestGeneratorCoversIssue18 keeps issue 18's features in the generated
// programs: a generator change that stopped drawing them would leave them
// untested against CPython without any run failing.
func TestGeneratorCoversIssue18(t *testing.T) {
	var all strings.Builder
	for seed := uint64(1); seed <= 300; seed++ {
		for _, u := range Generate(seed, 25).Units {
			all.WriteString(u)
		}
	}
	src := all.String()
	for _, want := range []string{
		"operator.itemgetter(", "operator.attrgetter(", "operator.methodcaller(", "functools.reduce(operator.",
		"itertools.accumulate(", "operator.length_hint(",
		"math.cbrt(", "math.exp2(", "math.erf(", "math.erfc(", "math.gamma(", "math.lgamma(", "math.remainder(", "math.dist(",
		".exp()", ".ln()", ".log10()", ".as_tuple()", ".quantize(", ".fma(",
		"async def ", "await ", "async for ", "async with ", "asyncio.run(", "asyncio.sleep(", "__aenter__", "__anext__", "__await__",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("no program of seeds 1-300 contains %q", want)
		}
	}
}

// TestMangled: the generator's model of private name mangling, on the
// cases CPython 3.11 decides (checked with python3).
func TestMangled(t *testing.T) {
	cases := []struct{ class, name, want string }{
		{"Pv", "__x", "_Pv__x"},
		{"_Pv", "__x", "_Pv__x"},
		{"__Pv", "__x_", "_Pv__x_"},
		{"Pv_", "__x", "_Pv___x"},
		{"___", "__x", "__x"},
		{"Pv", "__x__", "__x__"},
		{"Pv", "__", "__"},
		{"Pv", "_x", "_x"},
	}
	for _, c := range cases {
		if got := mangled(c.class, c.name); got != c.want {
			t.Errorf("mangled(%q, %q) = %q, want %q", c.class, c.name, got, c.want)
		}
	}
}
