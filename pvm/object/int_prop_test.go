package object

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// Property tests of Python int semantics against models built on math/big
// arithmetic (Add, Mul, QuoRem and comparisons only, so the models do not
// share the code paths under test: no Euclidean DivMod, no Lsh/Rsh, no
// And/Or/Xor/Not, no Exp, no Text/SetString). Operands span random signs
// and sizes up to the 4096-bit cap (meter.MaxIntBits), with values near
// powers of two and the int64 boundary drawn often, since those are where
// the Int/*BigInt fast paths and the cap meet.

var (
	bigOne = big.NewInt(1)
	bigTwo = big.NewInt(2)
)

// pow2 is 2**n by repeated doubling.
func pow2(n int) *big.Int {
	r := big.NewInt(1)
	for i := 0; i < n; i++ {
		r.Add(r, r)
	}
	return r
}

// tb is what both *testing.T and *rapid.T offer.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

var capLimit = pow2(meter.MaxIntBits) // |v| must stay below this

func fitsCap(v *big.Int) bool { return new(big.Int).Abs(v).Cmp(capLimit) < 0 }

// drawBig draws a signed integer of at most maxBits bits.
func drawBig(t *rapid.T, label string, maxBits int) *big.Int {
	var v *big.Int
	switch rapid.IntRange(0, 4).Draw(t, label+"_kind") {
	case 0, 1: // random magnitude of a random size
		n := rapid.IntRange(0, maxBits).Draw(t, label+"_bits")
		bs := rapid.SliceOfN(rapid.Byte(), (n+7)/8, (n+7)/8).Draw(t, label+"_bytes")
		v = new(big.Int).SetBytes(bs)
		for v.BitLen() > n { // trim to n bits without Rsh: drop the top byte's excess
			v.Sub(v, pow2(v.BitLen()-1))
		}
	case 2: // near a power of two
		k := rapid.IntRange(0, maxBits-1).Draw(t, label+"_pow")
		v = pow2(k)
		v.Add(v, big.NewInt(int64(rapid.IntRange(-2, 2).Draw(t, label+"_delta"))))
		if v.BitLen() > maxBits {
			v.Sub(v, big.NewInt(4))
		}
	case 3: // small
		v = big.NewInt(int64(rapid.IntRange(-300, 300).Draw(t, label+"_small")))
	default: // around the int64 boundary
		v = big.NewInt(math.MaxInt64)
		v.Add(v, big.NewInt(int64(rapid.IntRange(-3, 3).Draw(t, label+"_i64"))))
	}
	if rapid.Bool().Draw(t, label+"_neg") {
		v.Neg(v)
	}
	return v
}

// val converts a model integer (inside the cap) into a PVM value.
func val(t tb, v *big.Int) Value {
	t.Helper()
	r, err := MakeBigInt(new(big.Int).Set(v))
	if err != nil {
		t.Fatalf("MakeBigInt(%v): %v", v, err)
	}
	return r
}

