package modules

import (
	"math"
	"math/rand"
	"testing"
)

// TestF32Conversion checks the integer-only binary64 -> binary32 rounding
// and the widening back against Go's conversions (the host FPU, used here
// only as the reference) on random bit patterns and edge values.
func TestF32Conversion(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	edges := []float64{0, math.Copysign(0, -1), 1, -1, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32,
		math.SmallestNonzeroFloat32 / 2, math.SmallestNonzeroFloat32 * 0.75, 1.1754942106924411e-38, 1.1754943508222875e-38,
		math.Inf(1), math.Inf(-1), 16777217, 0.1, 1e-300, 5e-324}
	check := func(x float64) {
		want := float32(x)
		got, ovf := f64To(x, 8, 23)
		if math.IsInf(float64(want), 0) && !math.IsInf(x, 0) {
			if !ovf {
				t.Fatalf("%g (%#x): no overflow reported", x, math.Float64bits(x))
			}
			return
		}
		if ovf || uint32(got) != math.Float32bits(want) {
			t.Fatalf("%g (%#x): got %#x ovf=%v, want %#x", x, math.Float64bits(x), got, ovf, math.Float32bits(want))
		}
		if back := f64From(got, 8, 23); math.Float64bits(back) != math.Float64bits(float64(want)) {
			t.Fatalf("widen %#x: got %g, want %g", got, back, float64(want))
		}
	}
	for _, x := range edges {
		check(x)
	}
	for i := 0; i < 200000; i++ {
		check(math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(r.Intn(300)+1023-150)<<52))
		check(math.Float64frombits(r.Uint64()))
	}
}

// TestF16Widen checks every binary16 pattern widens to a value that packs
// back to the same pattern.
func TestF16Widen(t *testing.T) {
	for b := uint64(0); b < 1<<16; b++ {
		x := f64From(b, 5, 10)
		got, ovf := f64To(x, 5, 10)
		if x != x {
			continue // NaN payloads are quieted
		}
		if ovf || got != b {
			t.Fatalf("%#x -> %g -> %#x", b, x, got)
		}
	}
}
