package object

import (
	"math"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// Float is a Python float. The value is stored as a Go float64 because the
// bits are the same, but no Python-visible result is ever computed with Go's
// float64 operators or package math: every operation goes through
// pvm/softfloat (integer arithmetic), so that results are identical on every
// CPU (CIP-3 §2.2 "Floating-Point Determinism"). Go may fuse x*y+z into one
// rounding on arm64; softfloat cannot.
type Float float64

// sf returns the softfloat value with f's bits.
func sf(f float64) softfloat.F64 { return softfloat.FromFloat64(f) }

// fl returns the float64 holding x's bits (storage only).
func fl(x softfloat.F64) float64 { return x.Float64() }

func floatAdd(a, b float64) float64 { return fl(softfloat.Add(sf(a), sf(b))) }
func floatSub(a, b float64) float64 { return fl(softfloat.Sub(sf(a), sf(b))) }
func floatMul(a, b float64) float64 { return fl(softfloat.Mul(sf(a), sf(b))) }
func floatDiv(a, b float64) float64 { return fl(softfloat.Div(sf(a), sf(b))) }

// Type implements Value.
func (Float) Type() *Class { return FloatClass }

// Repr implements Value.
func (f Float) Repr(Ctx) (string, error) { return FloatRepr(float64(f)), nil }

// Truth implements Value.
func (f Float) Truth(Ctx) (bool, error) { return !sf(float64(f)).IsZero(), nil }

// Hash implements Value: equal to the int hash for integral floats, as in
// Python. For other finite values it is CPython's _Py_HashDouble: the value
// m * 2**e (m the integer significand) reduced modulo 2**61-1, computed here
// on the bits with integer arithmetic (2**61 is 1 modulo 2**61-1, so
// multiplying by 2**e is a rotation by e mod 61 within 61 bits).
func (f Float) Hash(Ctx) (int64, error) {
	x := sf(float64(f))
	switch {
	case x.IsNaN():
		return 0, nil
	case x == softfloat.Inf:
		return 314159, nil
	case x == softfloat.NegInf:
		return -314159, nil
	}
	if i, ok := softfloat.ToInt64(x); ok && softfloat.Trunc(x) == x {
		return hashInt64(i), nil
	}
	b := uint64(x)
	exp := int(b>>52) & 0x7FF
	m := b & (1<<52 - 1)
	if exp == 0 {
		exp = 1
	} else {
		m |= 1 << 52
	}
	e := exp - 1075 // |x| = m * 2**e
	r := ((e % 61) + 61) % 61
	h := m // m < 2**53 < 2**61-1: already reduced
	if r != 0 {
		h = ((h << uint(r)) & hashModulus) | h>>(61-uint(r))
	}
	v := int64(h)
	if x.Signbit() {
		v = -v
	}
	if v == -1 {
		v = -2
	}
	return v, nil
}

// FloatRepr formats f as Python's repr does: the shortest string that round
// trips, in exponent form when the exponent is below -4 or at least 16.
func FloatRepr(f float64) string {
	x := sf(f)
	switch {
	case x.IsNaN():
		return "nan"
	case x == softfloat.Inf:
		return "inf"
	case x == softfloat.NegInf:
		return "-inf"
	}
	s := softfloat.Format(x, 'e', -1) // d.ddde±XX
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	neg := strings.HasPrefix(mant, "-")
	if neg {
		mant = mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp < -4 || exp >= 16 {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + sign + es
	} else if exp < 0 {
		out = "0." + strings.Repeat("0", -exp-1) + digits
	} else {
		if len(digits) <= exp+1 {
			out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		} else {
			out = digits[:exp+1] + "." + digits[exp+1:]
		}
	}
	if neg {
		out = "-" + out
	}
	return out
}

// floatBinary does float arithmetic after both operands became float64.
func floatBinary(c Ctx, op Op, a, b float64) (Value, error) {
	switch op {
	case OpAdd:
		return Float(floatAdd(a, b)), nil
	case OpSub:
		return Float(floatSub(a, b)), nil
	case OpMul:
		return Float(floatMul(a, b)), nil
	case OpTrueDiv:
		if sf(b).IsZero() {
			return nil, Errorf(ZeroDivisionError, "float division by zero")
		}
		return Float(floatDiv(a, b)), nil
	case OpFloorDiv:
		if sf(b).IsZero() {
			return nil, Errorf(ZeroDivisionError, "float floor division by zero")
		}
		q, _ := FloatDivmod(a, b)
		return Float(q), nil
	case OpMod:
		if sf(b).IsZero() {
			return nil, Errorf(ZeroDivisionError, "float modulo")
		}
		return Float(fl(floatMod(sf(a), sf(b)))), nil
	case OpPow:
		return floatPowValues(c, a, b)
	}
	return nil, nil
}

// floatMod is CPython's float_rem: fmod, then moved into the divisor's
// sign; a zero takes the divisor's sign.
func floatMod(a, b softfloat.F64) softfloat.F64 {
	mod := softfloat.Fmod(a, b)
	if !mod.IsZero() {
		if b.Signbit() != mod.Signbit() {
			mod = softfloat.Add(mod, b)
		}
	} else {
		mod = softfloat.Copysign(softfloat.Zero, b)
	}
	return mod
}

// FloatDivmod is CPython's float_divmod for b != 0: the floor quotient and
// the remainder.
func FloatDivmod(a64, b64 float64) (float64, float64) {
	a, b := sf(a64), sf(b64)
	mod := softfloat.Fmod(a, b)
	div := softfloat.Div(softfloat.Sub(a, mod), b)
	if !mod.IsZero() {
		if b.Signbit() != mod.Signbit() {
			mod = softfloat.Add(mod, b)
			div = softfloat.Sub(div, softfloat.One)
		}
	} else {
		mod = softfloat.Copysign(softfloat.Zero, b)
	}
	var floordiv softfloat.F64
	if !div.IsZero() {
		floordiv = softfloat.Floor(div)
		if softfloat.Lt(softfloat.FromFloat64(0.5), softfloat.Sub(div, floordiv)) {
			floordiv = softfloat.Add(floordiv, softfloat.One)
		}
	} else {
		floordiv = softfloat.Copysign(softfloat.Zero, softfloat.Div(a, b))
	}
	return fl(floordiv), fl(mod)
}

// floatPowValues is CPython's float_pow: the special cases are decided here
// and the rest is softfloat.Pow (correctly rounded). A power that needs the
// general exp(y log x) evaluation charges meter.CostMathPow, plus
// meter.CostMathSlowPath when it leaves softfloat's fast path.
func floatPowValues(c Ctx, a64, b64 float64) (Value, error) {
	v, w := sf(a64), sf(b64)
	one := softfloat.One
	switch {
	case w.IsZero():
		return Float(1), nil
	case v.IsNaN():
		return Float(a64), nil
	case w.IsNaN():
		if v == one {
			return Float(1), nil
		}
		return Float(b64), nil
	case w.IsInf():
		av := softfloat.Abs(v)
		switch {
		case av == one:
			return Float(1), nil
		case w.Signbit() == softfloat.Lt(one, av):
			return Float(0), nil
		}
		return Float(math.Inf(1)), nil
	case v.IsInf():
		odd := isOddIntegral(w)
		if !w.Signbit() {
			if odd {
				return Float(a64), nil
			}
			return Float(fl(softfloat.Abs(v))), nil
		}
		if odd {
			return Float(fl(softfloat.Copysign(softfloat.Zero, v))), nil
		}
		return Float(0), nil
	case v.IsZero():
		if w.Signbit() {
			return nil, Errorf(ZeroDivisionError, "0.0 cannot be raised to a negative power")
		}
		if isOddIntegral(w) {
			return Float(a64), nil
		}
		return Float(0), nil
	}
	negate := false
	if v.Signbit() {
		if softfloat.Floor(w) != w {
			return nil, Errorf(ValueError, "PVM: complex numbers are not supported")
		}
		v = softfloat.Abs(v)
		negate = isOddIntegral(w)
	}
	if v == one {
		if negate {
			return Float(-1), nil
		}
		return Float(1), nil
	}
	var r softfloat.F64
	if softfloat.PowNeedsLog(v, w) {
		if err := Charge(c, meter.CostMathPow); err != nil {
			return nil, err
		}
		fast, ok := softfloat.Fast("pow", v, w)
		if !ok {
			// The big.Float evaluation (|w log v| near the range limits,
			// or an exact tie).
			if err := Charge(c, meter.CostMathSlowPath); err != nil {
				return nil, err
			}
			fast = softfloat.Pow(v, w)
		}
		r = fast
	} else {
		r = softfloat.Pow(v, w)
	}
	if r.IsInf() {
		return nil, Errorf(OverflowError, "(34, 'Numerical result out of range')")
	}
	if negate {
		r = softfloat.Neg(r)
	}
	return Float(fl(r)), nil
}

// isOddIntegral reports whether a finite w is an odd integer.
func isOddIntegral(w softfloat.F64) bool {
	if !w.IsFinite() {
		return false
	}
	m := softfloat.Fmod(softfloat.Abs(w), softfloat.FromInt64(2))
	return m == softfloat.One
}

// ParseFloat parses a float() argument or literal with Python's syntax:
// surrounding whitespace, an optional sign, "inf", "infinity" or "nan" in
// any case, or a decimal number whose digits may be separated by single
// underscores. The result is correctly rounded (softfloat.Parse).
func ParseFloat(s string) (float64, bool) {
	t := trimSpace(s)
	if !validFloatSyntax(t) {
		return 0, false
	}
	x, err := softfloat.Parse(strings.ReplaceAll(t, "_", ""))
	if err != nil {
		return 0, false
	}
	return fl(x), true
}

// validFloatSyntax checks Python's float() grammar (underscores only between
// digits); softfloat.Parse checks the rest.
func validFloatSyntax(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c == '_' {
			if i == 0 || i == len(t)-1 || !isASCIIDigit(t[i-1]) || !isASCIIDigit(t[i+1]) {
				return false
			}
			continue
		}
		if !(isASCIIDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' ||
			(c|0x20 >= 'a' && c|0x20 <= 'z')) {
			return false
		}
	}
	return true
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// ToFloat converts a number to float64 (float(), mixed arithmetic).
func ToFloat(v Value) (float64, bool, error) {
	switch v := v.(type) {
	case Float:
		return float64(v), true, nil
	case Int, Bool, *BigInt:
		f, err := intToFloat(v)
		return f, true, err
	}
	return 0, false, nil
}