// checkInt fails unless got is the int want, normalised (Int when it fits
// int64, *BigInt otherwise).
func checkInt(t tb, what string, got Value, err error, want *big.Int) {
	t.Helper()
	if !fitsCap(want) {
		if excClass(err) != OverflowError {
			t.Fatalf("%s: want OverflowError above the %d-bit cap, got %v, %v", what, meter.MaxIntBits, got, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: unexpected error %v (want %v)", what, err, want)
	}
	switch g := got.(type) {
	case Int:
		if !want.IsInt64() || int64(g) != want.Int64() {
			t.Fatalf("%s = %v, want %v", what, g, want)
		}
	case *BigInt:
		if want.IsInt64() {
			t.Fatalf("%s: %v fits int64 but came back as *BigInt", what, want)
		}
		if g.v.Cmp(want) != 0 {
			t.Fatalf("%s = %v, want %v", what, g.v, want)
		}
	default:
		t.Fatalf("%s: got %T %v, want int %v", what, got, got, want)
	}
}

// floorDivMod is Python's // and % from truncating division.
func floorDivMod(a, b *big.Int) (*big.Int, *big.Int) {
	q, r := new(big.Int).QuoRem(a, b, new(big.Int))
	if r.Sign() != 0 && r.Sign() != b.Sign() {
		q.Sub(q, bigOne)
		r.Add(r, b)
	}
	return q, r
}

func TestIntFloorDivModRegressions(t *testing.T) {
	// Issue 18/20: big operands with a negative divisor were rounded the
	// wrong way (the Euclidean quotient was moved up instead of down).
	c := newCtx()
	p := func(s string) *big.Int { v, _ := new(big.Int).SetString(s, 10); return v }
	cases := []struct{ a, b, q, m string }{
		{"1000000000000000000000000000000", "-7", "-142857142857142857142857142858", "-6"},
		{"3", "-243634717971734798913771699415", "-1", "-243634717971734798913771699412"},
		{"1180591620717411303424", "-3", "-393530540239137101142", "-2"},
		{"-1180591620717411303424", "-3", "393530540239137101141", "-1"},
		{"-1180591620717411303424", "3", "-393530540239137101142", "2"},
		{"1180591620717411303423", "-1180591620717411303424", "-1", "-1"},
		{"-9223372036854775808", "-1", "9223372036854775808", "0"},
	}
	for _, k := range cases {
		a, b := val(t, p(k.a)), val(t, p(k.b))
		q, err := Binary(c, OpFloorDiv, a, b)
		checkInt(t, k.a+" // "+k.b, q, err, p(k.q))
		m, err := Binary(c, OpMod, a, b)
		checkInt(t, k.a+" % "+k.b, m, err, p(k.m))
	}
}

func TestIntFloorDivModProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		a := drawBig(t, "a", meter.MaxIntBits)
		b := drawBig(t, "b", meter.MaxIntBits)
		if b.Sign() == 0 {
			_, err := Binary(c, OpFloorDiv, val(t, a), val(t, b))
			if excClass(err) != ZeroDivisionError {
				t.Fatalf("%v // 0: %v", a, err)
			}
			_, err = Binary(c, OpMod, val(t, a), val(t, b))
			if excClass(err) != ZeroDivisionError {
				t.Fatalf("%v %% 0: %v", a, err)
			}
			return
		}
		q, m := floorDivMod(a, b)
		gq, err := Binary(c, OpFloorDiv, val(t, a), val(t, b))
		checkInt(t, fmt.Sprintf("%v // %v", a, b), gq, err, q)
		gm, err := Binary(c, OpMod, val(t, a), val(t, b))
		checkInt(t, fmt.Sprintf("%v %% %v", a, b), gm, err, m)
		// divmod's invariant: a == q*b + m, m has b's sign, |m| < |b|.
		back := new(big.Int).Mul(toBig(gq), b)
		back.Add(back, toBig(gm))
		if back.Cmp(a) != 0 || (toBig(gm).Sign() != 0 && toBig(gm).Sign() != b.Sign()) || toBig(gm).CmpAbs(b) >= 0 {
			t.Fatalf("divmod(%v, %v) = (%v, %v) breaks a == q*b + m", a, b, gq, gm)
		}
	})
}

func TestIntAddSubMulProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		a := drawBig(t, "a", meter.MaxIntBits)
		b := drawBig(t, "b", meter.MaxIntBits)
		r, err := Binary(c, OpAdd, val(t, a), val(t, b))
		checkInt(t, "a + b", r, err, new(big.Int).Add(a, b))
		r, err = Binary(c, OpSub, val(t, a), val(t, b))
		checkInt(t, "a - b", r, err, new(big.Int).Sub(a, b))
		r, err = Binary(c, OpMul, val(t, a), val(t, b))
		checkInt(t, "a * b", r, err, new(big.Int).Mul(a, b))
		r, err = intUnary(OpNeg, val(t, a))
		checkInt(t, "-a", r, err, new(big.Int).Neg(a))
		r, err = intUnary(OpAbs, val(t, a))
		checkInt(t, "abs(a)", r, err, new(big.Int).Abs(a))
	})
}

