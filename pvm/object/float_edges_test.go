package object

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestFloatValueMethods checks hash(float) at its special values and
// subnormals against CPython 3.11 (NaN hashes to 0, as CPython did before
// 3.10: 3.11 hashes a NaN by its identity, which no chain can agree on),
// repr of the infinities and NaN, and truth of both zeros.
func TestFloatValueMethods(t *testing.T) {
	c := newCtx()
	for _, tc := range []struct {
		x    float64
		hash int64
		repr string
	}{
		{math.NaN(), 0, "nan"},
		{math.Inf(1), 314159, "inf"},
		{math.Inf(-1), -314159, "-inf"},
		{5e-324, 16777216, "5e-324"},
		{-5e-324, -16777216, "-5e-324"},
		{1.5e-323, 50331648, "1.5e-323"},
		{1e-310, 615709907932414099, "1e-310"},
		{-1.5, -1152921504606846977, "-1.5"},
		{1.0000000000000002, 513, "1.0000000000000002"},
		{math.Copysign(0, -1), 0, "-0.0"},
	} {
		f := Float(tc.x)
		if h, err := f.Hash(c); err != nil || h != tc.hash {
			t.Errorf("hash(%s) = %d, %v; want %d", tc.repr, h, err, tc.hash)
		}
		if r, err := f.Repr(c); err != nil || r != tc.repr {
			t.Errorf("repr = %q, %v; want %q", r, err, tc.repr)
		}
		want := tc.x != 0
		if tr, err := f.Truth(c); err != nil || tr != want {
			t.Errorf("bool(%s) = %v, %v; want %v", tc.repr, tr, err, want)
		}
	}
}

// TestFloatPowEdges checks CPython 3.11's special cases of float ** float
// that the random operands of testdata/float_ops.txt do not reach: ±1 to
// an infinite power, −inf to odd and even powers of both signs, a negative
// base to an integral power, and the PVM's ValueError where CPython would
// return a complex number.
func TestFloatPowEdges(t *testing.T) {
	c := newCtx()
	for _, tc := range []struct {
		a, b float64
		want float64
	}{
		{-1, math.Inf(1), 1},
		{1, math.Inf(-1), 1},
		{math.Inf(-1), 3, math.Inf(-1)},
		{math.Inf(-1), 2, math.Inf(1)},
		{math.Inf(-1), -3, math.Copysign(0, -1)},
		{math.Inf(-1), -2, 0},
		{math.Inf(1), 0.5, math.Inf(1)},
		{-1, 3, -1},
		{-1, 4, 1},
		{-2, 3, -8},
		{math.Copysign(0, -1), 3, math.Copysign(0, -1)},
		{0, 3, 0},
	} {
		got, err := floatBinary(c, OpPow, tc.a, tc.b)
		g, ok := got.(Float)
		if err != nil || !ok || math.Float64bits(float64(g)) != math.Float64bits(tc.want) {
			t.Errorf("%v ** %v = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
		}
	}
	if _, err := floatBinary(c, OpPow, -8, 1.0/3); err == nil || excClass(err) != ValueError ||
		!strings.Contains(err.Error(), "complex numbers are not supported") {
		t.Errorf("-8.0 ** (1/3) = %v, want ValueError", err)
	}
	if got, err := floatBinary(c, Op(255), 1, 2); got != nil || err != nil {
		t.Errorf("an op floatBinary does not know gave %v, %v; want nil, nil (NotImplemented)", got, err)
	}
}

// TestFloatPowCycles checks that a power needing exp(y log x) charges
// meter.CostMathPow and that one refused for lack of cycles fails with
// the meter's error and computes nothing.
func TestFloatPowCycles(t *testing.T) {
	c := newCtx()
	before := c.m.CyclesUsed()
	if _, err := floatBinary(c, OpPow, 3, 0.7); err != nil {
		t.Fatal(err)
	}
	if got := c.m.CyclesUsed() - before; got != meter.CostMathPow {
		t.Errorf("3.0 ** 0.7 charged %d cycles, want meter.CostMathPow (%d)", got, meter.CostMathPow)
	}
	before = c.m.CyclesUsed()
	if _, err := floatBinary(c, OpPow, 2, 3); err != nil {
		t.Fatal(err)
	}
	if got := c.m.CyclesUsed() - before; got != 0 {
		t.Errorf("2.0 ** 3.0 (exact, no log) charged %d cycles, want 0", got)
	}
	c.m.Left = 0
	if got, err := floatBinary(c, OpPow, 3, 0.7); err == nil {
		t.Errorf("3.0 ** 0.7 with no cycles left = %v, want an out-of-cycles error", got)
	}
}

// TestToFloat checks float()'s conversion of every number type and its
// refusal of the rest (no error: the caller raises the TypeError).
func TestToFloat(t *testing.T) {
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	huge := new(big.Int).Lsh(big.NewInt(1), 1100)
	for _, tc := range []struct {
		v    Value
		want float64
		ok   bool
		err  bool
	}{
		{Float(2.5), 2.5, true, false},
		{Int(-3), -3, true, false},
		{True, 1, true, false},
		{&BigInt{v: big70}, 1180591620717411303424, true, false},
		{&BigInt{v: huge}, 0, true, true}, // OverflowError: int too large to convert to float
		{Str("1"), 0, false, false},
		{None, 0, false, false},
	} {
		got, ok, err := ToFloat(tc.v)
		if ok != tc.ok || (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ToFloat(%#v) = %v, %v, %v; want %v, %v, error %v", tc.v, got, ok, err, tc.want, tc.ok, tc.err)
		}
	}
}
