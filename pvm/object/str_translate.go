package object

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// str.expandtabs, str.translate, str.maketrans, str.format_map and the
// bytes counterparts (bytes.translate, bytes.maketrans, bytes.expandtabs),
// as CPython 3.11 defines them. Found missing by the differential fuzzer
// (pvm/difftest). Costs: the receiver is charged per byte by strMethod /
// bytesMethod; each mapping lookup of translate is charged as a call.

func initStrTranslate() {
	strMethod("expandtabs", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("expandtabs", args, kw, "tabsize?")
		if err != nil {
			return nil, err
		}
		size, err := tabSize(c, a[0])
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		col := 0
		for _, r := range s {
			switch r {
			case '\t':
				if size > 0 {
					n := size - col%size
					if err := Charge(c, uint64(n)*meter.CostPerChar); err != nil {
						return nil, err
					}
					b.WriteString(strings.Repeat(" ", n))
					col += n
				}
			case '\n', '\r':
				b.WriteRune(r)
				col = 0
			default:
				b.WriteRune(r)
				col++
			}
		}
		return strResult(c, b.String())
	})
	strMethod("translate", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("translate", args, 1, 1); err != nil {
			return nil, err
		}
		table := args[0]
		var b strings.Builder
		for _, r := range s {
			if err := Charge(c, meter.CostPerElem); err != nil {
				return nil, err
			}
			v, err := GetItem(c, table, Int(r))
			if err != nil {
				var e *Exception
				if errors.As(err, &e) && e.Value.Class.IsSubclass(LookupError) {
					b.WriteRune(r) // characters the table does not map stay
					continue
				}
				return nil, err
			}
			switch m := v.(type) {
			case NoneType:
			case Str:
				b.WriteString(string(m))
			default:
				i, ok := AsInt64(m)
				if !ok {
					return nil, Errorf(TypeError, "character mapping must return integer, None or str")
				}
				if i < 0 || i > 0x10ffff {
					return nil, Errorf(ValueError, "character mapping must be in range(0x110000)")
				}
				b.WriteRune(rune(i))
			}
		}
		return strResult(c, b.String())
	})
	StrClass.Dict.Set("maketrans", &StaticMethod{Fn: NewBuiltin("maketrans", strMaketrans)})
	strMethod("format_map", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("format_map", args, 1, 1); err != nil {
			return nil, err
		}
		d, ok := BaseOf(args[0]).(*Dict)
		if !ok {
			return nil, Errorf(TypeError, "format_map() argument must be a mapping, not %s", TypeName(args[0]))
		}
		var kws []Kw
		for _, kv := range d.Items() {
			if k, ok := kv[0].(Str); ok {
				kws = append(kws, Kw{Name: string(k), Value: kv[1]})
			}
		}
		r, err := StrFormat(c, s, nil, kws)
		var e *Exception
		if errors.As(err, &e) && e.Value.Class == IndexError && strings.HasPrefix(e.Error(), "IndexError: Replacement index") {
			// No positional arguments exist, so the index came from the format string.
			return nil, Errorf(ValueError, "Format string contains positional fields")
		}
		if err != nil {
			return nil, err
		}
		return strResult(c, r)
	})
	bytesMethod("translate", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("translate", args, kw, "table", "delete?")
		if err != nil {
			return nil, err
		}
		var table []byte
		if a[0] != None {
			t, ok := bytesLike(a[0])
			if !ok {
				return nil, Errorf(TypeError, "a bytes-like object is required, not '%s'", TypeName(a[0]))
			}
			if len(t) != 256 {
				return nil, Errorf(ValueError, "translation table must be 256 characters long")
			}
			table = t
		}
		var del []byte
		if a[1] != nil {
			d, ok := bytesLike(a[1])
			if !ok {
				return nil, Errorf(TypeError, "a bytes-like object is required, not '%s'", TypeName(a[1]))
			}
			del = d
		}
		out := make([]byte, 0, len(s))
		for i := 0; i < len(s); i++ {
			ch := s[i]
			if strings.IndexByte(string(del), ch) >= 0 {
				continue
			}
			if table != nil {
				ch = table[ch]
			}
			out = append(out, ch)
		}
		return mk(string(out))
	})
	bytesMethod("expandtabs", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("expandtabs", args, kw, "tabsize?")
		if err != nil {
			return nil, err
		}
		size, err := tabSize(c, a[0])
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		col := 0
		for i := 0; i < len(s); i++ {
			switch ch := s[i]; ch {
			case '\t':
				if size > 0 {
					n := size - col%size
					if err := Charge(c, uint64(n)*meter.CostPerChar); err != nil {
						return nil, err
					}
					b.WriteString(strings.Repeat(" ", n))
					col += n
				}
			case '\n', '\r':
				b.WriteByte(ch)
				col = 0
			default:
				b.WriteByte(ch)
				col++
			}
		}
		return mk(b.String())
	})
	bytesMethod("splitlines", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("splitlines", args, kw, "keepends?")
		if err != nil {
			return nil, err
		}
		keep := false
		if a[0] != nil {
			if keep, err = Truth(c, a[0]); err != nil {
				return nil, err
			}
		}
		var out []Value
		for len(s) > 0 { // bytes line boundaries: \n, \r, \r\n only
			i := strings.IndexAny(s, "\n\r")
			line, end := s, len(s)
			if i >= 0 {
				end = i + 1
				if s[i] == '\r' && end < len(s) && s[end] == '\n' {
					end++
				}
				line = s[:i]
				if keep {
					line = s[:end]
				}
			}
			v, err := mk(line)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			s = s[end:]
		}
		return NewList(c, out)
	})
	for _, k := range []*Class{BytesClass, ByteArrayClass} {
		k := k
		k.Dict.Set("maketrans", &StaticMethod{Fn: NewBuiltin("maketrans", func(c Ctx, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount("maketrans", args, 2, 2); err != nil {
				return nil, err
			}
			from, ok1 := bytesLike(args[0])
			to, ok2 := bytesLike(args[1])
			if !ok1 || !ok2 {
				return nil, Errorf(TypeError, "a bytes-like object is required")
			}
			if len(from) != len(to) {
				return nil, Errorf(ValueError, "maketrans arguments must have same length")
			}
			t := make([]byte, 256)
			for i := range t {
				t[i] = byte(i)
			}
			for i := range from {
				t[from[i]] = to[i]
			}
			return Bytes(t), nil
		})})
	}
}