// mulPow is a**e by square and multiply, or nil when it leaves the cap.
func mulPow(a *big.Int, e int) *big.Int {
	r, sq := big.NewInt(1), new(big.Int).Set(a)
	for ; e > 0; e /= 2 {
		if e%2 == 1 {
			r.Mul(r, sq)
		}
		if e > 1 {
			sq.Mul(sq, sq)
		}
	}
	return r
}

func TestIntPowProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		a := drawBig(t, "a", meter.MaxIntBits)
		// Keep the model's result under ~2.5 * cap bits so it stays cheap.
		maxE := 2*meter.MaxIntBits/(a.BitLen()+1) + 2
		e := rapid.IntRange(0, maxE).Draw(t, "e")
		r, err := Binary(c, OpPow, val(t, a), Int(e))
		checkInt(t, fmt.Sprintf("%v ** %d", a, e), r, err, mulPow(a, e))
	})
	c := newCtx()
	// |a| <= 1 to huge exponents, and negative exponents giving floats.
	huge := val(t, pow2(200))
	for _, k := range []struct {
		a    int64
		want Value
	}{{0, Int(0)}, {1, Int(1)}, {-1, Int(1)}} {
		r, err := Binary(c, OpPow, Int(k.a), huge)
		if err != nil || r != k.want {
			t.Errorf("%d ** 2**200 = %v, %v", k.a, r, err)
		}
	}
	if r, err := Binary(c, OpPow, Int(-1), val(t, new(big.Int).Add(pow2(200), bigOne))); err != nil || r != Int(-1) {
		t.Errorf("-1 ** (2**200+1) = %v, %v", r, err)
	}
	for _, k := range []struct {
		a    Value
		e    int64
		want float64
	}{{Int(2), -3, 0.125}, {Int(-2), -3, -0.125}, {Int(-1), -7, -1}, {Int(10), -2, 0.01}, {val(t, pow2(100)), -1, math.Ldexp(1, -100)}} {
		r, err := Binary(c, OpPow, k.a, Int(k.e))
		if f, ok := r.(Float); err != nil || !ok || float64(f) != k.want {
			t.Errorf("%v ** %d = %v, %v; want %v", k.a, k.e, r, err, k.want)
		}
	}
	if _, err := Binary(c, OpPow, Int(0), Int(-1)); excClass(err) != ZeroDivisionError {
		t.Errorf("0 ** -1: %v", err)
	}
	if _, err := Binary(c, OpPow, Int(2), huge); excClass(err) != OverflowError {
		t.Errorf("2 ** 2**200: %v", err)
	}
}

// modInverse is the inverse of a modulo m (a, m > 0) by the extended
// Euclidean algorithm, or nil when gcd(a, m) != 1.
func modInverse(a, m *big.Int) *big.Int {
	r0, r1 := new(big.Int).Set(m), new(big.Int).Set(a)
	s0, s1 := big.NewInt(0), big.NewInt(1)
	for r1.Sign() != 0 {
		q, r := new(big.Int).QuoRem(r0, r1, new(big.Int))
		r0, r1 = r1, r
		s0, s1 = s1, new(big.Int).Sub(s0, new(big.Int).Mul(q, s1))
	}
	if r0.Cmp(bigOne) != 0 {
		return nil
	}
	_, s := floorDivMod(s0, m)
	return s
}

func TestIntPowModProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		b := drawBig(t, "b", meter.MaxIntBits)
		e := drawBig(t, "e", 128)
		m := drawBig(t, "m", 512)
		r, err := PowMod(c, val(t, b), val(t, e), val(t, m))
		what := fmt.Sprintf("pow(%v, %v, %v)", b, e, m)
		if m.Sign() == 0 {
			if excClass(err) != ValueError {
				t.Fatalf("%s: want ValueError, got %v, %v", what, r, err)
			}
			return
		}
		am := new(big.Int).Abs(m)
		if am.Cmp(bigOne) == 0 {
			checkInt(t, what, r, err, big.NewInt(0))
			return
		}
		_, base := floorDivMod(b, am)
		exp := new(big.Int).Set(e)
		if e.Sign() < 0 {
			base = modInverse(base, am)
			if base == nil {
				if excClass(err) != ValueError {
					t.Fatalf("%s: not invertible, want ValueError, got %v, %v", what, r, err)
				}
				return
			}
			exp.Neg(exp)
		}
		want := big.NewInt(1)
		sq := new(big.Int).Set(base)
		for _, w := range exp.Bits() { // square and multiply, low bit first
			for i := 0; i < 64; i++ {
				if uint64(w)>>i&1 == 1 {
					_, want = floorDivMod(new(big.Int).Mul(want, sq), am)
				}
				_, sq = floorDivMod(new(big.Int).Mul(sq, sq), am)
			}
		}
		_, want = floorDivMod(want, m) // take the modulus's sign
		checkInt(t, what, r, err, want)
	})
}

func TestIntShiftProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		a := drawBig(t, "a", meter.MaxIntBits)
		n := rapid.IntRange(-2, meter.MaxIntBits+200).Draw(t, "n")
		l, lerr := Binary(c, OpLShift, val(t, a), Int(n))
		r, rerr := Binary(c, OpRShift, val(t, a), Int(n))
		if n < 0 {
			if excClass(lerr) != ValueError || excClass(rerr) != ValueError {
				t.Fatalf("negative shift count: %v, %v", lerr, rerr)
			}
			return
		}
		checkInt(t, fmt.Sprintf("%v << %d", a, n), l, lerr, new(big.Int).Mul(a, pow2(n)))
		q, _ := floorDivMod(a, pow2(n))
		checkInt(t, fmt.Sprintf("%v >> %d", a, n), r, rerr, q)
	})
	c := newCtx()
	huge := val(t, pow2(100))
	for _, k := range []struct {
		a    int64
		op   Op
		want Value
	}{{0, OpLShift, Int(0)}, {5, OpRShift, Int(0)}, {-5, OpRShift, Int(-1)}} {
		if r, err := Binary(c, k.op, Int(k.a), huge); err != nil || r != k.want {
			t.Errorf("%d shift 2**100 = %v, %v", k.a, r, err)
		}
	}
	if _, err := Binary(c, OpLShift, Int(1), huge); excClass(err) != OverflowError {
		t.Errorf("1 << 2**100: %v", err)
	}
}

// Two's complement model: a fixed width well above the cap, byte by byte.
const twosWidth = meter.MaxIntBits/8 + 8

func twos(v *big.Int) []byte {
	x := new(big.Int).Set(v)
	if x.Sign() < 0 {
		x.Add(x, pow2(8*twosWidth))
	}
	out := make([]byte, twosWidth)
	for i := twosWidth - 1; i >= 0; i-- {
		q, r := new(big.Int).QuoRem(x, big.NewInt(256), new(big.Int))
		out[i] = byte(r.Int64())
		x = q
	}
	return out
}

func fromTwos(b []byte) *big.Int {
	v := new(big.Int)
	for _, c := range b {
		v.Mul(v, big.NewInt(256))
		v.Add(v, big.NewInt(int64(c)))
	}
	if b[0]&0x80 != 0 {
		v.Sub(v, pow2(8*len(b)))
	}
	return v
}

func TestIntBitwiseProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		a := drawBig(t, "a", meter.MaxIntBits)
		b := drawBig(t, "b", meter.MaxIntBits)
		ta, tb := twos(a), twos(b)
		and, or, xor, inv := make([]byte, twosWidth), make([]byte, twosWidth), make([]byte, twosWidth), make([]byte, twosWidth)
		for i := range ta {
			and[i], or[i], xor[i], inv[i] = ta[i]&tb[i], ta[i]|tb[i], ta[i]^tb[i], ^ta[i]
		}
		r, err := Binary(c, OpAnd, val(t, a), val(t, b))
		checkInt(t, fmt.Sprintf("%v & %v", a, b), r, err, fromTwos(and))
		r, err = Binary(c, OpOr, val(t, a), val(t, b))
		checkInt(t, fmt.Sprintf("%v | %v", a, b), r, err, fromTwos(or))
		r, err = Binary(c, OpXor, val(t, a), val(t, b))
		checkInt(t, fmt.Sprintf("%v ^ %v", a, b), r, err, fromTwos(xor))
		r, err = intUnary(OpInvert, val(t, a))
		checkInt(t, fmt.Sprintf("~%v", a), r, err, fromTwos(inv))
	})
}

