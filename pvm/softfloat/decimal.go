package softfloat

import (
	"errors"
	"math"
	"math/big"
	"strconv"
)

// ErrSyntax is returned by Parse for a string that is not a decimal float.
var ErrSyntax = errors.New("invalid decimal float syntax")

// pow10 holds the exact binary64 values of 10**0 .. 10**22 (5**22 < 2**53,
// so each is exactly representable).
var pow10 = func() [23]F64 {
	var t [23]F64
	p := big.NewInt(1)
	for i := range t {
		t[i] = FromBig(p)
		p.Mul(p, big.NewInt(10))
	}
	return t
}()

// maxDigits bounds the significant digits Parse keeps. A decimal string
// that lies exactly halfway between two binary64 values has at most 767
// significant digits, so keeping 800 and replacing the rest by one non-zero
// sticky digit when any of them is non-zero never changes the rounding.
const maxDigits = 800

// Parse converts a decimal string to the nearest binary64 value (ties to
// even). The accepted syntax is an optional sign, then either "inf",
// "infinity" or "nan" (any case), or digits with at most one '.' and at
// least one digit, then an optional exponent 'e' or 'E', optional sign and
// digits. Underscores and surrounding spaces are the caller's business.
// Overflow gives ±inf and underflow a signed zero, as Python's float() does.
//
// Parse never uses the host FPU: strings with at most 15 significant digits
// and a decimal exponent within ±22 take the classic exact path (one
// correctly rounded softfloat Mul or Div of two exactly representable
// values), all others are rounded from an exact big-integer ratio.
func Parse(s string) (F64, error) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	switch lower(s[i:]) {
	case "inf", "infinity":
		return nanOrInf(neg), nil
	case "nan":
		if neg {
			return Neg(NaN), nil // CPython keeps the sign: float('-nan') has it set
		}
		return NaN, nil
	}
	var digits []byte // significant digits, no leading zeros
	exp10 := 0        // value = digits * 10**exp10
	sawDigit, sawDot, sticky := false, false, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			sawDigit = true
			if sawDot {
				exp10--
			}
			if c == '0' && len(digits) == 0 {
				continue
			}
			if len(digits) < maxDigits {
				digits = append(digits, c)
			} else {
				exp10++
				sticky = sticky || c != '0'
			}
		case c == '.' && !sawDot:
			sawDot = true
		default:
			goto exponent
		}
	}
exponent:
	if !sawDigit {
		return 0, ErrSyntax
	}
	if i < len(s) {
		if s[i] != 'e' && s[i] != 'E' {
			return 0, ErrSyntax
		}
		i++
		eneg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			eneg = s[i] == '-'
			i++
		}
		if i == len(s) {
			return 0, ErrSyntax
		}
		e := 0
		for ; i < len(s); i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, ErrSyntax
			}
			if e < 1_000_000_000 {
				e = e*10 + int(c-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	if sticky {
		digits = append(digits, '1')
		exp10--
	}
	// Trailing zeros only scale.
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp10++
	}
	if len(digits) == 0 {
		return pack(neg, 0, 0), nil
	}
	nd := len(digits)
	// value < 10**(nd+exp10) and value >= 10**(nd+exp10-1).
	if nd+exp10 > 310 {
		return nanOrInf(neg), nil
	}
	if nd+exp10 <= -324 {
		return pack(neg, 0, 0), nil
	}
	var r F64
	if nd <= 15 && exp10 >= -22 && exp10 <= 22 {
		var m uint64
		for _, c := range digits {
			m = m*10 + uint64(c-'0')
		}
		r = FromUint64(m)
		if exp10 >= 0 {
			r = Mul(r, pow10[exp10])
		} else {
			r = Div(r, pow10[-exp10])
		}
	} else {
		m, _ := new(big.Int).SetString(string(digits), 10)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp10))), nil)
		if exp10 >= 0 {
			r = FromBig(m.Mul(m, p))
		} else {
			r = FromRat(m, p)
		}
	}
	if neg {
		r = Neg(r)
	}
	return r, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func lower(s string) string {
	if len(s) > 8 {
		return ""
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Format formats a finite x with strconv's 'e' or 'f' format and precision
// prec (-1: the shortest string that parses back to x, which is how Python's
// repr chooses its digits). The conversion reads the bit pattern only; see
// the package documentation for why this uses no floating-point arithmetic.
func Format(x F64, fmt byte, prec int) string {
	return strconv.FormatFloat(math.Float64frombits(uint64(x)), fmt, prec, 64)
}

// Float64 returns x as a Go float64 with the same bits (for storage and for
// Format; never use the result in arithmetic that Python can observe).
func (x F64) Float64() float64 { return math.Float64frombits(uint64(x)) }

// FromFloat64 returns the F64 with the bits of f.
func FromFloat64(f float64) F64 { return F64(math.Float64bits(f)) }
