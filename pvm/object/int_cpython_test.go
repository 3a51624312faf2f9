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

// TestIntOpsMatchCPython checks int / int, **, //, % and hash() against
// CPython 3.11: testdata/int_ops.txt holds "a op b result" lines that
// testdata/gen_int_ops.py wrote, on small and big operands of both signs
// (true division that overflows a float, negative and huge exponents, the
// bases −1, 0 and 1 raised to exponents past int64, hashes of big ints
// that reduce to −1). Where both operands are ints, IntBinary's fast path,
// when it answers, must give the same result.
func TestIntOpsMatchCPython(t *testing.T) {
	f, err := os.Open("testdata/int_ops.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opOf := map[string]Op{"/": OpTrueDiv, "//": OpFloorDiv, "%": OpMod, "**": OpPow}
	c := newCtx()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<16)
	lines := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		lines++
		a, okA := new(big.Int).SetString(fields[0], 10)
		b, okB := new(big.Int).SetString(fields[2], 10)
		if !okA || !okB {
			t.Fatalf("bad line %q", sc.Text())
		}
		x, y := intValue(t, a), intValue(t, b)
		what, want := short(fields[0])+" "+fields[1]+" "+short(fields[2]), fields[3]
		var got Value
		if fields[1] == "hash" {
			h, err := x.Hash(c)
			if err != nil {
				t.Fatal(err)
			}
			if strconv.FormatInt(h, 10) != want {
				t.Errorf("hash(%s) = %d, CPython %s", short(fields[0]), h, want)
			}
			continue
		}
		op := opOf[fields[1]]
		got, err = intBinary(c, op, x, y)
		if xi, ok := x.(Int); ok {
			if yi, ok := y.(Int); ok {
				if fast, ok := IntBinary(op, xi, yi); ok {
					if strings.Contains(want, "Error") || strings.Contains(want, "0x") || fast != got {
						t.Errorf("IntBinary: %s = %v, want %s", what, fast, want)
					}
				}
			}
		}
		switch {
		case strings.HasSuffix(want, "Error"):
			if err == nil || excClass(err).Name != want {
				t.Errorf("%s = %v, %v; want %s", what, got, err, want)
			}
		case err != nil:
			t.Errorf("%s: %v, want %s", what, err, short(want))
		case strings.Contains(want, "0x") || want == "inf" || want == "-inf":
			w, _ := strconv.ParseFloat(want, 64)
			if g, ok := got.(Float); !ok || math.Float64bits(float64(g)) != math.Float64bits(w) {
				t.Errorf("%s = %#v, want %s", what, got, want)
			}
		default:
			w, _ := new(big.Int).SetString(want, 10)
			checkCanonicalInt(t, what, got, w)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 2000 {
		t.Fatalf("only %d lines in testdata/int_ops.txt", lines)
	}
}

func short(s string) string {
	if len(s) > 24 {
		return s[:10] + "…(" + strconv.Itoa(len(s)) + " digits)"
	}
	return s
}

// TestIntValueMethods checks repr, truth and hash of ints on both sides of
// the boxed form, int-likes (bool, an int subclass instance) where an int
// is read, and the TypeError of a three-argument pow on a non-int.
func TestIntValueMethods(t *testing.T) {
	c := newCtx()
	big70 := intValue(t, new(big.Int).Lsh(big.NewInt(1), 70))
	negBig := intValue(t, new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 70)))
	for _, tc := range []struct {
		v     Value
		repr  string
		truth bool
	}{
		{Int(0), "0", false},
		{Int(-5), "-5", true},
		{big70, "1180591620717411303424", true},
		{negBig, "-1180591620717411303424", true},
		{&BigInt{v: new(big.Int)}, "0", false}, // a zero never boxed by MakeBigInt, still falsy
	} {
		r, err := tc.v.Repr(c)
		if err != nil || r != tc.repr {
			t.Errorf("repr = %q, %v; want %q", r, err, tc.repr)
		}
		if tr, err := tc.v.Truth(c); err != nil || tr != tc.truth {
			t.Errorf("bool(%s) = %v, %v; want %v", tc.repr, tr, err, tc.truth)
		}
	}
	for _, tc := range []struct {
		v    Value
		want int64
		ok   bool
	}{
		{Int(7), 7, true},
		{True, 1, true},
		{False, 0, true},
		{&Instance{Base: Int(9)}, 9, true},
		{&Instance{Base: Str("9")}, 0, false},
		{big70, 0, false},
		{Str("1"), 0, false},
	} {
		if got, ok := AsInt64(tc.v); got != tc.want || ok != tc.ok {
			t.Errorf("AsInt64(%#v) = %d, %v; want %d, %v", tc.v, got, ok, tc.want, tc.ok)
		}
	}
	// bool is an int: True + big, True * big and the bit length of a bool.
	if got, err := intBinary(c, OpAdd, True, big70); err != nil {
		t.Fatal(err)
	} else {
		checkCanonicalInt(t, "True + 2**70", got, new(big.Int).Add(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 70)))
	}
	if got, err := intBinary(c, OpMul, False, big70); err != nil {
		t.Fatal(err)
	} else {
		checkCanonicalInt(t, "False * 2**70", got, new(big.Int))
	}
	if n := intBitLen(True); n != 1 {
		t.Errorf("bit length of True = %d, want 1", n)
	}
	for _, args := range [][3]Value{{Float(2), Int(3), Int(5)}, {Int(2), Float(3), Int(5)}, {Int(2), Int(3), Str("5")}} {
		if _, err := PowMod(c, args[0], args[1], args[2]); err == nil || excClass(err) != TypeError ||
			!strings.Contains(err.Error(), "pow() 3rd argument not allowed unless all arguments are integers") {
			t.Errorf("pow(%#v) = %v, want TypeError", args, err)
		}
	}
}
