package softfloat

import (
	"math/big"
	"math/rand"
	"testing"
)

// TestNoPanics feeds every exported function arbitrary bit patterns (and
// Parse arbitrary strings): none may panic, since a panic in the PVM is an
// internal error for the whole call.
func TestNoPanics(t *testing.T) {
	r := rand.New(rand.NewSource(99))
	n := cases(t) / 20
	un := []func(F64) F64{Sqrt, Trunc, Floor, Ceil, RoundEven, Exp, Expm1, Log, Log2, Log10, Log1p,
		Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh, Ulp}
	bin := []func(F64, F64) F64{Add, Sub, Mul, Div, Fmod, Pow, Atan2, Nextafter, func(a, b F64) F64 { return Hypot(a, b) }}
	for i := 0; i < n; i++ {
		x := F64(randF64(r, r.Uint64()))
		y := F64(randF64(r, uint64(x)))
		for _, f := range un {
			f(x)
		}
		for _, f := range bin {
			f(x, y)
		}
		Frexp(x)
		Ldexp(x, r.Intn(1<<20)-1<<19)
		ToInt64(x)
		ToBig(x)
		FromBig(new(big.Int).Lsh(big.NewInt(r.Int63()), uint(r.Intn(5000))))
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = "0123456789.eE+-_inftyaINF"[r.Intn(25)]
		}
		Parse(string(b))
	}
}