func callMethod(t tb, c Ctx, name string, args []Value, kw []Kw) (Value, error) {
	t.Helper()
	m, ok := IntClass.Dict.Get(name)
	if !ok {
		t.Fatalf("int.%s missing", name)
	}
	switch f := m.(type) {
	case *Builtin:
		return f.Fn(c, args, kw)
	case *ClassMethod:
		return f.Fn.(*Builtin).Fn(c, append([]Value{IntClass}, args...), kw)
	}
	t.Fatalf("int.%s is a %T", name, m)
	return nil, nil
}

func TestIntToBytesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		v := drawBig(t, "v", meter.MaxIntBits)
		n := rapid.IntRange(0, meter.MaxIntBits/8+3).Draw(t, "length")
		if rapid.Bool().Draw(t, "fit") { // often the exact minimum length
			n = (new(big.Int).Abs(v).BitLen() + 7) / 8
		}
		little := rapid.Bool().Draw(t, "little")
		signed := rapid.Bool().Draw(t, "signed")
		order := "big"
		if little {
			order = "little"
		}
		got, err := callMethod(t, c, "to_bytes", []Value{val(t, v), Int(n), Str(order)}, []Kw{{Name: "signed", Value: MakeBool(signed)}})
		what := fmt.Sprintf("(%v).to_bytes(%d, %q, signed=%v)", v, n, order, signed)
		lo, hi := big.NewInt(0), pow2(8*n) // representable: lo <= v < hi
		if signed {
			half := big.NewInt(0)
			if n > 0 {
				half = pow2(8*n - 1)
			}
			lo, hi = new(big.Int).Neg(half), half
			if n == 0 { // CPython: 0 and -1 fit in no bytes
				lo, hi = big.NewInt(-1), big.NewInt(1)
			}
		}
		if v.Cmp(lo) < 0 || v.Cmp(hi) >= 0 {
			if excClass(err) != OverflowError {
				t.Fatalf("%s: want OverflowError, got %v, %v", what, got, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		x := new(big.Int).Set(v)
		if x.Sign() < 0 {
			x.Add(x, pow2(8*n))
		}
		want := make([]byte, n) // little-endian digits base 256
		for i := range want {
			q, r := new(big.Int).QuoRem(x, big.NewInt(256), new(big.Int))
			want[i], x = byte(r.Int64()), q
		}
		if !little {
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				want[i], want[j] = want[j], want[i]
			}
		}
		if b, ok := got.(Bytes); !ok || string(b) != string(want) {
			t.Fatalf("%s = %v, want %x", what, got, want)
		}
		if n == 0 {
			return // b'' reads back as 0, also for -1
		}
		// And back.
		back, err := callMethod(t, c, "from_bytes", []Value{got, Str(order)}, []Kw{{Name: "signed", Value: MakeBool(signed)}})
		checkInt(t, "from_bytes(to_bytes)", back, err, v)
	})
}

func TestIntFromBytesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		bs := rapid.SliceOfN(rapid.Byte(), 0, meter.MaxIntBits/8+4).Draw(t, "bytes")
		little := rapid.Bool().Draw(t, "little")
		signed := rapid.Bool().Draw(t, "signed")
		order := "big"
		be := append([]byte(nil), bs...)
		if little {
			order = "little"
			for i, j := 0, len(be)-1; i < j; i, j = i+1, j-1 {
				be[i], be[j] = be[j], be[i]
			}
		}
		want := new(big.Int)
		for _, b := range be {
			want.Mul(want, big.NewInt(256))
			want.Add(want, big.NewInt(int64(b)))
		}
		if signed && len(be) > 0 && be[0]&0x80 != 0 {
			want.Sub(want, pow2(8*len(be)))
		}
		got, err := callMethod(t, c, "from_bytes", []Value{Bytes(bs), Str(order)}, []Kw{{Name: "signed", Value: MakeBool(signed)}})
		checkInt(t, fmt.Sprintf("int.from_bytes(%x, %q, signed=%v)", bs, order, signed), got, err, want)
	})
}

