package softfloat

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// bigEdges are integers around every place where FromBig's and FromRat's
// rounding changes: powers of two from 2**62 to 2**1025, one above and
// below, halfway between two floats (a tie), just past the tie, and with
// random low bits (the sticky bit), with both signs.
func bigEdges(r *rand.Rand) []*big.Int {
	var out []*big.Int
	for _, k := range []uint{62, 63, 64, 65, 100, 500, 1000, 1022, 1023, 1024, 1025} {
		p := new(big.Int).Lsh(big.NewInt(1), k)
		tie := new(big.Int).Sub(p, new(big.Int).Lsh(big.NewInt(1), k-54)) // between the two floats below 2**k
		odd := new(big.Int).Sub(p, new(big.Int).Lsh(big.NewInt(3), k-54)) // a tie whose lower neighbour is odd
		for _, v := range []*big.Int{
			p,
			new(big.Int).Add(p, big.NewInt(1)),
			new(big.Int).Sub(p, big.NewInt(1)),
			tie,
			new(big.Int).Add(tie, big.NewInt(1)),
			new(big.Int).Sub(tie, big.NewInt(1)),
			odd,
			new(big.Int).Add(odd, big.NewInt(1)),
			new(big.Int).Rand(r, p),
		} {
			out = append(out, v, new(big.Int).Neg(v))
		}
	}
	return out
}

func wantFloat(x *big.Float) float64 {
	f, _ := x.Float64() // nearest, ties to even; ±inf past the range
	return f
}

// TestFromBigMatchesBigFloat: FromBig rounds as math/big does.
func TestFromBigMatchesBigFloat(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, b := range bigEdges(r) {
		want := wantFloat(new(big.Float).SetInt(b))
		if got := FromBig(b); !same(got, want) {
			t.Fatalf("FromBig(%v) = %#016x, want %#016x (%g)", b, uint64(got), math.Float64bits(want), want)
		}
	}
}

// TestFromRatMatchesBigRat: FromRat rounds num/den as math/big does, near
// overflow, through the subnormals and past underflow to a signed zero.
func TestFromRatMatchesBigRat(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	nums := bigEdges(r)
	dens := []*big.Int{big.NewInt(1), big.NewInt(3), big.NewInt(-7), big.NewInt(1 << 40)}
	for _, k := range []uint{60, 61, 62, 63, 64, 1000, 1021, 1022, 1074, 1075, 1076, 1100, 1101, 1200, 2000} {
		p := new(big.Int).Lsh(big.NewInt(1), k)
		dens = append(dens, p, new(big.Int).Add(p, big.NewInt(1)), new(big.Int).Sub(p, big.NewInt(1)), new(big.Int).Mul(p, big.NewInt(3)))
	}
	for _, n := range append(nums, big.NewInt(1), big.NewInt(-1), big.NewInt(3), big.NewInt(0)) {
		for _, d := range dens {
			q := new(big.Rat).SetFrac(n, d)
			want, _ := q.Float64()
			if n.Sign() == 0 && d.Sign() < 0 {
				want = math.Copysign(0, -1)
			}
			if q.Sign() != 0 && want == 0 && q.Sign() < 0 {
				want = math.Copysign(0, -1)
			}
			if got := FromRat(n, d); !same(got, want) {
				t.Fatalf("FromRat(%v, %v) = %#016x, want %#016x (%g)", n, d, uint64(got), math.Float64bits(want), want)
			}
		}
	}
}

