package softfloat

import (
	"math/rand"
	"testing"
)

// TestTrig2MatchesFx checks that sin and cos give exactly the same bits
// with the 128-bit route as with the 192-bit one alone, over random
// arguments of every magnitude the fast path takes, integers (the common
// sin(i)), values near multiples of pi/2 and pi/4, and the table points.
func TestTrig2MatchesFx(t *testing.T) {
	r := rand.New(rand.NewSource(2026))
	var xs []F64
	n := cases(t) * 2
	for i := 0; i < n; i++ {
		x := F64(r.Uint64()&fracMask) | F64(bias-27+r.Intn(49))<<52
		if r.Intn(2) == 0 {
			x = Neg(x)
		}
		xs = append(xs, x)
	}
	for i := 0; i < 20000; i++ {
		xs = append(xs, FromInt64(int64(i)), FromInt64(int64(-i)), Div(FromInt64(int64(i)), FromInt64(64)))
	}
	// Special and edge bit patterns: zeros, subnormals, infinities, NaN,
	// the ends of the fast path's range (2**-26, 2**20).
	xs = append(xs, Zero, NegZero, 1, 0x000FFFFFFFFFFFFF, Inf, NegInf, NaN, MaxFinite,
		Ldexp(One, -26), Ldexp(One, -27), Ldexp(One, 20), Ldexp(One, 20)-1, Neg(Ldexp(One, 20)-1))
	halfPi := FromFloat64(1.5707963267948966)
	for m := 1; m < 4000; m++ {
		for _, q := range []F64{halfPi, Div(halfPi, FromInt64(2))} {
			c := Mul(FromInt64(int64(m)), q)
			xs = append(xs, c, c+1, c-1, c+1000, c-1000)
		}
	}
	hits := 0
	defer func() { noFx2 = false }()
	for _, x := range xs {
		for fn := 0; fn < 2; fn++ {
			got, gotOK := trigFast(x, fn)
			noFx2 = true
			want, wantOK := trigFast(x, fn)
			noFx2 = false
			if got != want || gotOK != wantOK {
				t.Fatalf("trigFast(%#x (%v), %d): 128-bit route %#x %v, fx %#x %v", uint64(x), x.Float64(), fn, uint64(got), gotOK, uint64(want), wantOK)
			}
		}
	}
	// The route must actually answer for most arguments (here the integers
	// 1..1000; results below 2**-8 go to the fx route).
	for i := 1; i <= 1000; i++ {
		x := FromInt64(int64(i))
		a, _ := fxFromF64(x)
		fxTables()
		q := fxMul(a, fxTwoOverPi)
		kq := fxShr(fxAbs(q), fxFrac-1)
		k := int64((kq.a0 + 1) >> 1)
		if q.isNeg() {
			k = -k
		}
		rr := fxSub(a, fxMulInt(fxPi2, k))
		if _, ok := trig2(rr, k, 0); ok {
			hits++
		}
	}
	if hits < 950 {
		t.Fatalf("128-bit route answered sin(i) for %d of the integers 1..1000", hits)
	}
	t.Logf("%d arguments, sin and cos; 128-bit route answered sin(i) for %d of the integers 1..1000", len(xs), hits)
}