const digitChars = "0123456789abcdefghijklmnopqrstuvwxyz"

// digitsOf writes |v| in base with repeated division.
func digitsOf(v *big.Int, base int) string {
	x := new(big.Int).Abs(v)
	if x.Sign() == 0 {
		return "0"
	}
	var out []byte
	for x.Sign() > 0 {
		q, r := new(big.Int).QuoRem(x, big.NewInt(int64(base)), new(big.Int))
		out = append(out, digitChars[r.Int64()])
		x = q
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// parseModel is int(s, base) for ASCII s: the grammar as a regexp, the
// value by multiply-and-add. ok is false for a ValueError.
func parseModel(s string, base int) (*big.Int, bool) {
	s = strings.Trim(s, " \t\n\r\v\f")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	digitClass := func(b int) string {
		if b <= 10 {
			return fmt.Sprintf("[0-%d]", b-1)
		}
		return fmt.Sprintf("[0-9a-%cA-%c]", 'a'+b-11, 'A'+b-11)
	}
	body := func(b int) string { return digitClass(b) + "(_?" + digitClass(b) + ")*" }
	prefixed := func(b int, p string) string { return "0[" + p + strings.ToUpper(p) + "](_?" + digitClass(b) + ")+" }
	var pat string
	switch base {
	case 0:
		pat = prefixed(16, "x") + "|" + prefixed(8, "o") + "|" + prefixed(2, "b") + "|0(_?0)*|[1-9](_?[0-9])*"
	case 16:
		pat = prefixed(16, "x") + "|" + body(16)
	case 8:
		pat = prefixed(8, "o") + "|" + body(8)
	case 2:
		pat = prefixed(2, "b") + "|" + body(2)
	default:
		pat = body(base)
	}
	if !regexp.MustCompile("^(" + pat + ")$").MatchString(s) {
		return nil, false
	}
	prefixBase := map[byte]int{'x': 16, 'o': 8, 'b': 2}
	if len(s) > 1 && s[0] == '0' {
		if pb := prefixBase[s[1]|0x20]; pb != 0 && (base == 0 || base == pb) {
			base, s = pb, s[2:]
		}
	}
	if base == 0 {
		base = 10
	}
	v := new(big.Int)
	for _, ch := range strings.ToLower(s) {
		if ch == '_' {
			continue
		}
		v.Mul(v, big.NewInt(int64(base)))
		v.Add(v, big.NewInt(int64(strings.IndexRune(digitChars, ch))))
	}
	if neg {
		v.Neg(v)
	}
	return v, true
}

func TestParseModelSelfCheck(t *testing.T) {
	for _, k := range []struct {
		s    string
		base int
		want int64
		ok   bool
	}{
		{" -0x_1f ", 0, -31, true}, {"0b1", 16, 0xb1, true}, {"0x1f", 16, 31, true}, {"0_0", 0, 0, true},
		{"010", 0, 0, false}, {"1__0", 10, 0, false}, {"_1", 10, 0, false}, {"1_", 10, 0, false},
		{"0x", 16, 0, false}, {"z", 36, 35, true}, {"--1", 10, 0, false}, {"", 10, 0, false}, {"1 0", 10, 0, false},
	} {
		v, ok := parseModel(k.s, k.base)
		if ok != k.ok || ok && v.Int64() != k.want {
			t.Errorf("model int(%q, %d) = %v, %v", k.s, k.base, v, ok)
		}
	}
}

func TestIntParseProperty(t *testing.T) {
	bases := []int{0, 2, 3, 7, 8, 10, 11, 16, 17, 32, 36}
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		base := rapid.SampledFrom(bases).Draw(t, "base")
		var s string
		if rapid.Bool().Draw(t, "valid") {
			v := drawBig(t, "v", meter.MaxIntBits+8)
			db := base
			prefix := ""
			if base == 0 {
				db = rapid.SampledFrom([]int{2, 8, 10, 16}).Draw(t, "literal")
				prefix = map[int]string{2: "0b", 8: "0o", 10: "", 16: "0x"}[db]
			} else if (base == 2 || base == 8 || base == 16) && rapid.Bool().Draw(t, "prefixed") {
				prefix = map[int]string{2: "0b", 8: "0o", 16: "0x"}[base]
			}
			if rapid.Bool().Draw(t, "upper") {
				prefix = strings.ToUpper(prefix)
			}
			ds := digitsOf(v, db)
			if db != 10 || base != 0 {
				ds = strings.Repeat("0", rapid.IntRange(0, 3).Draw(t, "zeros")) + ds
			}
			var b strings.Builder
			if prefix != "" && rapid.Bool().Draw(t, "underscoreAfterPrefix") {
				prefix += "_"
			}
			for i := range ds {
				if i > 0 && rapid.IntRange(0, 5).Draw(t, "us") == 0 {
					b.WriteByte('_')
				}
				ch := ds[i]
				if rapid.Bool().Draw(t, "case") {
					ch = strings.ToUpper(string(ch))[0]
				}
				b.WriteByte(ch)
			}
			sign := ""
			if v.Sign() < 0 {
				sign = "-"
			} else {
				sign = rapid.SampledFrom([]string{"", "+", "-"}).Draw(t, "sign")
				if sign == "-" && v.Sign() != 0 {
					v.Neg(v) // "-" before the digits of |v|
				}
			}
			ws := rapid.SampledFrom([]string{"", " ", "\t", "\n ", "\r\v\f"})
			s = ws.Draw(t, "lead") + sign + prefix + b.String() + ws.Draw(t, "trail")
		} else {
			s = rapid.StringOfN(rapid.SampledFrom([]rune("0123456789abcdefxXoObBzZ_+- \t")), 0, 12, -1).Draw(t, "junk")
		}
		got, err := newInt(c, IntClass, []Value{Str(s), Int(base)}, nil)
		what := fmt.Sprintf("int(%q, %d)", s, base)
		want, ok := parseModel(s, base)
		if !ok {
			if excClass(err) != ValueError {
				t.Fatalf("%s: want ValueError, got %v, %v", what, got, err)
			}
			return
		}
		checkInt(t, what, got, err, want)
	})
}