// TestNextafterAndUlp: Nextafter against the host's math.Nextafter (but
// returning y when x == y, as Python does) and Ulp
// against its definition (the gap to the next float away from zero, or
// below for the largest finite), over every pair of edge values.
func TestNextafterAndUlp(t *testing.T) {
	for _, a := range edges {
		for _, sa := range []uint64{0, 1 << 63} {
			x := a ^ sa
			fx := math.Float64frombits(x)
			for _, b := range edges {
				for _, sb := range []uint64{0, 1 << 63} {
					y := b ^ sb
					fy := math.Float64frombits(y)
					want := math.Nextafter(fx, fy)
					if fx == fy {
						want = fy // C99 and Python return y (so nextafter(0.0, -0.0) is -0.0); Go returns x
					}
					if got := Nextafter(F64(x), F64(y)); !same(got, want) {
						t.Fatalf("Nextafter(%g, %g) = %#016x, want %#016x", fx, fy, uint64(got), math.Float64bits(want))
					}
				}
			}
			ax := math.Abs(fx)
			var want float64
			switch {
			case math.IsNaN(ax) || math.IsInf(ax, 0):
				want = ax
			case ax == math.MaxFloat64:
				want = ax - math.Nextafter(ax, 0)
			default:
				want = math.Nextafter(ax, math.Inf(1)) - ax
			}
			if got := Ulp(F64(x)); !same(got, want) {
				t.Fatalf("Ulp(%g) = %#016x, want %#016x", fx, uint64(got), math.Float64bits(want))
			}
		}
	}
}

// TestIntEdges: ToInt64 at the bottom of the int64 range, Ldexp with
// exponents past its clamp, and ilog2 of every subnormal power of two.
func TestIntEdges(t *testing.T) {
	if i, ok := ToInt64(F64(math.Float64bits(-0x1p63))); !ok || i != math.MinInt64 {
		t.Fatalf("ToInt64(-2**63) = %d, %v", i, ok)
	}
	if _, ok := ToInt64(F64(math.Float64bits(0x1p63))); ok {
		t.Fatal("ToInt64(2**63) fits")
	}
	for _, tc := range []struct {
		x    float64
		n    int
		want float64
	}{
		{1, -6000, 0},
		{-1, -6000, math.Copysign(0, -1)},
		{math.MaxFloat64, -5000, 0},
		{1, 6000, math.Inf(1)},
		{5e-324, 5000, math.Inf(1)},
		{5e-324, 2000, 0x1p926},
		{1, -1074, 5e-324},
		{1, -1075, 0},
	} {
		if got := Ldexp(F64(math.Float64bits(tc.x)), tc.n); !same(got, tc.want) {
			t.Fatalf("Ldexp(%g, %d) = %#016x, want %g", tc.x, tc.n, uint64(got), tc.want)
		}
	}
	for k := 0; k < 52; k++ {
		for _, low := range []uint64{0, 1<<k - 1} {
			x := F64(uint64(1)<<k | low)
			if got, want := ilog2(x), math.Ilogb(math.Float64frombits(uint64(x))); got != want {
				t.Fatalf("ilog2(%#x) = %d, want %d", uint64(x), got, want)
			}
		}
	}
}

// TestPowOddIntegerExponents: an odd integral exponent keeps a negative
// base's sign, up to the last odd float (2**53 - 1); from 2**53 every
// float is even (CPython: (-1.0)**(2.0**52+1) is -1.0).
func TestPowOddIntegerExponents(t *testing.T) {
	for _, tc := range []struct {
		y    float64
		want float64
	}{
		{3, -1},
		{0x1p52 + 1, -1},
		{0x1p52 + 2, 1},
		{0x1p53 - 1, -1},
		{0x1p53, 1},
		{0x1p52 - 1, -1},
	} {
		if got := Pow(F64(math.Float64bits(-1)), F64(math.Float64bits(tc.y))); !same(got, tc.want) {
			t.Fatalf("Pow(-1, %g) = %#016x, want %g", tc.y, uint64(got), tc.want)
		}
	}
}

// TestIsqrtSeedBuckets: isqrtNewton's table start gives the digit-by-digit
// root at both ends of every seed bucket (hi>>54 == j), where a seed one
// too small would first show.
func TestIsqrtSeedBuckets(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for j := uint64(0); j < 256; j++ {
		for _, hi := range []uint64{j << 54, (j+1)<<54 - 1, j<<54 + r.Uint64()>>10} {
			if hi == 0 {
				continue
			}
			for _, lo := range []uint64{0, r.Uint64(), ^uint64(0)} {
				got, gotExact := isqrtNewton(hi, lo)
				want, wantExact := isqrt128(hi, lo)
				if got != want || gotExact != wantExact {
					t.Fatalf("isqrtNewton(%#x, %#x) = %d, %v; isqrt128 %d, %v", hi, lo, got, gotExact, want, wantExact)
				}
			}
		}
	}
}
