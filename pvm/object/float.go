package object

import (
	"math"
	"strconv"
	"strings"
)

// Float is a Python float. All float arithmetic goes through the float*
// functions in this file so that the software-float issue can replace them
// in one place; today they use Go's float64 (IEEE-754 binary64, which Go
// evaluates without fused or extended intermediates on the supported
// targets).
type Float float64

func floatAdd(a, b float64) float64 { return a + b }
func floatSub(a, b float64) float64 { return a - b }
func floatMul(a, b float64) float64 { return a * b }
func floatDiv(a, b float64) float64 { return a / b }

// Type implements Value.
func (Float) Type() *Class { return FloatClass }

// Repr implements Value.
func (f Float) Repr(Ctx) (string, error) { return FloatRepr(float64(f)), nil }

// Truth implements Value.
func (f Float) Truth(Ctx) (bool, error) { return f != 0, nil }

// Hash implements Value: equal to the int hash for integral floats, as in
// Python.
func (f Float) Hash(Ctx) (int64, error) {
	v := float64(f)
	if math.IsInf(v, 0) {
		if v > 0 {
			return 314159, nil
		}
		return -314159, nil
	}
	if math.IsNaN(v) {
		return 0, nil
	}
	if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
		return hashInt64(int64(v)), nil
	}
	// Python's algorithm: reduce the mantissa modulo 2**61-1.
	m, e := math.Frexp(math.Abs(v))
	var x uint64
	for m != 0 {
		x = ((x << 28) & hashModulus) | x>>(61-28)
		m *= 268435456.0
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= hashModulus {
			x -= hashModulus
		}
	}
	if e >= 0 {
		e %= 61
	} else {
		e = 61 - 1 - ((-1 - e) % 61)
	}
	x = ((x << uint(e)) & hashModulus) | x>>(61-uint(e))
	h := int64(x)
	if v < 0 {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h, nil
}

// FloatRepr formats f as Python's repr does: the shortest string that round
// trips, in exponent form when the exponent is below -4 or at least 16.
func FloatRepr(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
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
func floatBinary(op Op, a, b float64) (Value, error) {
	switch op {
	case OpAdd:
		return Float(floatAdd(a, b)), nil
	case OpSub:
		return Float(floatSub(a, b)), nil
	case OpMul:
		return Float(floatMul(a, b)), nil
	case OpTrueDiv:
		if b == 0 {
			return nil, Errorf(ZeroDivisionError, "float division by zero")
		}
		return Float(floatDiv(a, b)), nil
	case OpFloorDiv:
		if b == 0 {
			return nil, Errorf(ZeroDivisionError, "float floor division by zero")
		}
		q, _ := floatDivmod(a, b)
		return Float(q), nil
	case OpMod:
		if b == 0 {
			return nil, Errorf(ZeroDivisionError, "float modulo")
		}
		_, m := floatDivmod(a, b)
		return Float(m), nil
	case OpPow:
		return floatPowValues(a, b)
	}
	return nil, nil
}

// floatDivmod follows CPython's float_divmod.
func floatDivmod(a, b float64) (float64, float64) {
	mod := math.Mod(a, b)
	div := (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div -= 1
		}
	} else {
		mod = math.Copysign(0, b)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1
		}
	} else {
		floordiv = math.Copysign(0, a/b)
	}
	return floordiv, mod
}

func floatPowValues(a, b float64) (Value, error) {
	if a == 0 && b < 0 {
		return nil, Errorf(ZeroDivisionError, "0.0 cannot be raised to a negative power")
	}
	if a < 0 && b != math.Trunc(b) {
		return nil, Errorf(ValueError, "PVM: complex numbers are not supported")
	}
	r := math.Pow(a, b)
	if math.IsInf(r, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		return nil, Errorf(OverflowError, "(34, 'Numerical result out of range')")
	}
	return Float(r), nil
}

// ParseFloat parses a float() argument or literal.
func ParseFloat(s string) (float64, bool) {
	t := strings.ToLower(trimSpace(s))
	switch strings.TrimLeft(t, "+-") {
	case "inf", "infinity":
		if strings.HasPrefix(t, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	if strings.Contains(t, "__") || strings.HasPrefix(t, "_") || strings.HasSuffix(t, "_") || strings.Contains(t, "0x") {
		return 0, false
	}
	t = strings.ReplaceAll(t, "_", "")
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

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
