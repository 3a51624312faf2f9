package object

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Float arithmetic against CPython 3.11: testdata/float_ops.txt holds
// "a op b result" lines (floats in float.hex() form, or the exception
// raised) that testdata/gen_float_ops.py wrote with CPython, on edge and
// random operands, so the softfloat-based ops are checked bit for bit
// against what nobody here wrote.
func TestFloatOpsMatchCPython(t *testing.T) {
	f, err := os.Open("testdata/float_ops.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opOf := map[string]Op{"+": OpAdd, "-": OpSub, "*": OpMul, "/": OpTrueDiv, "//": OpFloorDiv, "%": OpMod, "**": OpPow}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("bad float %q in testdata: %v", s, err)
		}
		return v
	}
	c := newCtx()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		lines++
		a, b, want := num(fields[0]), num(fields[2]), fields[3]
		got, err := floatBinary(c, opOf[fields[1]], a, b)
		what := fields[0] + " " + fields[1] + " " + fields[2]
		if strings.HasSuffix(want, "Error") {
			if err == nil || excClass(err).Name != want {
				t.Errorf("%s = %v, %v; want %s", what, got, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v, want %s", what, err, want)
			continue
		}
		g, ok := got.(Float)
		if !ok {
			t.Errorf("%s = %T, want float %s", what, got, want)
			continue
		}
		w := num(want)
		if math.IsNaN(w) != math.IsNaN(float64(g)) || (!math.IsNaN(w) && math.Float64bits(w) != math.Float64bits(float64(g))) {
			t.Errorf("%s = %s, want %s", what, strconv.FormatFloat(float64(g), 'x', -1, 64), want)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 5000 {
		t.Fatalf("only %d vectors", lines)
	}
}
