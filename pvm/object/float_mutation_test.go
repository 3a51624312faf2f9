package object

import (
	"math"
	"testing"
)

// TestFloatReprExponentEdges pins repr(float)'s switch to exponent form at
// its two edges, as CPython 3.11 prints them: below 1e-4 and from 1e16.
func TestFloatReprExponentEdges(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{1e15, "1000000000000000.0"},
		{9999999999999998, "9999999999999998.0"},
		{1e16, "1e+16"},
		{-1e16, "-1e+16"},
		{1.5e16, "1.5e+16"},
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{0.00012, "0.00012"},
	} {
		if got := FloatRepr(c.x); got != c.want {
			t.Errorf("repr(%g) = %q, CPython %q", c.x, got, c.want)
		}
	}
}

// TestFloatHashMatchesCPython checks hash(float) against CPython 3.11: an
// integral float hashes as the int (so 2.0 and 2 are one dict key, and
// -1.0 gives -2 as -1 does), a fraction by its exact value modulo
// 2^61 − 1.
func TestFloatHashMatchesCPython(t *testing.T) {
	c := newCtx()
	for _, tc := range []struct {
		x    float64
		want int64
	}{
		{2.0, 2},
		{-1.0, -2},
		{-3.0, -3},
		{0.5, 1152921504606846976},
		{1.5, 1152921504606846977},
		{-0.5, -1152921504606846976},
		{2.5, 1152921504606846978},
		// Beyond int64 and fractions: residues of ±1 (−1 becomes −2).
		{0x1p122, 1},
		{-0x1p122, -2},
		{0x1p-61, 1},
		{-0x1p-61, -2},
		{0x1p64, 8},
	} {
		got, err := Float(tc.x).Hash(c)
		if err != nil || got != tc.want {
			t.Errorf("hash(%v) = %d (%v), CPython %d", tc.x, got, err, tc.want)
		}
	}
}

// TestParseFloatUnderscores checks float()'s grammar for underscores
// (Python 3.11: only single underscores between digits) and other
// characters inside a number.
func TestParseFloatUnderscores(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
		ok   bool
	}{
		{"1_000.5", 1000.5, true},
		{"1_0e1_0", 1e11, true},
		{"  2_5  ", 25, true},
		{"_1", 0, false},
		{"1_", 0, false},
		{"1__0", 0, false},
		{"1_.5", 0, false},
		{"1._5", 0, false},
		{"1,5", 0, false},
		{"1 5", 0, false},
		{"1e5$", 0, false},
		{"1.5\x00", 0, false},
		{"-Infinity", math.Inf(-1), true},
		{"1E5", 1e5, true},
	} {
		got, ok := ParseFloat(c.s)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("float(%q) = %v, %v; want %v, %v", c.s, got, ok, c.want, c.ok)
		}
	}
}

// TestParseFloatNaN checks float("nan") in any case gives a NaN.
func TestParseFloatNaN(t *testing.T) {
	for _, s := range []string{"nan", "NaN", "-nan", " NAN "} {
		if got, ok := ParseFloat(s); !ok || !math.IsNaN(got) {
			t.Errorf("float(%q) = %v, %v", s, got, ok)
		}
	}
}