// tabSize reads expandtabs' tabsize argument (default 8).
func tabSize(c Ctx, v Value) (int, error) {
	if v == nil {
		return 8, nil
	}
	v, err := IndexArg(c, v)
	if err != nil {
		return 0, err
	}
	n, ok := AsInt64(v)
	if !ok {
		return 0, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
	}
	if n > 1<<16 {
		return 0, Errorf(OverflowError, "tabsize too large")
	}
	return int(n), nil
}

// strMaketrans is str.maketrans(x[, y[, z]]).
func strMaketrans(c Ctx, args []Value, kw []Kw) (Value, error) {
	if err := ArgCount("maketrans", args, 1, 3); err != nil {
		return nil, err
	}
	out := NewDict()
	if len(args) == 1 {
		d, ok := args[0].(*Dict)
		if !ok {
			return nil, Errorf(TypeError, "if you give only one argument to maketrans it must be a dict")
		}
		for _, kv := range d.Items() {
			k := kv[0]
			if s, ok := k.(Str); ok {
				if utf8.RuneCountInString(string(s)) != 1 {
					return nil, Errorf(ValueError, "string keys in translate table must be of length 1")
				}
				r, _ := utf8.DecodeRuneInString(string(s))
				k = Int(r)
			} else if !isIntLike(k) {
				return nil, Errorf(TypeError, "keys in translate table must be strings or integers")
			}
			if err := out.Set(c, k, kv[1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	x, ok1 := args[0].(Str)
	y, ok2 := args[1].(Str)
	if !ok1 || !ok2 {
		return nil, Errorf(TypeError, "maketrans() argument must be str")
	}
	xs, ys := []rune(string(x)), []rune(string(y))
	if len(xs) != len(ys) {
		return nil, Errorf(ValueError, "the first two maketrans arguments must have equal length")
	}
	for i := range xs {
		if err := out.Set(c, Int(xs[i]), Int(ys[i])); err != nil {
			return nil, err
		}
	}
	if len(args) == 3 {
		z, ok := args[2].(Str)
		if !ok {
			return nil, Errorf(TypeError, "maketrans() argument 3 must be str")
		}
		for _, r := range string(z) {
			if err := out.Set(c, Int(r), None); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
