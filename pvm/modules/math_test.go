package modules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestMathAndFloatPrograms runs the float and math conformance programs of
// pvm/testdata against their CPython goldens from this package too, so that
// `GOARCH=arm64 go test ./pvm/modules/` (scripts/test-arm64.sh) checks the
// PVM's float results on a second architecture (and decimal_exp_ln.py: the
// decimal module's exp and ln must not depend on apd's host-float guesses).
func TestMathAndFloatPrograms(t *testing.T) {
	var files []string
	for _, pat := range []string{"math_*.py", "float_*.py", "arith_float.py", "decimal_exp_ln.py"} {
		m, err := filepath.Glob(filepath.Join("..", "testdata", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(f + ".out")
		if err != nil {
			t.Fatal(err)
		}
		got, _, exc := run(t, string(src))
		if exc != "" {
			t.Errorf("%s: %s", f, exc)
		}
		if got != string(want) {
			t.Errorf("%s: output differs from CPython's\n--- got\n%s--- want\n%s", f, got, want)
		}
	}
}

func TestMathErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"math.sqrt(-1)", "ValueError: math domain error"},
		{"math.exp(710)", "OverflowError: math range error"},
		{"math.log(0)", "ValueError: math domain error"},
		{"math.log(-(10**400))", "ValueError: math domain error"},
		{"math.pow(0.0, -1.0)", "ValueError: math domain error"},
		{"math.pow(1e300, 2)", "OverflowError: math range error"},
		{"math.fmod(math.inf, 1)", "ValueError: math domain error"},
		{"math.factorial(1000)", "OverflowError: int exceeds the 4096-bit limit"},
		{"math.comb(10**6, 5000)", "OverflowError: int exceeds the 4096-bit limit"},
		{"math.perm(10**6, 10**5)", "OverflowError: int exceeds the 4096-bit limit"},
		{"math.lcm(*range(1, 5000))", "OverflowError: int exceeds the 4096-bit limit"},
		{"math.ldexp(1.0, 1.5)", "TypeError: Expected an int as second argument to ldexp."},
		{"math.isclose(1, 2, 3)", "TypeError: isclose() takes exactly 2 positional arguments (3 given)"},
		{"math.isclose(1, 2, rel_tol=-1)", "ValueError: tolerances must be non-negative"},
		{"math.trunc('x')", "TypeError: type str doesn't define __trunc__ method"},
		{"math.floor(float('nan'))", "ValueError: cannot convert float NaN to integer"},
		{"math.fsum([1e308, 1e308])", "OverflowError: intermediate overflow in fsum"},
	} {
		raises(t, "import math\n"+c.src+"\n", c.want)
	}
}

// TestMathValues covers what CPython prints identically but the programs
// do not: big-int logarithms, dunder protocols and int/float subclasses.
func TestMathValues(t *testing.T) {
	src := `import math
class F:
    def __float__(self):
        return 2.25
class I:
    def __index__(self):
        return 12
class Fl(float):
    pass
print(math.sqrt(F()), math.gcd(I(), 18), math.sqrt(Fl(6.25)), math.log(10**1000), math.log10(10**400), math.log2(2**4000 + 1))
print(math.floor(Fl(2.5)), math.ceil(-0.5), math.trunc(Fl(-2.5)), math.isqrt(10**100), math.comb(60, 30), math.perm(10, 0))
print(math.prod(range(1, 11)), math.prod([]), math.prod([2.0, 3], start=0.5), math.fsum(i / 10 for i in range(11)))
`
	out, _ := mustRun(t, src)
	want := "1.5 6 2.5 2302.585092994045 400.0 4000.0\n2 0 -2 100000000000000000000000000000000000000000000000000 118264581564861424 1\n3628800 1 3.0 5.5\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestMathCost pins the metering rows: an elementary function costs
// meter.CostMathElementary more than fabs's meter.CostMathSimple, and fsum
// and prod are proportional to their input.
func TestMathCost(t *testing.T) {
	_, simple := mustRun(t, "import math\nx = math.fabs(0.5)\n")
	_, elem := mustRun(t, "import math\nx = math.exp(0.5)\n")
	if elem-simple != meter.CostMathElementary-meter.CostMathSimple {
		t.Errorf("exp costs %d more than fabs, want %d", elem-simple, meter.CostMathElementary-meter.CostMathSimple)
	}
	_, fpow := mustRun(t, "x = 1.5 ** 2.5\n")
	_, ipow := mustRun(t, "x = 1.5 ** 2.0\n")
	if fpow-ipow != meter.CostMathPow {
		t.Errorf("1.5 ** 2.5 costs %d more than 1.5 ** 2.0, want %d", fpow-ipow, meter.CostMathPow)
	}
	_, fast := mustRun(t, "import math\nx = math.sin(0.5)\n")
	_, slow := mustRun(t, "import math\nx = math.sin(1e300)\n")
	_, special := mustRun(t, "import math\nx = math.sin(0.0)\n")
	if slow-fast != meter.CostMathSlowPath || special != fast {
		t.Errorf("sin(1e300) costs %d more than sin(0.5), want %d; sin(0.0) %d, sin(0.5) %d", slow-fast, meter.CostMathSlowPath, special, fast)
	}
	proportional(t, "import math\nx = math.prod([1.0001] * N)\n", 200)
	proportional(t, "import math\nx = math.fsum([1.0] * N)\n", 200)
}

// floatLoop is a float-heavy program for BenchmarkFloatLoop (docs/benchmarks.md
// "softfloat"): 100k iterations of + - * / and comparisons.
const floatLoop = `
x = 0.5
acc = 0.0
for i in range(100000):
    x = x * 1.0000001 + 0.25 / (i + 1.0)
    if x > 2.0:
        x = x - 1.5
    acc += x * x - x / 3.0
print(acc)
`

func BenchmarkFloatLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		run(&testing.T{}, floatLoop)
	}
}

const mathLoop = `
import math
acc = 0.0
for i in range(2000):
    x = i * 0.001
    acc += math.sin(x) + math.exp(x) + math.log(x + 1.0) + math.sqrt(x)
print(acc)
`

func BenchmarkMathLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		run(&testing.T{}, mathLoop)
	}
}
