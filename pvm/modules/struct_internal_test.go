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

// Fixed binary16 vectors from CPython 3.11's struct.pack('<e', x) and
// struct.unpack('>e', b), so a bug shared by f64To and f64From (which the
// round trip above cannot see) still fails.
func TestF16Vectors(t *testing.T) {
	tests := []struct {
		x    float64
		bits uint64
		ovf  bool
	}{
		{1.0, 0x3c00, false},
		{-2.0, 0xc000, false},
		{65504.0, 0x7bff, false},
		{65519.0, 0x7bff, false}, // rounds down to the largest finite
		{65520.0, 0, true},       // rounds to infinity: OverflowError
		{5.960464477539063e-08, 0x0001, false},
		{2.9802322387695312e-08, 0x0000, false}, // half the smallest subnormal: ties to even
		{4.470348358154297e-08, 0x0001, false},
		{6.103515625e-05, 0x0400, false},
		{6.097555160522461e-05, 0x03ff, false},
		{math.Inf(1), 0x7c00, false},
		{math.Inf(-1), 0xfc00, false},
		{1.0 / 3, 0x3555, false},
		{math.Copysign(0, -1), 0x8000, false},
		{0.1, 0x2e66, false},
		{2049.0, 0x6800, false}, // tie: to even
		{2051.0, 0x6802, false}, // tie: to even, upward
		{1e-10, 0x0000, false},
	}
	for _, tt := range tests {
		got, ovf := f64To(tt.x, 5, 10)
		if ovf != tt.ovf || (!tt.ovf && got != tt.bits) {
			t.Errorf("pack %g: got %#04x ovf=%v, want %#04x ovf=%v", tt.x, got, ovf, tt.bits, tt.ovf)
		}
	}
	widen := []struct {
		bits uint64
		x    float64
	}{
		{0x3c00, 1.0}, {0xc000, -2.0}, {0x7bff, 65504.0}, {0x0001, 5.960464477539063e-08},
		{0x0400, 6.103515625e-05}, {0x03ff, 6.097555160522461e-05}, {0x3555, 0.333251953125},
		{0x7c00, math.Inf(1)}, {0xfc00, math.Inf(-1)}, {0x8000, math.Copysign(0, -1)},
	}
	for _, w := range widen {
		if got := f64From(w.bits, 5, 10); math.Float64bits(got) != math.Float64bits(w.x) {
			t.Errorf("widen %#04x: got %g, want %g", w.bits, got, w.x)
		}
	}
	if got := f64From(0x7e00, 5, 10); got == got {
		t.Errorf("widen 0x7e00: got %g, want NaN", got)
	}
}
