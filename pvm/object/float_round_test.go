package object

import (
	"bufio"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFloatRoundMatchesCPython checks round(x), round(x, nd) and int(x)
// against CPython 3.11: testdata/float_round.txt holds "x nd result" lines
// (x in float.hex() form; nd an int, None for round(x), or "int" for
// int(x); the result as float.hex(), a decimal int or the exception's
// name) that testdata/gen_float_round.py wrote on edge and random values,
// including ndigits past both of CPython's clipping limits, huge ndigits,
// ties, subnormals, infinities and NaN.
func TestFloatRoundMatchesCPython(t *testing.T) {
	f, err := os.Open("testdata/float_round.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newCtx()
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("bad line %q", sc.Text())
		}
		lines++
		x, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			t.Fatalf("bad float %q: %v", fields[0], err)
		}
		what, want := "int("+fields[0]+")", fields[2]
		var got Value
		switch fields[1] {
		case "int":
			got, err = FloatToInt(x)
		case "None":
			what = "round(" + fields[0] + ")"
			got, err = RoundFloat(c, Float(x), None)
		default:
			what = "round(" + fields[0] + ", " + fields[1] + ")"
			nd, ok := new(big.Int).SetString(fields[1], 10)
			if !ok {
				t.Fatalf("bad ndigits %q", fields[1])
			}
			ndv, err2 := MakeBigInt(nd)
			if err2 != nil {
				t.Fatal(err2)
			}
			got, err = RoundFloat(c, Float(x), ndv)
		}
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
		if strings.HasPrefix(want, "0x") || strings.HasPrefix(want, "-0x") || want == "inf" || want == "-inf" || want == "nan" {
			w, _ := strconv.ParseFloat(want, 64)
			g, ok := got.(Float)
			if !ok || math.IsNaN(w) != math.IsNaN(float64(g)) || (!math.IsNaN(w) && math.Float64bits(w) != math.Float64bits(float64(g))) {
				t.Errorf("%s = %#v, want %s", what, got, want)
			}
			continue
		}
		w, _ := new(big.Int).SetString(want, 10)
		checkCanonicalInt(t, what, got, w)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 4000 {
		t.Fatalf("only %d lines in testdata/float_round.txt", lines)
	}
}

// TestFloatRoundErrors checks the messages CPython gives, an ndigits that
// is not an int, and the cycles round(x, nd) charges (|nd|/8 + 1 before
// the exact arithmetic; nothing for the cases decided up front).
func TestFloatRoundErrors(t *testing.T) {
	c := newCtx()
	if _, err := RoundFloat(c, Float(1.5), Str("2")); err == nil || excClass(err) != TypeError ||
		!strings.Contains(err.Error(), "'str' object cannot be interpreted as an integer") {
		t.Errorf("round(1.5, '2') = %v", err)
	}
	if _, err := RoundFloat(c, Float(math.MaxFloat64), MakeInt(-308)); err == nil ||
		!strings.Contains(err.Error(), "rounded value too large to represent") {
		t.Errorf("round(max, -308) = %v", err)
	}
	if _, err := FloatToInt(math.NaN()); err == nil || !strings.Contains(err.Error(), "cannot convert float NaN to integer") {
		t.Errorf("int(nan) = %v", err)
	}
	if _, err := FloatToInt(math.Inf(-1)); err == nil || !strings.Contains(err.Error(), "cannot convert float infinity to integer") {
		t.Errorf("int(-inf) = %v", err)
	}
	for _, tc := range []struct {
		x    float64
		nd   int64
		want uint64
	}{
		{2.675, 2, 1},     // 2/8 + 1
		{2.675, 17, 3},    // 17/8 + 1
		{2.675, -17, 3},   // 17/8 + 1: rounds to 0.0 through the exact path
		{123.456, -1, 1},  // 1/8 + 1
		{0, 5, 0},         // zero: decided up front
		{1.5, 324, 0},     // past ndigitsMax: decided up front
		{1.5, -309, 0},    // past ndigitsMin: decided up front
		{4.0, 3, 1},       // an integer already: charged, then returned as is
		{1e-300, 300, 38}, // 300/8 + 1
	} {
		c := newCtx()
		before := c.m.CyclesUsed()
		if _, err := RoundFloat(c, Float(tc.x), MakeInt(tc.nd)); err != nil {
			t.Fatalf("round(%v, %d): %v", tc.x, tc.nd, err)
		}
		if got := c.m.CyclesUsed() - before; got != tc.want {
			t.Errorf("round(%v, %d) charged %d cycles, want %d", tc.x, tc.nd, got, tc.want)
		}
	}
}
