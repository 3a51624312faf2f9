package softfloat

import (
	"math/rand"
	"testing"
)

// TestFastPathsMatchBig checks the fixed-point fast paths (fx.go) against
// the big.Float evaluation they shortcut: both round the same exact value
// correctly, so they must agree bit for bit.
func TestFastPathsMatchBig(t *testing.T) {
	r := rand.New(rand.NewSource(77))
	n := cases(t) / 40 // the big.Float side is slow: 5,000 by default
	unary := map[string]func(F64) F64{
		"exp": Exp, "expm1": Expm1, "log": Log, "log2": Log2, "log10": Log10, "log1p": Log1p,
		"sin": Sin, "cos": Cos, "tan": Tan, "atan": Atan, "asin": Asin, "acos": Acos,
		"sinh": Sinh, "cosh": Cosh, "tanh": Tanh, "asinh": Asinh, "acosh": Acosh, "atanh": Atanh,
	}
	binary := map[string]func(F64, F64) F64{"pow": Pow, "atan2": Atan2}
	defer func() { noFast = false }()
	same := func(a, b F64) bool { return a == b || (a.IsNaN() && b.IsNaN()) }
	for i := 0; i < n; i++ {
		x := F64(randF64(r, r.Uint64()))
		y := F64(randF64(r, uint64(x)))
		switch i % 4 { // bias toward the fast paths' ranges
		case 0:
			x = x&^(0x7FF<<52) | F64(0x3C0+r.Intn(0x90))<<52
			y = y&^(0x7FF<<52) | F64(0x3E0+r.Intn(0x30))<<52
		case 1:
			x = x&^(0x7FF<<52) | F64(0x3F0+r.Intn(0x10))<<52 // near 1
		case 2:
			x = x&^(0x7FF<<52) | F64(0x3FE+r.Intn(0x2))<<52 // [0.5, 2)
		}
		for name, f := range unary {
			fast := f(x)
			noFast = true
			slow := f(x)
			noFast = false
			if !same(fast, slow) {
				t.Fatalf("%s(%#x = %v): fast %#x (%v), big %#x (%v)", name, uint64(x), x.Float64(), uint64(fast), fast.Float64(), uint64(slow), slow.Float64())
			}
		}
		for name, f := range unary {
			if fast, ok := Fast(name, x, 0); ok {
				if want := f(x); !same(fast, want) {
					t.Fatalf("Fast(%s, %v) = %v, %s gives %v", name, x.Float64(), fast.Float64(), name, want.Float64())
				}
			}
		}
		for _, xs := range [][]F64{{x, y}, {x, y, Mul(x, y)}} {
			fast := Hypot(xs...)
			noFast = true
			slow := Hypot(xs...)
			noFast = false
			if !same(fast, slow) {
				t.Fatalf("hypot(%v): fast %v, big %v", xs, fast.Float64(), slow.Float64())
			}
		}
		for name, f := range binary {
			fast := f(x, y)
			noFast = true
			slow := f(x, y)
			noFast = false
			if !same(fast, slow) {
				t.Fatalf("%s(%v, %v): fast %#x (%v), big %#x (%v)", name, x.Float64(), y.Float64(), uint64(fast), fast.Float64(), uint64(slow), slow.Float64())
			}
		}
	}
}
