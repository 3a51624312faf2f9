package object

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// intOperands mixes the edges of the int64 fast path with random small and
// big values of both signs, so every op crosses between the two
// representations.
func intOperands(rng *rand.Rand) []*big.Int {
	var out []*big.Int
	for _, v := range []int64{0, 1, -1, 2, -2, 3, 63, 64, -64, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 31, -(1 << 31), 1 << 32, 3037000499, 3037000500, -3037000500} {
		out = append(out, big.NewInt(v))
	}
	two63 := new(big.Int).Lsh(big.NewInt(1), 63)
	for _, d := range []int64{-1, 0, 1} {
		v := new(big.Int).Add(two63, big.NewInt(d))
		out = append(out, v, new(big.Int).Neg(v))
	}
	for i := 0; i < 40; i++ {
		v := big.NewInt(rng.Int64N(1 << uint(1+rng.IntN(62))))
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		out = append(out, v)
	}
	for i := 0; i < 20; i++ {
		words := make([]big.Word, 1+rng.IntN(7))
		for j := range words {
			words[j] = big.Word(rng.Uint64())
		}
		v := new(big.Int).SetBits(words)
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		out = append(out, v)
	}
	return out
}

func intValue(t *testing.T, v *big.Int) Value {
	t.Helper()
	x, err := MakeBigInt(new(big.Int).Set(v))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// checkInt fails unless got is the int want in canonical form: an Int when
// it fits 64 bits, a *BigInt only when it does not.
func checkInt(t *testing.T, what string, got Value, want *big.Int) {
	t.Helper()
	switch g := got.(type) {
	case Int:
		if !want.IsInt64() || int64(g) != want.Int64() {
			t.Fatalf("%s = %d, want %s", what, int64(g), want)
		}
	case *BigInt:
		if want.IsInt64() || g.v.Cmp(want) != 0 {
			t.Fatalf("%s = %s (boxed big), want %s", what, g.v, want)
		}
	default:
		t.Fatalf("%s = %T, want int %s", what, got, want)
	}
}

// Python int arithmetic other than floor division and modulo, against
// math/big (whose And/Or/Xor/Not and Rsh on negatives are two's
// complement, as in Python), on both the int64 fast path and the big path.
func TestIntOpsMatchBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	ops := intOperands(rng)
	c := newCtx()
	type binop struct {
		op   Op
		name string
		ref  func(a, b *big.Int) *big.Int
	}
	binops := []binop{
		{OpAdd, "+", func(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }},
		{OpSub, "-", func(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }},
		{OpMul, "*", func(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }},
		{OpAnd, "&", func(a, b *big.Int) *big.Int { return new(big.Int).And(a, b) }},
		{OpOr, "|", func(a, b *big.Int) *big.Int { return new(big.Int).Or(a, b) }},
		{OpXor, "^", func(a, b *big.Int) *big.Int { return new(big.Int).Xor(a, b) }},
	}
	for _, a := range ops {
		for _, b := range ops {
			x, y := intValue(t, a), intValue(t, b)
			for _, bo := range binops {
				want := bo.ref(a, b)
				got, err := intBinary(c, bo.op, x, y)
				if err != nil {
					t.Fatalf("%s %s %s: %v", a, bo.name, b, err)
				}
				checkInt(t, a.String()+" "+bo.name+" "+b.String(), got, want)
				// The interpreter's fast path: exact when it answers, and it
				// declines only what leaves int64.
				if xa, ok := x.(Int); ok {
					if yb, ok := y.(Int); ok {
						if v, ok := IntBinary(bo.op, xa, yb); ok {
							checkInt(t, "IntBinary "+a.String()+" "+bo.name+" "+b.String(), v, want)
						} else if want.IsInt64() && !(bo.op == OpMul && want.Int64() == math.MinInt64) {
							// (A product of -2**63 is left to the big path: its
							// magnitude does not fit.)
							t.Fatalf("IntBinary declined %s %s %s = %s, which fits int64", a, bo.name, b, want)
						}
					}
				}
			}
			if got, want := intCompare(x, y), a.Cmp(b); got != want {
				t.Fatalf("compare(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
		x := intValue(t, a)
		for _, sh := range []int64{0, 1, 2, 31, 62, 63, 64, 65, 100, 127, 128, 129, 500} {
			got, err := intBinary(c, OpLShift, x, MakeInt(sh))
			if err != nil {
				t.Fatalf("%s << %d: %v", a, sh, err)
			}
			checkInt(t, a.String()+" << "+big.NewInt(sh).String(), got, new(big.Int).Lsh(a, uint(sh)))
			got, err = intBinary(c, OpRShift, x, MakeInt(sh))
			if err != nil {
				t.Fatalf("%s >> %d: %v", a, sh, err)
			}
			checkInt(t, a.String()+" >> "+big.NewInt(sh).String(), got, new(big.Int).Rsh(a, uint(sh)))
		}
		for _, op := range []struct {
			op  Op
			ref func(*big.Int) *big.Int
		}{
			{OpNeg, func(v *big.Int) *big.Int { return new(big.Int).Neg(v) }},
			{OpPos, func(v *big.Int) *big.Int { return new(big.Int).Set(v) }},
			{OpInvert, func(v *big.Int) *big.Int { return new(big.Int).Not(v) }},
			{OpAbs, func(v *big.Int) *big.Int { return new(big.Int).Abs(v) }},
		} {
			got, err := intUnary(op.op, x)
			if err != nil {
				t.Fatal(err)
			}
			checkInt(t, "unary of "+a.String(), got, op.ref(a))
		}
		if a.BitLen() <= 100 {
			for _, e := range []int64{0, 1, 2, 3, 7, 20, 40} {
				got, err := intBinary(c, OpPow, x, MakeInt(e))
				if err != nil {
					t.Fatalf("%s ** %d: %v", a, e, err)
				}
				checkInt(t, a.String()+" ** "+big.NewInt(e).String(), got, new(big.Int).Exp(a, big.NewInt(e), nil))
			}
		}
	}
}

// Shifts refuse negative counts and results past the int size limit; a
// right shift of any width ends at 0 or -1.
func TestIntShiftEdges(t *testing.T) {
	c := newCtx()
	for _, x := range []Value{MakeInt(5), intValue(t, new(big.Int).Lsh(big.NewInt(3), 100))} {
		for _, op := range []Op{OpLShift, OpRShift} {
			if _, err := intBinary(c, op, x, MakeInt(-1)); excClass(err) != ValueError {
				t.Errorf("shift by -1: %v", err)
			}
		}
	}
	if _, err := intBinary(c, OpLShift, MakeInt(1), MakeInt(4096)); excClass(err) != OverflowError {
		t.Errorf("1 << 4096: %v", err)
	}
	got, err := intBinary(c, OpLShift, MakeInt(1), MakeInt(4095))
	if err != nil {
		t.Fatalf("1 << 4095: %v", err)
	}
	checkInt(t, "1 << 4095", got, new(big.Int).Lsh(big.NewInt(1), 4095))
	huge := intValue(t, new(big.Int).Lsh(big.NewInt(1), 70))
	for _, tt := range []struct {
		x    Value
		want int64
	}{{MakeInt(-5), -1}, {MakeInt(5), 0}, {intValue(t, new(big.Int).Lsh(big.NewInt(-3), 100)), -1}, {intValue(t, new(big.Int).Lsh(big.NewInt(3), 100)), 0}} {
		got, err := intBinary(c, OpRShift, tt.x, huge)
		if err != nil {
			t.Fatal(err)
		}
		checkInt(t, "x >> 2**70", got, big.NewInt(tt.want))
	}
}