// group inserts sep every n digits from the right.
func groupDigits(ds string, n int, sep string) string {
	var parts []string
	for len(ds) > n {
		parts = append([]string{ds[len(ds)-n:]}, parts...)
		ds = ds[:len(ds)-n]
	}
	return strings.Join(append([]string{ds}, parts...), sep)
}

func TestIntFormatProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := newCtx()
		v := drawBig(t, "v", meter.MaxIntBits)
		x := val(t, v)
		sign := ""
		if v.Sign() < 0 {
			sign = "-"
		}
		dec, hex, oct, bin := digitsOf(v, 10), digitsOf(v, 16), digitsOf(v, 8), digitsOf(v, 2)
		if s, err := x.Repr(c); err != nil || s != sign+dec {
			t.Fatalf("str(%v) = %q, %v", v, s, err)
		}
		for _, k := range []struct{ spec, want string }{
			{"", sign + dec}, {"d", sign + dec}, {",d", sign + groupDigits(dec, 3, ",")}, {"_d", sign + groupDigits(dec, 3, "_")},
			{"x", sign + hex}, {"#x", sign + "0x" + hex}, {"X", sign + strings.ToUpper(hex)}, {"#X", sign + "0X" + strings.ToUpper(hex)},
			{"_x", sign + groupDigits(hex, 4, "_")}, {"o", sign + oct}, {"#o", sign + "0o" + oct}, {"b", sign + bin},
			{"#b", sign + "0b" + bin}, {"_b", sign + groupDigits(bin, 4, "_")}, {"+d", map[bool]string{true: "-", false: "+"}[v.Sign() < 0] + dec},
		} {
			if s, err := Format(c, x, k.spec); err != nil || s != k.want {
				t.Fatalf("format(%v, %q) = %q, %v; want %q", v, k.spec, s, err, k.want)
			}
		}
	})
}

