package object

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestFloatReprAndFormatMatchCPython checks repr(float) and format(float,
// spec) against CPython 3.11 on the sample in
// ../softfloat/testdata/repr_cpython.txt (regenerate with gen_repr.py):
// 20,000 reprs and 12,000 format calls with random specs.
func TestFloatReprAndFormatMatchCPython(t *testing.T) {
	f, err := os.Open("../softfloat/testdata/repr_cpython.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := newCtx()
	sc := bufio.NewScanner(f)
	bad := 0
	for sc.Scan() {
		line := sc.Text()
		kind, rest, _ := strings.Cut(line, " ")
		hex, rest, _ := strings.Cut(rest, " ")
		b, err := strconv.ParseUint(hex, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		x := Float(math.Float64frombits(b))
		var got, want string
		switch kind {
		case "r":
			want = rest
			got, _ = x.Repr(c)
			// Parsing the repr back must give the same bits.
			if p, ok := ParseFloat(want); !ok || (math.Float64bits(p) != b && !math.IsNaN(float64(x))) {
				t.Errorf("ParseFloat(%q) = %x, want %x", want, math.Float64bits(p), b)
			}
		case "f":
			spec, w, _ := strings.Cut(rest, "|")
			want = w
			s, err := Format(c, x, spec)
			got = s
			if err != nil {
				got = "ValueError"
			}
			rest = spec
		}
		if got != want {
			bad++
			if bad < 20 {
				t.Errorf("%s %v %q: got %q, CPython %q", kind, float64(x), rest, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d mismatches", bad)
	}
}
