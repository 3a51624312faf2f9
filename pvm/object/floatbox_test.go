package object

import (
	"math"
	"runtime"
	"testing"
)

// TestFloatBoxSameValue checks that a boxed Float is the Value a plain
// conversion gives (type switch, ==, map key, hash, repr), and that the
// cells survive the collector while the slabs that hold them are shared.
func TestFloatBoxSameValue(t *testing.T) {
	var b FloatBox
	fs := []float64{0, math.Copysign(0, -1), 1.5, -2.25, math.Inf(1), math.NaN(), 5e-324, math.MaxFloat64, 0.1}
	var boxed []Value
	for i := 0; i < 10_000; i++ {
		f := Float(fs[i%len(fs)])
		if i%len(fs) == 0 {
			f = Float(float64(i) / 7)
		}
		v := b.Box(f)
		plain := Value(f)
		g, ok := v.(Float)
		if !ok || math.Float64bits(float64(g)) != math.Float64bits(float64(f)) {
			t.Fatalf("Box(%v) = %#v", f, v)
		}
		if !math.IsNaN(float64(f)) && v != plain {
			t.Fatalf("Box(%v) != Value(%v)", f, f)
		}
		if i%3 == 0 {
			boxed = append(boxed, v) // keep some cells of every slab alive
		}
	}
	runtime.GC()
	runtime.GC()
	set := map[Value]int{}
	for j, v := range boxed {
		i := 3 * j
		want := Float(fs[i%len(fs)])
		if i%len(fs) == 0 {
			want = Float(float64(i) / 7)
		}
		got := v.(Float)
		if math.Float64bits(float64(got)) != math.Float64bits(float64(want)) {
			t.Fatalf("cell %d after GC: %v, want %v", i, got, want)
		}
		if h1, h2 := mustHash(t, v), mustHash(t, Value(want)); h1 != h2 {
			t.Fatalf("hash %v: %d, plain %d", want, h1, h2)
		}
		if !math.IsNaN(float64(want)) {
			set[v]++
			if set[Value(want)] == 0 {
				t.Fatalf("map lookup of %v by a plain Value missed the boxed key", want)
			}
		}
	}
}

func mustHash(t *testing.T, v Value) int64 {
	t.Helper()
	h, err := v.Hash(nil)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// BenchmarkFloatBox compares FloatBox.Box with the plain conversion.
func BenchmarkFloatBox(b *testing.B) {
	var fb FloatBox
	var sink Value
	b.Run("box", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink = fb.Box(Float(float64(i) + 0.5))
		}
	})
	b.Run("convert", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink = Value(Float(float64(i) + 0.5))
		}
	})
	_ = sink
}