// TestIntCap pins where the 4096-bit cap (meter.MaxIntBits) bites: a
// result's magnitude must stay below 2**4096, whichever operation made it.
func TestIntCap(t *testing.T) {
	c := newCtx()
	max := new(big.Int).Sub(capLimit, bigOne) // 2**4096 - 1, the largest int
	maxV := val(t, max)
	negMaxV := val(t, new(big.Int).Neg(max))
	if _, err := MakeBigInt(new(big.Int).Set(capLimit)); excClass(err) != OverflowError {
		t.Errorf("MakeBigInt(2**4096): %v", err)
	}
	if _, err := MakeBigInt(new(big.Int).Neg(capLimit)); excClass(err) != OverflowError {
		t.Errorf("MakeBigInt(-2**4096): %v", err)
	}
	over := func(name string, v Value, err error) {
		t.Helper()
		if excClass(err) != OverflowError {
			t.Errorf("%s: want OverflowError, got %v, %v", name, v, err)
		}
	}
	fits := func(name string, v Value, err error, want *big.Int) {
		t.Helper()
		checkInt(t, name, v, err, want)
	}
	v, err := Binary(c, OpAdd, maxV, Int(1))
	over("max + 1", v, err)
	v, err = Binary(c, OpSub, negMaxV, Int(1))
	over("-max - 1", v, err)
	v, err = intUnary(OpInvert, maxV)
	over("~max", v, err)
	v, err = intUnary(OpInvert, negMaxV)
	fits("~-max", v, err, new(big.Int).Sub(max, bigOne))
	v, err = Binary(c, OpLShift, Int(1), Int(meter.MaxIntBits-1))
	fits("1 << 4095", v, err, pow2(meter.MaxIntBits-1))
	v, err = Binary(c, OpLShift, Int(1), Int(meter.MaxIntBits))
	over("1 << 4096", v, err)
	v, err = Binary(c, OpLShift, Int(-1), Int(meter.MaxIntBits))
	over("-1 << 4096", v, err)
	v, err = Binary(c, OpPow, Int(2), Int(meter.MaxIntBits))
	over("2 ** 4096", v, err)
	v, err = Binary(c, OpPow, Int(-2), Int(meter.MaxIntBits-1))
	fits("(-2) ** 4095", v, err, new(big.Int).Neg(pow2(meter.MaxIntBits-1)))
	half := val(t, pow2(meter.MaxIntBits/2))
	v, err = Binary(c, OpMul, half, half)
	over("2**2048 * 2**2048", v, err)
	v, err = Binary(c, OpMul, half, val(t, pow2(meter.MaxIntBits/2-1)))
	fits("2**2048 * 2**2047", v, err, pow2(meter.MaxIntBits-1))
	v, err = Binary(c, OpFloorDiv, negMaxV, Int(-1))
	fits("-max // -1", v, err, max)
	v, err = newInt(c, IntClass, []Value{Str(strings.Repeat("1", meter.MaxIntBits)), Int(2)}, nil)
	fits("int('1'*4096, 2)", v, err, max)
	v, err = newInt(c, IntClass, []Value{Str("1" + strings.Repeat("0", meter.MaxIntBits)), Int(2)}, nil)
	over("int('1'+'0'*4096, 2)", v, err)
	v, err = newInt(c, IntClass, []Value{Str(strings.Repeat("0", 20000) + "1"), Int(2)}, nil)
	fits("leading zeros", v, err, bigOne)
	v, err = callMethod(t, c, "from_bytes", []Value{Bytes(strings.Repeat("\xff", meter.MaxIntBits/8)), Str("big")}, nil)
	fits("from_bytes(512 x ff)", v, err, max)
	v, err = callMethod(t, c, "from_bytes", []Value{Bytes("\x01" + strings.Repeat("\x00", meter.MaxIntBits/8)), Str("big")}, nil)
	over("from_bytes(1 + 512 x 00)", v, err)
	v, err = PowMod(c, Int(3), val(t, pow2(300)), maxV)
	if err != nil {
		t.Errorf("pow(3, 2**300, max): %v", err)
	}
	_ = v
}
