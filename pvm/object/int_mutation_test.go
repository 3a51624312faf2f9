package object

import (
	"math"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// TestIntHashMatchesCPython checks hash(int) for int64 values against
// CPython 3.11: the value modulo 2^61 − 1 with the sign kept, and −1
// (reserved for errors in CPython) mapped to −2.
func TestIntHashMatchesCPython(t *testing.T) {
	c := newCtx()
	for _, tc := range []struct {
		v, want int64
	}{
		{0, 0},
		{5, 5},
		{-5, -5},
		{-1, -2},
		{-2, -2},
		{1<<61 - 1, 0},
		{1 << 61, 1},
		{-(1 << 61), -2}, // −1 after the modulus, then −2
		{1 << 62, 2},
		{math.MaxInt64, 3},
		{math.MinInt64, -4},
	} {
		got, err := MakeInt(tc.v).Hash(c)
		if err != nil || got != tc.want {
			t.Errorf("hash(%d) = %d (%v), CPython %d", tc.v, got, err, tc.want)
		}
	}
}

// TestMakeIntAtTheSmallIntEdges checks MakeInt gives the right int on
// both sides of its table of preboxed small values.
func TestMakeIntAtTheSmallIntEdges(t *testing.T) {
	for _, v := range []int64{smallIntMin - 1, smallIntMin, -1, 0, smallIntMax - 1, smallIntMax, smallIntMax + 1} {
		if got, ok := MakeInt(v).(Int); !ok || int64(got) != v {
			t.Errorf("MakeInt(%d) = %v", v, MakeInt(v))
		}
	}
}

// TestIntOpCycles checks what an int operation between two int64 values
// costs (cycles are consensus): nothing extra while the result fits
// int64, and the big-int charge for the larger operand's bit length
// (meter.BigIntCost) when it does not.
func TestIntOpCycles(t *testing.T) {
	for _, c := range []struct {
		name string
		op   Op
		x, y int64
		bits int // -1: the small path, no charge
	}{
		{"x + 0", OpAdd, 5, 0, -1},
		{"x - 0", OpSub, 5, 0, -1},
		{"max + 0", OpAdd, math.MaxInt64, 0, -1},
		{"min - 0", OpSub, math.MinInt64, 0, -1},
		{"a product of exactly max", OpMul, 7, math.MaxInt64 / 7, -1},
		{"a product of exactly -max", OpMul, -7, math.MaxInt64 / 7, -1},
		{"max + 1 overflows", OpAdd, math.MaxInt64, 1, 63},
		{"min - 1 overflows", OpSub, math.MinInt64, 1, 64},
		{"-(2^62) × 4 overflows", OpMul, -(1 << 62), 4, 63},
		{"2^62 × -4 overflows", OpMul, 1 << 62, -4, 63},
	} {
		ctx := newCtx()
		before := ctx.m.CyclesUsed()
		if _, err := intBinary(ctx, c.op, Int(c.x), Int(c.y)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := uint64(0)
		if c.bits >= 0 {
			want = meter.BigIntCost(c.bits)
		}
		if got := ctx.m.CyclesUsed() - before; got != want {
			t.Errorf("%s: charged %d cycles, want %d", c.name, got, want)
		}
	}
}
