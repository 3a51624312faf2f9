package object

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// float.hex and float.fromhex (found missing by pvm/difftest). Both work on
// the bits and on exact big integers; fromhex rounds once, to nearest even,
// through softfloat.FromRat, so no host floating point is involved.

func initFloatHex() {
	FloatClass.Dict.Set("hex", method("hex", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		f, ok := args[0].(Float)
		if !ok {
			return nil, Errorf(TypeError, "descriptor 'hex' requires a 'float' object")
		}
		return Str(floatHex(float64(f))), nil
	}))
	FloatClass.Dict.Set("fromhex", &ClassMethod{Fn: NewBuiltin("fromhex", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("fromhex", args[1:], 1, 1); err != nil {
			return nil, err
		}
		s, ok := args[1].(Str)
		if !ok {
			return nil, Errorf(TypeError, "fromhex() argument must be str, not %s", TypeName(args[1]))
		}
		f, err := floatFromHex(string(s))
		if err != nil {
			return nil, err
		}
		return Float(f), nil
	})})
}

// floatHex is CPython's float.hex: 0x1.<13 hex digits>p<exp> for normal
// numbers, 0x0.<13 digits>p-1022 for subnormals, 0x0.0p+0 for zero.
func floatHex(x float64) string {
	b := math.Float64bits(x)
	sign := ""
	if b>>63 != 0 {
		sign = "-"
	}
	exp := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	switch {
	case exp == 0x7ff && mant != 0:
		return "nan"
	case exp == 0x7ff:
		return sign + "inf"
	case exp == 0 && mant == 0:
		return sign + "0x0.0p+0"
	case exp == 0:
		return fmt.Sprintf("%s0x0.%013xp-1022", sign, mant)
	}
	return fmt.Sprintf("%s0x1.%013xp%+d", sign, mant, exp-1023)
}

// floatFromHex parses [sign] ['0x'] hexdigits ['.' hexdigits] ['p' [sign]
// digits], or inf/infinity/nan, with surrounding whitespace.
func floatFromHex(s string) (float64, error) {
	bad := Errorf(ValueError, "invalid hexadecimal floating-point string")
	t := trimSpace(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	switch strings.ToLower(t) {
	case "inf", "infinity":
		return math.Inf(map[bool]int{true: -1, false: 1}[neg]), nil
	case "nan":
		if neg {
			return fl(softfloat.Neg(softfloat.NaN)), nil
		}
		return fl(softfloat.NaN), nil
	}
	if len(t) > 1 && t[0] == '0' && t[1]|0x20 == 'x' {
		t = t[2:]
	}
	mant := new(big.Int)
	digits, frac, i := 0, 0, 0
	seenDot := false
	for ; i < len(t); i++ {
		ch := t[i]
		if ch == '.' && !seenDot {
			seenDot = true
			continue
		}
		d := unhex(ch)
		if d < 0 {
			break
		}
		mant.Lsh(mant, 4)
		mant.Or(mant, big.NewInt(int64(d)))
		digits++
		if seenDot {
			frac++
		}
		if digits > 5000 {
			return 0, bad
		}
	}
	if digits == 0 {
		return 0, bad
	}
	exp := int64(0)
	if i < len(t) && t[i]|0x20 == 'p' {
		i++
		eneg := false
		if i < len(t) && (t[i] == '+' || t[i] == '-') {
			eneg, i = t[i] == '-', i+1
		}
		start := i
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			if exp < 1<<40 {
				exp = exp*10 + int64(t[i]-'0')
			}
		}
		if i == start {
			return 0, bad
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(t) {
		return 0, bad
	}
	exp -= 4 * int64(frac)
	if mant.Sign() == 0 {
		if neg {
			return math.Copysign(0, -1), nil
		}
		return 0, nil
	}
	top := int64(mant.BitLen()) + exp // value < 2**top
	if top > 1025 {
		return 0, Errorf(OverflowError, "hexadecimal value too large to represent as a float")
	}
	if top < -1080 {
		exp = -1200 + int64(mant.BitLen()) // far below the smallest subnormal: rounds to 0
	}
	num, den := mant, big.NewInt(1)
	if exp >= 0 {
		num = new(big.Int).Lsh(mant, uint(exp))
	} else {
		den = new(big.Int).Lsh(den, uint(-exp))
	}
	if neg {
		num = new(big.Int).Neg(num)
	}
	r := softfloat.FromRat(num, den)
	if r.IsInf() {
		return 0, Errorf(OverflowError, "hexadecimal value too large to represent as a float")
	}
	return fl(r), nil
}
