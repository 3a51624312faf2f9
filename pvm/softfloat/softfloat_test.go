package softfloat

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"os"
	"strconv"
	"testing"
)

// cases is how many random operand pairs each property test draws:
// 200k by default, COWBOY_SOFTFLOAT_N to raise it (e.g. 10000000).
func cases(t testing.TB) int {
	n := 200_000
	if s := os.Getenv("COWBOY_SOFTFLOAT_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("COWBOY_SOFTFLOAT_N=%q: %v", s, err)
		}
		n = v
	}
	if testing.Short() && n > 20_000 {
		n = 20_000
	}
	return n
}

var edges = []uint64{
	0, 1 << 63, // ±0
	1, 2, 3, 0x000FFFFFFFFFFFFF, 0x0008000000000000, // subnormals
	0x0010000000000000, 0x0010000000000001, // smallest normals
	0x3FF0000000000000, 0x3FF0000000000001, 0x3FEFFFFFFFFFFFFF, // around 1
	0x3FE0000000000000, 0x4000000000000000, 0x3CA0000000000000, // 0.5, 2, 2**-53
	0x7FEFFFFFFFFFFFFF, 0x7FE0000000000000, // largest
	0x7FF0000000000000,                     // inf
	0x7FF8000000000000, 0x7FF0000000000001, // NaNs
	0x4340000000000000, 0x4330000000000000, 0x432FFFFFFFFFFFFF, // 2**53, 2**52
}

// randF64 draws operands that hit the hard cases often: random bits, edge
// values with either sign, and exponents clustered near the subnormal
// boundary, near overflow and near each other.
func randF64(r *rand.Rand, other uint64) uint64 {
	var x uint64
	switch r.Intn(8) {
	case 0:
		x = r.Uint64()
	case 1:
		x = edges[r.Intn(len(edges))]
	case 2: // subnormal or tiny normal
		x = uint64(r.Intn(3))<<52 | r.Uint64()&fracMask
	case 3: // near overflow
		x = uint64(0x7FD+r.Intn(3))<<52 | r.Uint64()&fracMask
	case 4: // close to the other operand: cancellation and ties
		x = other + uint64(r.Intn(5)) - 2
		if r.Intn(2) == 0 {
			x = other&^(uint64(1)<<52-1) | r.Uint64()&fracMask
		}
	case 5: // sparse fraction: exact results and exact ties
		x = uint64(r.Intn(0x7FF))<<52 | uint64(1)<<uint(r.Intn(52)) | uint64(r.Intn(4))
	case 6: // exponent within 60 of the other operand
		e := int(other>>52&expMax) + r.Intn(121) - 60
		if e < 0 {
			e = 0
		}
		if e > 0x7FE {
			e = 0x7FE
		}
		x = uint64(e)<<52 | r.Uint64()&fracMask
	default: // moderate magnitudes
		x = uint64(0x3C0+r.Intn(0x80))<<52 | r.Uint64()&fracMask
	}
	if r.Intn(2) == 0 {
		x ^= 1 << 63
	}
	return x
}

func same(got F64, want float64) bool {
	if math.IsNaN(want) {
		return got.IsNaN()
	}
	return uint64(got) == math.Float64bits(want)
}

// hardware operations; each result is a single rounded IEEE operation.
func hAdd(a, b float64) float64 { return a + b }
func hSub(a, b float64) float64 { return a - b }
func hMul(a, b float64) float64 { return a * b }
func hDiv(a, b float64) float64 { return a / b }

func TestBinaryOpsMatchHardware(t *testing.T) {
	ops := []struct {
		name string
		soft func(a, b F64) F64
		hard func(a, b float64) float64
	}{
		{"Add", Add, hAdd},
		{"Sub", Sub, hSub},
		{"Mul", Mul, hMul},
		{"Div", Div, hDiv},
		{"Fmod", Fmod, math.Mod},
	}
	r := rand.New(rand.NewSource(1))
	n := cases(t)
	check := func(a, b uint64) {
		fa, fb := math.Float64frombits(a), math.Float64frombits(b)
		for _, op := range ops {
			if got := op.soft(F64(a), F64(b)); !same(got, op.hard(fa, fb)) {
				t.Fatalf("%s(%#016x, %#016x) = %#016x, want %#016x (%g %g)", op.name, a, b, uint64(got), math.Float64bits(op.hard(fa, fb)), fa, fb)
			}
		}
		if Eq(F64(a), F64(b)) != (fa == fb) || Lt(F64(a), F64(b)) != (fa < fb) || Le(F64(a), F64(b)) != (fa <= fb) {
			t.Fatalf("compare(%g, %g) disagrees", fa, fb)
		}
	}
	for _, a := range edges {
		for _, b := range edges {
			for s := uint64(0); s < 4; s++ {
				check(a^(s&1)<<63, b^(s>>1)<<63)
			}
		}
	}
	for i := 0; i < n; i++ {
		a := randF64(r, r.Uint64())
		b := randF64(r, a)
		if r.Intn(2) == 0 {
			a, b = b, a
		}
		check(a, b)
	}
}

