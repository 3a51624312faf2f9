package softfloat

import (
	"math/rand"
	"testing"
)

// TestHalfPowMatchesGeneral checks that the half-integer route gives
// exactly what powFast's general route gives, result and ok flag (the
// caller charges the slow path on ok=false, so the flag is consensus), over
// random operands and over exact results and exact midpoints, where the
// half route must step aside.
func TestHalfPowMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(1815))
	ks := []int{-7, -5, -3, -1, 1, 3, 5, 7}
	var xs []F64
	n := cases(t)
	for i := 0; i < n; i++ {
		x := F64(r.Uint64()&fracMask) | F64(bias-110+r.Intn(221))<<52
		xs = append(xs, x)
	}
	for i := 0; i < 2000; i++ {
		// Squares of short integers: exact roots, so x**(k/2) is exact
		// or, when t**|k| needs 54 bits, an exact midpoint.
		tt := uint64(r.Intn(1<<27) + 1)
		xs = append(xs, FromInt64(int64(tt*tt)), Ldexp(FromInt64(int64(tt*tt)), -2*r.Intn(40)))
		// t**3 with 54 significant bits is a midpoint of x**1.5.
		u := uint64(1<<17 + r.Intn(1<<17))
		xs = append(xs, FromInt64(int64(u*u)))
	}
	// Edges of the route's range and of binary64: subnormals, the
	// smallest normal, the largest finite value, values next to 1.
	xs = append(xs, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, MaxFinite, One+1, One-1,
		Ldexp(One, -1022), Ldexp(One, 1023), F64(r.Uint64()&fracMask))
	for e := -101; e <= 101; e++ {
		xs = append(xs, Ldexp(One, e), Ldexp(F64(0x3FFFFFFFFFFFFFFF), e))
	}
	hits, asides, general := 0, 0, 0
	defer func() { noHalfPow = false }()
	for i, x := range xs {
		k := ks[i%len(ks)]
		y := Div(FromInt64(int64(k)), FromInt64(2))
		if kk, ok := halfPowExp(y); !ok || kk != k {
			t.Fatalf("halfPowExp(%v) = %d, %v", y.Float64(), kk, ok)
		}
		if _, ok := halfPowFast(x, k); ok {
			hits++
		} else {
			asides++
		}
		got, gotOK := powFast(x, y)
		noHalfPow = true
		want, wantOK := powFast(x, y)
		noHalfPow = false
		if got != want || gotOK != wantOK {
			t.Fatalf("powFast(%#x, %v): half route %#x %v, general %#x %v", uint64(x), y.Float64(), uint64(got), gotOK, uint64(want), wantOK)
		}
		if !gotOK {
			general++
		}
		if i%50 == 0 || !gotOK {
			noFast = true
			exact := Pow(x, y)
			noFast = false
			if gotOK && got != exact {
				t.Fatalf("pow(%#x, %v) = %#x, big.Float %#x", uint64(x), y.Float64(), uint64(got), uint64(exact))
			}
		}
	}
	if hits < len(xs)/2 || general == 0 {
		t.Fatalf("half route taken %d times, stepped aside %d times (general route not ok %d), of %d", hits, asides, general, len(xs))
	}
	t.Logf("%d operands: half route %d, stepped aside %d, general route not ok %d", len(xs), hits, asides, general)
}

// TestHalfPowExp checks which exponents the half route takes.
func TestHalfPowExp(t *testing.T) {
	for _, c := range []struct {
		y  float64
		k  int
		ok bool
	}{
		{-1.5, -3, true}, {1.5, 3, true}, {0.5, 1, true}, {-0.5, -1, true}, {3.5, 7, true}, {-3.5, -7, true},
		{2.5, 5, true}, {1, 0, false}, {2, 0, false}, {4.5, 0, false}, {0.25, 0, false}, {1.25, 0, false},
		{0, 0, false}, {-2, 0, false}, {1.5000000000000002, 0, false},
	} {
		k, ok := halfPowExp(FromFloat64(c.y))
		if k != c.k || ok != c.ok {
			t.Errorf("halfPowExp(%v) = %d, %v; want %d, %v", c.y, k, ok, c.k, c.ok)
		}
	}
}
