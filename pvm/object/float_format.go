package object

import (
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// Float formatting follows CPython 3.11's format_float_internal
// (Python/formatter_unicode.c) and PyOS_double_to_string /
// format_float_short (Python/pystrtod.c) step by step. The digits come from
// softfloat.Format (strconv on the bit pattern, integer arithmetic only),
// which rounds the exact binary value half-to-even exactly as David Gay's
// dtoa does in modes 0, 2 and 3.

// dtoa returns the decimal digits of |x| (finite) without trailing zeros
// and the position of the decimal point relative to them (value =
// 0.digits * 10**decpt), as _Py_dg_dtoa does for mode 0 (shortest round
// trip), mode 2 (nd significant digits) and mode 3 (nd digits after the
// point). A value that rounds to zero gives "0" with decpt 1.
func dtoa(x softfloat.F64, mode, nd int) (string, int) {
	x = softfloat.Abs(x)
	var s string
	switch mode {
	case 0:
		s = softfloat.Format(x, 'e', -1)
	case 2:
		s = softfloat.Format(x, 'e', nd-1)
	default:
		s = softfloat.Format(x, 'f', nd)
		intPart, frac, _ := strings.Cut(s, ".")
		digits := strings.TrimLeft(intPart+frac, "0")
		if digits == "" {
			return "0", 1
		}
		decpt := len(intPart) - (len(intPart+frac) - len(digits))
		return strings.TrimRight(digits, "0"), decpt
	}
	mant, expS, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expS)
	digits := strings.Replace(mant, ".", "", 1)
	if strings.Trim(digits, "0") == "" {
		return "0", 1
	}
	return strings.TrimRight(digits, "0"), exp + 1
}

// formatFloatShort is CPython's format_float_short for a finite value:
// code is 'e', 'f', 'g' or 'r'.
func formatFloatShort(x softfloat.F64, code byte, prec int, addDot0, alt bool) string {
	var digits string
	var decpt int
	switch code {
	case 'e':
		digits, decpt = dtoa(x, 2, prec+1)
	case 'f':
		digits, decpt = dtoa(x, 3, prec)
	case 'g':
		if prec == 0 {
			prec = 1
		}
		digits, decpt = dtoa(x, 2, prec)
	default:
		digits, decpt = dtoa(x, 0, 0)
	}
	if digits == "0" && code == 'f' {
		// dtoa mode 3 returns no digits for a value that rounds to zero
		// at this precision; "0" at decpt 1 prints the same.
		decpt = 1
	}
	nd := len(digits)
	vend := nd
	useExp := false
	switch code {
	case 'e':
		useExp = true
		vend = prec + 1
	case 'f':
		vend = decpt + prec
	case 'g':
		limit := prec
		if addDot0 {
			limit = prec - 1
		}
		if decpt <= -4 || decpt > limit {
			useExp = true
		}
		if alt {
			vend = prec
		}
	default:
		if decpt <= -4 || decpt > 16 {
			useExp = true
		}
	}
	exp := 0
	if useExp {
		exp = decpt - 1
		decpt = 1
	}
	vstart := 0
	if decpt <= 0 {
		vstart = decpt - 1
	}
	if !useExp && addDot0 {
		vend = max(vend, decpt+1)
	} else {
		vend = max(vend, decpt)
	}
	var b strings.Builder
	if decpt <= 0 {
		b.WriteString(strings.Repeat("0", decpt-vstart))
		b.WriteByte('.')
		b.WriteString(strings.Repeat("0", -decpt))
	} else {
		b.WriteString(strings.Repeat("0", -vstart))
	}
	if 0 < decpt && decpt <= nd {
		b.WriteString(digits[:decpt])
		b.WriteByte('.')
		b.WriteString(digits[decpt:])
	} else {
		b.WriteString(digits)
	}
	if nd < decpt {
		b.WriteString(strings.Repeat("0", decpt-nd))
		b.WriteByte('.')
		b.WriteString(strings.Repeat("0", vend-decpt))
	} else {
		b.WriteString(strings.Repeat("0", vend-nd))
	}
	out := b.String()
	if strings.HasSuffix(out, ".") && !alt {
		out = out[:len(out)-1]
	}
	if useExp {
		sign := byte('+')
		if exp < 0 {
			sign = '-'
			exp = -exp
		}
		es := strconv.Itoa(exp)
		if len(es) < 2 {
			es = "0" + es
		}
		out += "e" + string(sign) + es
	}
	return out
}

// formatFloat is format(v, spec) for a float (and for an int with a float
// presentation type), including %-formatting's float conversions.
func formatFloat(f formatSpec, v float64) (string, error) {
	if f.grouping != 0 && f.typ == 'n' {
		return "", Errorf(ValueError, "Cannot specify '%c' with 'n'.", f.grouping)
	}
	x := sf(v)
	typ := f.typ
	prec := f.precision
	addDot0 := false
	switch typ {
	case 0:
		addDot0 = true
		if prec < 0 {
			typ = 'r'
		} else {
			typ = 'g'
		}
	case 'n':
		if f.grouping != 0 {
			return "", Errorf(ValueError, "Cannot specify '%c' with 'n'.", f.grouping)
		}
		typ = 'g'
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
	default:
		return "", Errorf(ValueError, "Unknown format code '%c' for object of type 'float'", f.typ)
	}
	if typ == '%' {
		x = softfloat.Mul(x, softfloat.FromInt64(100))
	}
	if prec < 0 {
		prec = 6
	}
	upper := typ == 'E' || typ == 'F' || typ == 'G'
	code := typ
	switch typ {
	case 'E', 'F', 'G':
		code = typ + 'a' - 'A'
	case '%':
		code = 'f'
	}
	neg := x.Signbit() && !x.IsNaN()
	var body string
	switch {
	case x.IsInf():
		body = "inf"
	case x.IsNaN():
		body = "nan"
	default:
		body = formatFloatShort(x, code, prec, addDot0, f.alt)
		if upper {
			body = strings.ToUpper(body)
		}
		if f.noNeg0 && neg && strings.Trim(body, "0.e+-E") == "" {
			neg = false // 'z': a result that rounds to zero loses its sign
		}
	}
	if upper && (x.IsInf() || x.IsNaN()) {
		body = strings.ToUpper(body)
	}
	if typ == '%' {
		body += "%"
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case f.sign == '+':
		sign = "+"
	case f.sign == ' ':
		sign = " "
	}
	return layoutNumber(f, sign, body, x.IsFinite()), nil
}

// layoutNumber applies a spec's grouping (when groupable), fill, width and
// alignment to a formatted number: sign, then digits and an optional
// fraction, exponent or % suffix.
func layoutNumber(f formatSpec, sign, body string, groupable bool) string {
	if f.grouping != 0 && groupable {
		intPart, rest := body, ""
		if i := strings.IndexAny(body, ".eE%"); i >= 0 {
			intPart, rest = body[:i], body[i:]
		}
		if f.fill == '0' && (f.align == '=' || (f.align == 0 && f.zero)) {
			minWidth := f.width - len(sign) - len(rest)
			for {
				g := group(intPart, f.grouping, 3)
				if len(g) >= minWidth {
					intPart = g
					break
				}
				intPart = "0" + intPart
			}
		} else {
			intPart = group(intPart, f.grouping, 3)
		}
		body = intPart + rest
	}
	return pad(f, sign+body, '>')
}