func TestUnaryOpsMatchHardware(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	n := cases(t)
	for i := 0; i < n+len(edges)*2; i++ {
		var a uint64
		if i < len(edges)*2 {
			a = edges[i/2] ^ uint64(i&1)<<63
		} else {
			a = randF64(r, r.Uint64())
		}
		x, f := F64(a), math.Float64frombits(a)
		check := func(name string, got F64, want float64) {
			if !same(got, want) {
				t.Fatalf("%s(%#016x = %g) = %#016x (%g), want %g", name, a, f, uint64(got), math.Float64frombits(uint64(got)), want)
			}
		}
		check("Sqrt", Sqrt(x), math.Sqrt(f))
		check("Trunc", Trunc(x), math.Trunc(f))
		check("Floor", Floor(x), math.Floor(f))
		check("Ceil", Ceil(x), math.Ceil(f))
		check("RoundEven", RoundEven(x), math.RoundToEven(f))
		fr, e := Frexp(x)
		wfr, we := math.Frexp(f)
		check("Frexp", fr, wfr)
		if e != we {
			t.Fatalf("Frexp(%g) exponent %d, want %d", f, e, we)
		}
		k := r.Intn(2200) - 1100
		check("Ldexp", Ldexp(x, k), math.Ldexp(f, k))
		if i, ok := ToInt64(x); ok != (!math.IsNaN(f) && f >= -0x1p63 && f < 0x1p63) || (ok && i != int64(f)) {
			t.Fatalf("ToInt64(%g) = %d, %v", f, i, ok)
		}
		if x.IsFinite() {
			b, err := ToBig(x)
			want, _ := new(big.Float).SetFloat64(math.Trunc(f)).Int(nil)
			if err != nil || b.Cmp(want) != 0 {
				t.Fatalf("ToBig(%g) = %v, %v", f, b, err)
			}
		}
	}
}

func TestIntConversions(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	n := cases(t)
	ints := []int64{0, 1, -1, 1<<53 + 1, 1<<53 + 3, -1 << 63, 1<<63 - 1, 1<<62 + 1<<9, 1<<62 + 1<<9 + 1}
	for i := 0; i < n/4+len(ints); i++ {
		var v int64
		if i < len(ints) {
			v = ints[i]
		} else {
			v = int64(r.Uint64() >> uint(r.Intn(64)))
			if r.Intn(2) == 0 {
				v = -v
			}
		}
		if got := FromInt64(v); !same(got, float64(v)) {
			t.Fatalf("FromInt64(%d) = %g", v, math.Float64frombits(uint64(got)))
		}
		// FromBig and FromRat against big.Float / big.Rat on wide values.
		b := new(big.Int).Lsh(big.NewInt(v), uint(r.Intn(1100)))
		b.Add(b, big.NewInt(int64(r.Intn(3)-1)))
		want, _ := new(big.Float).SetInt(b).Float64()
		if got := FromBig(b); !same(got, want) {
			t.Fatalf("FromBig(%v) = %g, want %g", b, math.Float64frombits(uint64(got)), want)
		}
		d := new(big.Int).Lsh(big.NewInt(int64(r.Uint64()>>1)|1), uint(r.Intn(1200)))
		if r.Intn(2) == 0 {
			d.Neg(d)
		}
		wantQ, _ := new(big.Rat).SetFrac(b, d).Float64()
		if b.Sign() == 0 { // Python: 0 / -5 is -0.0
			wantQ = math.Copysign(0, float64(d.Sign()))
		}
		if got := FromRat(b, d); !same(got, wantQ) {
			t.Fatalf("FromRat(%v, %v) = %g, want %g", b, d, math.Float64frombits(uint64(got)), wantQ)
		}
	}
}

func TestParseMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	n := cases(t) / 4
	fixed := []string{"0", "-0", "1e400", "-1e400", "1e-400", "4.9e-324", "2.4703282292062327e-324",
		"2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
		"9007199254740993", "0.1", ".5", "5.", "1E+05", "123456789012345678901234567890e-30",
		"2.2250738585072011e-308", "000001.000000", "1e-22", "1e22", "1e23", "8.98846567431158e307"}
	check := func(s string) {
		want, werr := strconv.ParseFloat(s, 64)
		if werr != nil && werr.(*strconv.NumError).Err != strconv.ErrRange {
			t.Fatalf("bad test string %q", s)
		}
		got, err := Parse(s)
		if err != nil || !same(got, want) {
			t.Fatalf("Parse(%q) = %g, %v; want %g", s, got.Float64(), err, want)
		}
	}
	for _, s := range fixed {
		check(s)
	}
	for i := 0; i < n; i++ {
		var s string
		switch r.Intn(3) {
		case 0: // a float's digits, maybe cut short or lengthened
			f := math.Float64frombits(randF64(r, r.Uint64()))
			if math.IsNaN(f) || math.IsInf(f, 0) {
				continue
			}
			s = strconv.FormatFloat(f, 'e', r.Intn(25)-1, 64)
		case 1: // random digits and exponent
			b := make([]byte, 1+r.Intn(40))
			for j := range b {
				b[j] = byte('0' + r.Intn(10))
			}
			s = string(b)
			if r.Intn(2) == 0 {
				p := r.Intn(len(b) + 1)
				s = s[:p] + "." + s[p:]
			}
			s += "e" + strconv.Itoa(r.Intn(700)-350)
		default: // exact halfway points between neighbours
			f := math.Float64frombits(randF64(r, r.Uint64()) &^ (1 << 63))
			if math.IsNaN(f) || math.IsInf(f, 0) || f == math.MaxFloat64 {
				continue
			}
			lo := new(big.Float).SetPrec(2000).SetFloat64(f)
			hi := new(big.Float).SetPrec(2000).SetFloat64(math.Nextafter(f, math.Inf(1)))
			mid := new(big.Float).SetPrec(2000).Add(lo, hi)
			mid.Quo(mid, big.NewFloat(2))
			s = mid.Text('e', 800)
		}
		check(s)
	}
}

// TestIsqrtNewton checks the Newton square root against the digit-by-digit
// one on random radicands in its range.
func TestIsqrtNewton(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	for i := 0; i < cases(t); i++ {
		hi := r.Uint64()>>2 | 1<<60
		lo := r.Uint64()
		switch i % 3 {
		case 0: // perfect squares and their neighbours
			s := r.Uint64()>>1 | 1<<62
			hi, lo = bits.Mul64(s, s)
			lo += uint64(r.Intn(3)) - 1
		case 1:
			lo = 0
		}
		if hi < 1<<60 {
			continue
		}
		a, ea := isqrt128(hi, lo)
		b, eb := isqrtNewton(hi, lo)
		if a != b || ea != eb {
			t.Fatalf("isqrt(%x:%x): digit-by-digit %x %v, Newton %x %v", hi, lo, a, ea, b, eb)
		}
	}
}

// TestRoundNormalIsRoundPack: the inlined rounding of normal-range results
// gives exactly what roundPack gives, ties and carries included.
func TestRoundNormalIsRoundPack(t *testing.T) {
	r := rand.New(rand.NewSource(52))
	for i := 0; i < 1_000_000; i++ {
		exp := r.Intn(0x7FD)
		sig := r.Uint64() >> uint(r.Intn(12)) // leading one at bit 63 down to 52
		switch i % 4 {
		case 0:
			sig = sig&^0x3FF | 0x200 // a tie
		case 1:
			sig |= 0x3FF // rounds up, may carry into the exponent
		}
		sig &^= 1 << 63
		sign := i%2 == 0
		if a, b := roundNormal(sign, exp, sig), roundPack(sign, exp, sig); a != b {
			t.Fatalf("exp %#x sig %#x: roundNormal %#x, roundPack %#x", exp, sig, uint64(a), uint64(b))
		}
	}
}
