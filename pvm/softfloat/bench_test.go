package softfloat

import (
	"math"
	"testing"
)

// Benchmarks: softfloat against the hardware on the same operands. Run with
// go test -run '^$' -bench . ./pvm/softfloat/ (see docs/benchmarks.md).

var benchA = []float64{1.5, -3.25e10, 7.1e-300, 0.1, 123456.789, -2.5e-310, 9.99e200, 3.0}
var benchB = []float64{2.75, 1e-5, -4.2e150, 0.3, -0.001, 1.0000001, 2.0, 7.0}

var sinkF float64
var sinkS F64

func benchSoft(b *testing.B, op func(a, b F64) F64) {
	as := make([]F64, len(benchA))
	bs := make([]F64, len(benchB))
	for i := range as {
		as[i], bs[i] = FromFloat64(benchA[i]), FromFloat64(benchB[i])
	}
	var s F64
	for i := 0; i < b.N; i++ {
		j := i & 7
		s ^= op(as[j], bs[j])
	}
	sinkS = s
}

func benchHard(b *testing.B, op func(a, b float64) float64) {
	var s uint64
	for i := 0; i < b.N; i++ {
		j := i & 7
		s ^= math.Float64bits(op(benchA[j], benchB[j]))
	}
	sinkF = float64(s)
}

func BenchmarkSoftAdd(b *testing.B)  { benchSoft(b, Add) }
func BenchmarkHardAdd(b *testing.B)  { benchHard(b, hAdd) }
func BenchmarkSoftMul(b *testing.B)  { benchSoft(b, Mul) }
func BenchmarkHardMul(b *testing.B)  { benchHard(b, hMul) }
func BenchmarkSoftDiv(b *testing.B)  { benchSoft(b, Div) }
func BenchmarkHardDiv(b *testing.B)  { benchHard(b, hDiv) }
func BenchmarkSoftSqrt(b *testing.B) { benchSoft(b, func(a, _ F64) F64 { return Sqrt(Abs(a)) }) }
func BenchmarkHardSqrt(b *testing.B) {
	benchHard(b, func(a, _ float64) float64 { return math.Sqrt(math.Abs(a)) })
}
func BenchmarkSoftFmod(b *testing.B) { benchSoft(b, Fmod) }
func BenchmarkHardFmod(b *testing.B) { benchHard(b, math.Mod) }

var libmArgs = []F64{FromFloat64(0.5), FromFloat64(1.7), FromFloat64(-3.3), FromFloat64(12.25)}

func benchLibm(b *testing.B, f func(F64) F64) {
	f(libmArgs[0]) // build the tables outside the timing
	b.ResetTimer()
	var s F64
	for i := 0; i < b.N; i++ {
		s ^= f(libmArgs[i&3])
	}
	sinkS = s
}

func BenchmarkSoftExp(b *testing.B) { benchLibm(b, Exp) }
func BenchmarkHardExp(b *testing.B) {
	benchHard(b, func(a, _ float64) float64 { return math.Exp(a * 1e-3) })
}
func BenchmarkSoftLog(b *testing.B)  { benchLibm(b, func(x F64) F64 { return Log(Abs(x)) }) }
func BenchmarkSoftSin(b *testing.B)  { benchLibm(b, Sin) }
func BenchmarkSoftAtan(b *testing.B) { benchLibm(b, Atan) }
func BenchmarkSoftPow(b *testing.B) {
	benchLibm(b, func(x F64) F64 { return Pow(Abs(x), FromFloat64(1.37)) })
}

// BenchmarkSoftPowHalf is x**-1.5, the n-body kernel's power (the
// half-integer route, fxhalf.go).
func BenchmarkSoftPowHalf(b *testing.B) {
	benchLibm(b, func(x F64) F64 { return Pow(Abs(x), FromFloat64(-1.5)) })
}

func BenchmarkSoftParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkS, _ = Parse("3.14159")
	}
}
func BenchmarkSoftParseLong(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkS, _ = Parse("2.2250738585072011e-308")
	}
}
