package object

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// formatSpec is a parsed format-spec mini-language string.
type formatSpec struct {
	fill      rune
	align     byte // 0, '<', '>', '^', '='
	sign      byte // 0, '+', '-', ' '
	alt       bool
	zero      bool
	width     int
	grouping  byte // 0, ',', '_'
	noNeg0    bool // 'z' (3.11): a float that rounds to zero prints unsigned
	precision int  // -1 when absent
	typ       byte // 0 when absent
}

func parseSpec(spec string) (formatSpec, error) {
	f := formatSpec{fill: ' ', precision: -1}
	s := spec
	explicitFill := false
	if len(s) >= 2 {
		r, n := utf8.DecodeRuneInString(s)
		if n < len(s) && strings.IndexByte("<>^=", s[n]) >= 0 {
			f.fill, f.align = r, s[n]
			s = s[n+1:]
			explicitFill = true
			goto sign
		}
	}
	if len(s) >= 1 && strings.IndexByte("<>^=", s[0]) >= 0 {
		f.align = s[0]
		s = s[1:]
	}
sign:
	if len(s) > 0 && strings.IndexByte("+- ", s[0]) >= 0 {
		f.sign = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == 'z' {
		f.noNeg0 = true
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '#' {
		f.alt = true
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '0' {
		f.zero = true
		s = s[1:]
		if !explicitFill {
			f.fill = '0'
		}
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 {
		w, err := strconv.Atoi(s[:i])
		if err != nil || w > 1<<20 {
			return f, Errorf(ValueError, "Too many decimal digits in format string")
		}
		f.width = w
		s = s[i:]
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		f.grouping = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '.' {
		s = s[1:]
		i = 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return f, Errorf(ValueError, "Format specifier missing precision")
		}
		p, err := strconv.Atoi(s[:i])
		if err != nil || p > 1<<16 {
			return f, Errorf(ValueError, "Too many decimal digits in format string")
		}
		f.precision = p
		s = s[i:]
	}
	if len(s) == 1 {
		f.typ = s[0]
		s = ""
	}
	if s != "" {
		return f, Errorf(ValueError, "Invalid format specifier '%s'", spec)
	}
	return f, nil
}

// Format is format(v, spec): the __format__ protocol for builtin types and a
// user __format__ when defined.
func Format(c Ctx, v Value, spec string) (string, error) {
	switch x := v.(type) {
	case *Instance:
		if m, _ := x.Class.Lookup("__format__"); m != nil {
			r, err := c.Call(m, []Value{x, Str(spec)}, nil)
			if err != nil {
				return "", err
			}
			s, ok := r.(Str)
			if !ok {
				return "", Errorf(TypeError, "__format__ must return a str, not %s", TypeName(r))
			}
			return string(s), nil
		}
		if spec != "" {
			return "", Errorf(TypeError, "unsupported format string passed to %s.__format__", x.Class.Name)
		}
		return ToStr(c, v)
	}
	if spec == "" {
		return ToStr(c, v)
	}
	f, err := parseSpec(spec)
	if err != nil {
		return "", err
	}
	if err := Charge(c, uint64(f.width+max(f.precision, 0))*meter.CostPerChar); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case Bool:
		// A non-empty spec formats a bool as the int it is (int.__format__).
		if f.typ == 's' {
			return "", Errorf(ValueError, "Unknown format code 's' for object of type 'bool'")
		}
		n, _ := AsInt64(x)
		return formatInt(f, Int(n))
	case Int, *BigInt:
		return formatInt(f, x)
	case Float:
		return formatFloat(f, float64(x))
	case Str:
		if f.typ != 0 && f.typ != 's' {
			return "", Errorf(ValueError, "Unknown format code '%c' for object of type 'str'", f.typ)
		}
		if f.sign != 0 {
			return "", Errorf(ValueError, "Sign not allowed in string format specifier")
		}
		if f.noNeg0 {
			return "", Errorf(ValueError, "Negative zero coercion (z) not allowed in string format specifier")
		}
		if f.alt {
			return "", Errorf(ValueError, "Alternate form (#) not allowed in string format specifier")
		}
		if f.align == '=' {
			return "", Errorf(ValueError, "'=' alignment not allowed in string format specifier")
		}
		if f.grouping != 0 {
			return "", Errorf(ValueError, "Cannot specify '%c' with 's'.", f.grouping)
		}
		if f.zero && f.align == 0 {
			f.align = '<' // "05" on a str fills with zeros on the right
		}
		s := string(x)
		if f.precision >= 0 && utf8.RuneCountInString(s) > f.precision {
			s = string([]rune(s)[:f.precision])
		}
		return pad(f, s, '<'), nil
	}
	// Every other builtin type inherits object.__format__, which accepts
	// only the empty spec (handled above).
	return "", Errorf(TypeError, "unsupported format string passed to %s.__format__", TypeName(v))
}

func pad(f formatSpec, s string, defAlign byte) string {
	n := utf8.RuneCountInString(s)
	if n >= f.width {
		return s
	}
	align := f.align
	fill := f.fill
	if align == 0 {
		if f.zero {
			align, fill = '=', '0'
		} else {
			align = defAlign
		}
	}
	total := f.width - n
	fs := string(fill)
	switch align {
	case '<':
		return s + strings.Repeat(fs, total)
	case '>':
		return strings.Repeat(fs, total) + s
	case '^':
		return strings.Repeat(fs, total/2) + s + strings.Repeat(fs, total-total/2)
	}
	// '=': pad between sign/prefix and digits.
	k := 0
	if k < len(s) && (s[k] == '-' || s[k] == '+' || s[k] == ' ') {
		k++
	}
	if k+1 < len(s) && s[k] == '0' && strings.IndexByte("xXobB", s[k+1]) >= 0 {
		k += 2
	}
	return s[:k] + strings.Repeat(fs, total) + s[k:]
}

func group(digits string, sep byte, every int) string {
	if sep == 0 || len(digits) <= every {
		return digits
	}
	var b strings.Builder
	first := len(digits) % every
	if first > 0 {
		b.WriteString(digits[:first])
	}
	for i := first; i < len(digits); i += every {
		if b.Len() > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(digits[i : i+every])
	}
	return b.String()
}

func signed(f formatSpec, neg bool, body string) string {
	switch {
	case neg:
		return "-" + body
	case f.sign == '+':
		return "+" + body
	case f.sign == ' ':
		return " " + body
	}
	return body
}

func formatInt(f formatSpec, v Value) (string, error) {
	switch f.typ {
	case 'e', 'E', 'f', 'F', 'g', 'G', '%':
		fl, err := intToFloat(v)
		if err != nil {
			return "", err
		}
		return formatFloat(f, fl)
	}
	if f.grouping == ',' && f.typ != 0 && strings.IndexByte("bcoxXn", f.typ) >= 0 ||
		f.grouping == '_' && (f.typ == 'n' || f.typ == 'c') {
		return "", Errorf(ValueError, "Cannot specify '%c' with '%c'.", f.grouping, f.typ)
	}
	if f.precision >= 0 {
		return "", Errorf(ValueError, "Precision not allowed in integer format specifier")
	}
	if f.noNeg0 {
		return "", Errorf(ValueError, "Negative zero coercion (z) not allowed in integer format specifier")
	}
	b := new(big.Int).Set(toBig(v))
	neg := b.Sign() < 0
	b.Abs(b)
	var digits, prefix string
	every := 3
	switch f.typ {
	case 0, 'd', 'n':
		digits = b.String()
	case 'x':
		digits, prefix, every = b.Text(16), "0x", 4
	case 'X':
		digits, prefix, every = strings.ToUpper(b.Text(16)), "0X", 4
	case 'o':
		digits, prefix, every = b.Text(8), "0o", 4
	case 'b':
		digits, prefix, every = b.Text(2), "0b", 4
	case 'c':
		switch {
		case f.sign != 0:
			return "", Errorf(ValueError, "Sign not allowed with integer format specifier 'c'")
		case f.grouping != 0:
			return "", Errorf(ValueError, "Cannot specify '%c' with 'c'.", f.grouping)
		case f.alt:
			return "", Errorf(ValueError, "Alternate form (#) not allowed with integer format specifier 'c'")
		}
		// CPython converts to a C long first: outside it the message
		// names the conversion (b is the magnitude; -2**63 still fits).
		if !b.IsInt64() && !(neg && b.BitLen() == 64 && b.TrailingZeroBits() == 63) {
			return "", Errorf(OverflowError, "Python int too large to convert to C long")
		}
		if !b.IsInt64() || b.Int64() > 0x10ffff || neg {
			return "", Errorf(OverflowError, "%%c arg not in range(0x110000)")
		}
		return pad(f, string(rune(b.Int64())), '>'), nil
	default:
		return "", Errorf(ValueError, "Unknown format code '%c' for object of type 'int'", f.typ)
	}
	if f.grouping != 0 && f.fill == '0' && (f.align == '=' || f.align == 0 && f.zero) {
		// Zero padding with grouping ('0' filling between the sign and
		// the digits, by the 0 flag or by "0=") pads digits, then groups.
		signLen := 0
		if neg || f.sign == '+' || f.sign == ' ' {
			signLen = 1
		}
		if f.alt {
			signLen += len(prefix)
		}
		for {
			g := group(digits, f.grouping, every)
			if len(g)+signLen >= f.width {
				digits = g
				break
			}
			digits = "0" + digits
		}
	} else {
		digits = group(digits, f.grouping, every)
	}
	if !f.alt {
		prefix = ""
	}
	return pad(f, signed(f, neg, prefix+digits), '>'), nil
}

// badPercentConv is the error for an unknown %-conversion at byte i of s,
// with CPython 3.11's quirks: for str the character is shown only when it
// is printable ASCII ('?' otherwise) and the index counts characters; for
// bytes a byte of 0x80 or more read straight after '%' or '.' is a signed
// C char that makes the message itself fail with OverflowError.
func badPercentConv(s string, i int, isBytes bool) error {
	if isBytes {
		conv := s[i]
		if conv >= 0x80 && (s[i-1] < '0' || s[i-1] > '9') {
			return Errorf(OverflowError, "character argument not in range(0x110000)")
		}
		return Errorf(ValueError, "unsupported format character '%c' (%#x) at index %d", rune(conv), conv, i)
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	shown := '?'
	if r >= 31 && r <= 126 {
		shown = r
	}
	return Errorf(ValueError, "unsupported format character '%c' (%#x) at index %d", shown, r, utf8.RuneCountInString(s[:i]))
}

// StrFormat implements str.format.
func StrFormat(c Ctx, s string, args []Value, kw []Kw) (string, error) {
	return strFormat(c, s, args, kw, new(int), 0)
}

func strFormat(c Ctx, s string, args []Value, kw []Kw, auto *int, depth int) (string, error) {
	if depth > 2 {
		return "", Errorf(ValueError, "Max string recursion exceeded")
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				b.WriteByte('}')
				i++
				continue
			}
			return "", Errorf(ValueError, "Single '}' encountered in format string")
		}
		if ch != '{' {
			b.WriteByte(ch)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			b.WriteByte('{')
			i++
			continue
		}
		// Find the matching close brace, allowing nested fields in the spec.
		level, j := 1, i+1
		for ; j < len(s) && level > 0; j++ {
			switch s[j] {
			case '{':
				level++
			case '}':
				level--
			}
		}
		if level > 0 {
			return "", Errorf(ValueError, "expected '}' before end of string")
		}
		field := s[i+1 : j-1]
		i = j - 1
		name, spec, conv := field, "", byte(0)
		if k := strings.IndexByte(name, ':'); k >= 0 {
			name, spec = name[:k], name[k+1:]
		}
		if k := strings.IndexByte(name, '!'); k >= 0 {
			if k+2 != len(name) {
				return "", Errorf(ValueError, "expected ':' after conversion specifier")
			}
			conv = name[k+1]
			name = name[:k]
		}
		v, err := formatField(c, name, args, kw, auto)
		if err != nil {
			return "", err
		}
		if strings.IndexByte(spec, '{') >= 0 {
			spec, err = strFormat(c, spec, args, kw, auto, depth+1)
			if err != nil {
				return "", err
			}
		}
		out, err := FormatConv(c, v, conv, spec)
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	return b.String(), nil
}

// FormatConv applies a !r/!s/!a conversion and then the format spec (the
// f-string and str.format replacement field).
func FormatConv(c Ctx, v Value, conv byte, spec string) (string, error) {
	switch conv {
	case 0:
	case 'r', 'a':
		r, err := Repr(c, v)
		if err != nil {
			return "", err
		}
		if conv == 'a' {
			r = ASCII(r)
		}
		v = Str(r)
	case 's':
		r, err := ToStr(c, v)
		if err != nil {
			return "", err
		}
		v = Str(r)
	default:
		return "", Errorf(ValueError, "Unknown conversion specifier %c", conv)
	}
	return Format(c, v, spec)
}

func formatField(c Ctx, name string, args []Value, kw []Kw, auto *int) (Value, error) {
	head := name
	k := strings.IndexAny(head, ".[")
	rest := ""
	if k >= 0 {
		head, rest = head[:k], head[k:]
	}
	var v Value
	if head == "" {
		if *auto < 0 {
			return nil, Errorf(ValueError, "cannot switch from manual field specification to automatic field numbering")
		}
		if *auto >= len(args) {
			return nil, Errorf(IndexError, "Replacement index %d out of range for positional args tuple", *auto)
		}
		v = args[*auto]
		*auto++
	} else if n, err := strconv.Atoi(head); err == nil {
		if *auto > 0 {
			return nil, Errorf(ValueError, "cannot switch from automatic field numbering to manual field specification")
		}
		*auto = -1
		if n >= len(args) {
			return nil, Errorf(IndexError, "Replacement index %d out of range for positional args tuple", n)
		}
		v = args[n]
	} else {
		found := false
		for _, a := range kw {
			if a.Name == head {
				v, found = a.Value, true
			}
		}
		if !found {
			return nil, Raise(NewException(KeyError, Str(head)))
		}
	}
	for rest != "" {
		if rest[0] == '.' {
			e := strings.IndexAny(rest[1:], ".[")
			attr := rest[1:]
			if e >= 0 {
				attr, rest = rest[1:e+1], rest[e+1:]
			} else {
				rest = ""
			}
			var err error
			if v, err = GetAttr(c, v, attr); err != nil {
				return nil, err
			}
			continue
		}
		e := strings.IndexByte(rest, ']')
		if e < 0 {
			return nil, Errorf(ValueError, "Missing ']' in format string")
		}
		key := rest[1:e]
		rest = rest[e+1:]
		var kv Value = Str(key)
		if n, err := strconv.Atoi(key); err == nil {
			kv = Int(n)
		}
		var err error
		if v, err = GetItem(c, v, kv); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// PercentFormat implements str % args (printf-style formatting).
func PercentFormat(c Ctx, s string, arg Value) (Value, error) {
	r, err := percentFormat(c, s, arg, false)
	if err != nil {
		return nil, err
	}
	return NewStr(c, r)
}

// BytesPercentFormat implements bytes % args: as str % args, but %s and %b
// take bytes-like values and %c an int or a single byte.
func BytesPercentFormat(c Ctx, s string, arg Value) (Value, error) {
	r, err := percentFormat(c, s, arg, true)
	if err != nil {
		return nil, err
	}
	if err := AllocSlots(c, meter.SizeBytesHeader, uint64(len(r)), 1); err != nil {
		return nil, err
	}
	return Bytes(r), nil
}

func percentFormat(c Ctx, s string, arg Value, isBytes bool) (string, error) {
	var args []Value
	var mapping Value
	switch a := arg.(type) {
	case Tuple:
		args = a
	case *Dict:
		mapping = a
		args = []Value{a}
	default:
		args = []Value{a}
	}
	ai := 0
	next := func() (Value, error) {
		if ai >= len(args) {
			return nil, Errorf(TypeError, "not enough arguments for format string")
		}
		ai++
		return args[ai-1], nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		i++
		if i >= len(s) {
			return "", Errorf(ValueError, "incomplete format")
		}
		var v Value
		if s[i] == '(' {
			e := strings.IndexByte(s[i:], ')')
			if e < 0 || mapping == nil {
				return "", Errorf(TypeError, "format requires a mapping")
			}
			var err error
			var key Value = Str(s[i+1 : i+e])
			if isBytes {
				key = Bytes(s[i+1 : i+e])
			}
			v, err = GetItem(c, mapping, key)
			if err != nil {
				return "", err
			}
			i += e + 1
		}
		f := formatSpec{fill: ' ', precision: -1, align: '>'}
		for ; i < len(s) && strings.IndexByte("-+ #0", s[i]) >= 0; i++ {
			switch s[i] {
			case '-':
				f.align = '<'
			case '+', ' ':
				if f.sign != '+' {
					f.sign = s[i]
				}
			case '#':
				f.alt = true
			case '0':
				f.zero = true
			}
		}
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			f.width = f.width*10 + int(s[i]-'0')
		}
		if i < len(s) && s[i] == '*' {
			w, err := next()
			if err != nil {
				return "", err
			}
			n, _ := AsInt64(w)
			f.width = int(n)
			i++
		}
		if i < len(s) && s[i] == '.' {
			i++
			f.precision = 0
			if i < len(s) && s[i] == '*' {
				p, err := next()
				if err != nil {
					return "", err
				}
				n, ok := AsInt64(p)
				if !ok {
					return "", Errorf(TypeError, "* wants int")
				}
				f.precision = int(max(n, 0))
				i++
			}
			for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
				f.precision = f.precision*10 + int(s[i]-'0')
			}
		}
		if f.width > 1<<20 || f.precision > 1<<16 {
			return "", Errorf(ValueError, "width too big")
		}
		if i >= len(s) {
			return "", Errorf(ValueError, "incomplete format")
		}
		conv := s[i]
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if v == nil {
			var err error
			if v, err = next(); err != nil {
				return "", err
			}
		}
		if f.zero && f.align == '>' && conv != 's' && conv != 'r' && conv != 'a' {
			f.align = '='
			f.fill = '0'
		}
		var out string
		var err error
		switch {
		case isBytes && (conv == 's' || conv == 'b'):
			bv, ok := bytesLike(BaseOf(v))
			if !ok {
				return "", Errorf(TypeError, "%%b requires a bytes-like object, or an object that implements __bytes__, not '%s'", TypeName(v))
			}
			out = string(bv)
			if f.precision >= 0 && len(out) > f.precision {
				out = out[:f.precision]
			}
			out = pad(f, out, '>')
		case isBytes && conv == 'c':
			if bv, ok := bytesLike(BaseOf(v)); ok && len(bv) == 1 {
				out = pad(f, string(bv), '>')
			} else if n, ok := AsInt64(v); ok && isIntLike(BaseOf(v)) && n >= 0 && n < 256 {
				out = pad(f, string([]byte{byte(n)}), '>')
			} else {
				return "", Errorf(TypeError, "%%c requires an integer in range(256) or a single byte")
			}
		}
		if isBytes && (conv == 's' || conv == 'b' || conv == 'c') {
			b.WriteString(out)
			continue
		}
		switch conv {
		case 's', 'r', 'a':
			if conv == 's' {
				out, err = ToStr(c, v)
			} else {
				out, err = Repr(c, v)
				if conv == 'a' {
					out = ASCII(out)
				}
			}
			if err == nil && f.precision >= 0 && utf8.RuneCountInString(out) > f.precision {
				out = string([]rune(out)[:f.precision])
			}
			if err == nil {
				out = pad(f, out, '>')
			}
		case 'd', 'i', 'u', 'x', 'X', 'o', 'c':
			v = BaseOf(v) // an int or float subclass formats as its value
			if conv == 'c' {
				// %c ignores sign, '#', '0' and precision: a character,
				// padded with spaces to the width.
				g := formatSpec{fill: ' ', align: '>', width: f.width, precision: -1}
				if f.align == '<' {
					g.align = '<'
				}
				if sv, ok := v.(Str); ok {
					if sv.Len() != 1 {
						return "", Errorf(TypeError, "%%c requires int or char")
					}
					b.WriteString(pad(g, string(sv), '>'))
					continue
				}
				if isIntLike(v) {
					n, ok := AsInt64(v)
					if !ok || n < 0 || n > 0x10ffff {
						return "", Errorf(OverflowError, "%%c arg not in range(0x110000)")
					}
					b.WriteString(pad(g, string(rune(n)), '>'))
					continue
				}
			}
			if fl, ok := v.(Float); ok {
				switch conv {
				case 'x', 'X', 'o':
					return "", Errorf(TypeError, "%%%c format: an integer is required, not float", conv)
				case 'c':
					return "", Errorf(TypeError, "%%c requires int or char")
				}
				iv, e := newInt(c, IntClass, []Value{fl}, nil)
				if e != nil {
					return "", e
				}
				v = iv
			}
			if !isIntLike(v) {
				return "", Errorf(TypeError, "%%%c format: a real number is required, not %s", conv, TypeName(v))
			}
			f.typ = conv
			if conv == 'i' || conv == 'u' {
				f.typ = 'd'
			}
			prec := f.precision
			if prec <= 0 {
				f.precision = -1
				out, err = formatInt(f, v)
				break
			}
			// With a precision the digits are zero-padded to it first;
			// sign and 0x/0o prefix go before them, then the width pads.
			g := f
			g.precision, g.width, g.align, g.fill = -1, 0, '>', ' '
			out, err = formatInt(g, v)
			if err != nil {
				break
			}
			head := ""
			if out != "" && strings.IndexByte("+- ", out[0]) >= 0 {
				head, out = out[:1], out[1:]
			}
			if f.alt && len(out) > 1 && out[0] == '0' && strings.IndexByte("xXo", out[1]) >= 0 {
				head, out = head+out[:2], out[2:]
			}
			for len(out) < prec {
				out = "0" + out
			}
			out = head + out
			if len(out) < f.width {
				switch {
				case f.align == '<':
					out += strings.Repeat(" ", f.width-len(out))
				case f.fill == '0':
					out = head + strings.Repeat("0", f.width-len(out)) + out[len(head):]
				default:
					out = strings.Repeat(" ", f.width-len(out)) + out
				}
			}
		case 'f', 'F', 'e', 'E', 'g', 'G':
			fl, ok, e := ToFloat(v)
			if e != nil {
				return "", e
			}
			if !ok {
				return "", Errorf(TypeError, "must be real number, not %s", TypeName(v))
			}
			f.typ = conv
			out, err = formatFloat(f, fl)
		default:
			return "", badPercentConv(s, i, isBytes)
		}
		if err != nil {
			return "", err
		}
		b.WriteString(out)
	}
	if ai < len(args) && mapping == nil {
		if isBytes {
			return "", Errorf(TypeError, "not all arguments converted during bytes formatting")
		}
		return "", Errorf(TypeError, "not all arguments converted during string formatting")
	}
	return b.String(), nil
}

// NumberSpec is what a numeric type outside this package (decimal.Decimal)
// needs from a format spec to lay out its digits.
type NumberSpec struct {
	Type      byte // 0 when absent
	Precision int  // -1 when absent
	Alt       bool
	NoNeg0    bool
	Grouping  byte // 0, ',' or '_'
}

// FormatNumber is format(v, spec) for such a type: digits gets the type and
// precision and returns the sign and the unsigned body (digits, then any
// fraction, exponent or % suffix; special marks a value such as Infinity
// that is never grouped); FormatNumber adds the sign, grouping and padding.
func FormatNumber(c Ctx, spec string, digits func(NumberSpec) (neg bool, body string, special bool, err error)) (string, error) {
	f, err := parseSpec(spec)
	if err != nil {
		return "", err
	}
	if err := Charge(c, uint64(f.width+max(f.precision, 0))*meter.CostPerChar); err != nil {
		return "", err
	}
	neg, body, special, err := digits(NumberSpec{Type: f.typ, Precision: f.precision, Alt: f.alt, NoNeg0: f.noNeg0, Grouping: f.grouping})
	if err != nil {
		return "", err
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
	if special && f.zero && f.align == 0 {
		f.zero, f.fill = false, ' ' // Infinity and NaN are padded with spaces
	}
	return layoutNumber(f, sign, body, !special), nil
}

// ASCII escapes the non-ASCII code points of a repr as ascii() does: \xhh,
// \uhhhh or \Uhhhhhhhh.
func ASCII(s string) string {
	if isASCII(s) {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 0x80:
			b.WriteRune(r)
			continue
		case r <= 0xff:
			b.WriteString("\\x")
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&15])
			continue
		case r <= 0xffff:
			b.WriteString("\\u")
		default:
			b.WriteString("\\U00")
			b.WriteByte(hex[r>>20&15])
			b.WriteByte(hex[r>>16&15])
		}
		for sh := 12; sh >= 0; sh -= 4 {
			b.WriteByte(hex[r>>uint(sh)&15])
		}
	}
	return b.String()
}
