package object

import (
	"math"
	"testing"
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
