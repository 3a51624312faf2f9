package object

import (
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// The methods bytes and bytearray share with str, on bytes: ASCII-only case
// and class tests, whitespace b" \t\n\r\x0b\x0c", arguments that must be
// bytes-like (or an int for the searches), results of the receiver's type.
// Each call is charged per byte of the receiver, as str methods are per
// character.

// bytesMethod registers fn on bytes and bytearray; s is the receiver's
// content and mk builds a result of the receiver's type.
func bytesMethod(name string, fn func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error)) {
	for _, k := range []*Class{BytesClass, ByteArrayClass} {
		k := k
		k.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
			if len(args) == 0 {
				return nil, Errorf(TypeError, "descriptor '%s' of '%s' object needs an argument", name, k.Name)
			}
			b, ok := bytesLike(BaseOf(args[0]))
			if !ok {
				return nil, Errorf(TypeError, "descriptor '%s' requires a '%s' object but received a '%s'", name, k.Name, TypeName(args[0]))
			}
			if err := Charge(c, uint64(len(b))*meter.CostPerChar); err != nil {
				return nil, err
			}
			_, isArray := BaseOf(args[0]).(*ByteArray)
			mk := func(s string) (Value, error) {
				if err := AllocSlots(c, meter.SizeBytesHeader, uint64(len(s)), 1); err != nil {
					return nil, err
				}
				if isArray {
					return &ByteArray{B: []byte(s)}, nil
				}
				return Bytes(s), nil
			}
			return fn(c, string(b), mk, args[1:], kw)
		}))
	}
}

// bytesArg is a bytes-like argument.
func bytesArg(v Value) (string, error) {
	b, ok := bytesLike(BaseOf(v))
	if !ok {
		return "", Errorf(TypeError, "a bytes-like object is required, not '%s'", TypeName(v))
	}
	return string(b), nil
}

// bytesSubArg is the needle of find/index/count: bytes-like or a byte value.
func bytesSubArg(v Value) (string, error) {
	if n, ok := AsInt64(v); ok && isIntLike(v) {
		if n < 0 || n > 255 {
			return "", Errorf(ValueError, "byte must be in range(0, 256)")
		}
		return string([]byte{byte(n)}), nil
	}
	b, ok := bytesLike(BaseOf(v))
	if !ok {
		return "", Errorf(TypeError, "argument should be integer or bytes-like object, not '%s'", TypeName(v))
	}
	return string(b), nil
}

// bytesRange applies optional start and end arguments as a slice.
func bytesRange(c Ctx, s string, args []Value) (string, int, error) {
	n := len(s)
	start, end := 0, n
	for i, p := range []*int{&start, &end} {
		if len(args) > i && args[i] != None {
			v, err := sliceIndexArg(c, args[i], sliceIndexOrNoneMsg)
			if err != nil {
				return "", 0, err
			}
			*p = clampIdx(v, n)
		}
	}
	if start > end {
		return "", -1, nil
	}
	return s[start:end], start, nil
}

func isBytesSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\x0b' || b == '\x0c'
}
func isBytesDigit(b byte) bool { return b >= '0' && b <= '9' }
func isBytesLower(b byte) bool { return b >= 'a' && b <= 'z' }
func isBytesUpper(b byte) bool { return b >= 'A' && b <= 'Z' }
func isBytesAlpha(b byte) bool { return isBytesLower(b) || isBytesUpper(b) }

func bytesMap(s string, f func(i int, b byte) byte) string {
	out := []byte(s)
	for i, b := range out {
		out[i] = f(i, b)
	}
	return string(out)
}

func toUpperByte(b byte) byte {
	if isBytesLower(b) {
		return b - 32
	}
	return b
}

func toLowerByte(b byte) byte {
	if isBytesUpper(b) {
		return b + 32
	}
	return b
}

func bytesSplitWhitespace(s string, max int, right bool) []string {
	var out []string
	if !right {
		for {
			s = strings.TrimLeftFunc(s, func(r rune) bool { return r < 0x80 && isBytesSpace(byte(r)) })
			if s == "" {
				return out
			}
			if max >= 0 && len(out) == max {
				return append(out, s)
			}
			j := 0
			for j < len(s) && !isBytesSpace(s[j]) {
				j++
			}
			out = append(out, s[:j])
			s = s[j:]
		}
	}
	for {
		j := len(s)
		for j > 0 && isBytesSpace(s[j-1]) {
			j--
		}
		s = s[:j]
		if s == "" {
			break
		}
		if max >= 0 && len(out) == max {
			out = append(out, s)
			break
		}
		i := j
		for i > 0 && !isBytesSpace(s[i-1]) {
			i--
		}
		out = append(out, s[i:])
		s = s[:i]
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func initBytesStrMethods() {
	bytesList := func(c Ctx, mk func(string) (Value, error), parts []string) (Value, error) {
		out := make([]Value, len(parts))
		for i, p := range parts {
			v, err := mk(p)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return NewList(c, out)
	}
	for _, name := range []string{"split", "rsplit"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			a, err := UnpackArgs(name, args, kw, "sep?", "maxsplit?")
			if err != nil {
				return nil, err
			}
			max := -1
			if a[1] != nil {
				if a[1], err = IndexArg(c, a[1]); err != nil {
					return nil, err
				}
				m, ok := AsInt64(a[1])
				if !ok {
					return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(a[1]))
				}
				max = int(m)
			}
			if a[0] == nil || a[0] == None {
				return bytesList(c, mk, bytesSplitWhitespace(s, max, name == "rsplit"))
			}
			sep, err := bytesArg(a[0])
			if err != nil {
				return nil, err
			}
			if sep == "" {
				return nil, Errorf(ValueError, "empty separator")
			}
			if name == "split" || max < 0 {
				n := -1
				if max >= 0 {
					n = max + 1
				}
				return bytesList(c, mk, strings.SplitN(s, sep, n))
			}
			var parts []string
			for len(parts) < max {
				i := strings.LastIndex(s, sep)
				if i < 0 {
					break
				}
				parts = append(parts, s[i+len(sep):])
				s = s[:i]
			}
			parts = append(parts, s)
			for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
				parts[i], parts[j] = parts[j], parts[i]
			}
			return bytesList(c, mk, parts)
		})
	}
	bytesMethod("join", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("join", args, 1, 1); err != nil {
			return nil, err
		}
		items, err := joinItems(c, args[0])
		if err != nil {
			return nil, err
		}
		var parts []string
		i := 0
		err = Iterate(c, items, func(v Value) error {
			p, ok := bytesLike(BaseOf(v))
			if !ok {
				return Errorf(TypeError, "sequence item %d: expected a bytes-like object, %s found", i, TypeName(v))
			}
			i++
			if err := Charge(c, uint64(len(p)+len(s))*meter.CostPerChar); err != nil {
				return err
			}
			parts = append(parts, string(p))
			return nil
		})
		if err != nil {
			return nil, err
		}
		return mk(strings.Join(parts, s))
	})
	for _, name := range []string{"strip", "lstrip", "rstrip"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 0, 1); err != nil {
				return nil, err
			}
			in := func(b byte) bool { return isBytesSpace(b) }
			if len(args) == 1 && args[0] != None {
				chars, err := bytesArg(args[0])
				if err != nil {
					return nil, err
				}
				in = func(b byte) bool { return strings.IndexByte(chars, b) >= 0 }
			}
			i, j := 0, len(s)
			if name != "rstrip" {
				for i < j && in(s[i]) {
					i++
				}
			}
			if name != "lstrip" {
				for j > i && in(s[j-1]) {
					j--
				}
			}
			return mk(s[i:j])
		})
	}
	for _, name := range []string{"startswith", "endswith"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 3); err != nil {
				return nil, err
			}
			sub, off, err := bytesRange(c, s, args[1:])
			if err != nil {
				return nil, err
			}
			cands := []Value{args[0]}
			if t, ok := args[0].(Tuple); ok {
				cands = t
			} else if _, ok := bytesLike(BaseOf(args[0])); !ok {
				return nil, Errorf(TypeError, "%s first arg must be bytes or a tuple of bytes, not %s", name, TypeName(args[0]))
			}
			for _, cand := range cands {
				p, ok := bytesLike(BaseOf(cand))
				if !ok {
					return nil, Errorf(TypeError, "a bytes-like object is required, not '%s'", TypeName(cand))
				}
				if off >= 0 && ((name == "startswith" && strings.HasPrefix(sub, string(p))) || (name == "endswith" && strings.HasSuffix(sub, string(p)))) {
					return True, nil
				}
			}
			return False, nil
		})
	}
	for _, name := range []string{"find", "rfind", "index", "rindex", "count"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 3); err != nil {
				return nil, err
			}
			sub, err := bytesSubArg(args[0])
			if err != nil {
				return nil, err
			}
			hay, off, err := bytesRange(c, s, args[1:])
			if err != nil {
				return nil, err
			}
			i := -1
			if off >= 0 {
				switch name {
				case "count":
					if sub == "" {
						return Int(len(hay) + 1), nil
					}
					return Int(strings.Count(hay, sub)), nil
				case "find", "index":
					i = strings.Index(hay, sub)
				default:
					i = strings.LastIndex(hay, sub)
				}
			} else if name == "count" {
				return Int(0), nil
			}
			if i < 0 {
				if name == "index" || name == "rindex" {
					return nil, Errorf(ValueError, "subsection not found")
				}
				return Int(-1), nil
			}
			return Int(i + off), nil
		})
	}
	bytesMethod("replace", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("replace", args, 2, 3); err != nil {
			return nil, err
		}
		old, err := bytesArg(args[0])
		if err != nil {
			return nil, err
		}
		nw, err := bytesArg(args[1])
		if err != nil {
			return nil, err
		}
		n := int64(-1)
		if len(args) == 3 {
			var err error
			if n, err = countArg(c, args[2]); err != nil {
				return nil, err
			}
		}
		cnt := strings.Count(s, old)
		if old == "" {
			cnt = len(s) + 1 // between bytes, not between UTF-8 sequences as strings.Count
		}
		if n >= 0 && int64(cnt) > n {
			cnt = int(n)
		}
		if grow := int64(cnt) * int64(len(nw)-len(old)); grow > 0 {
			if err := Charge(c, uint64(grow)*meter.CostPerChar); err != nil {
				return nil, err
			}
		}
		if old == "" {
			var b strings.Builder
			for i := 0; i <= len(s); i++ {
				if i < cnt {
					b.WriteString(nw)
				}
				if i < len(s) {
					b.WriteByte(s[i])
				}
			}
			return mk(b.String())
		}
		return mk(strings.Replace(s, old, nw, int(n)))
	})
	bytesMethod("upper", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return mk(bytesMap(s, func(_ int, b byte) byte { return toUpperByte(b) }))
	})
	bytesMethod("lower", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return mk(bytesMap(s, func(_ int, b byte) byte { return toLowerByte(b) }))
	})
	bytesMethod("swapcase", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return mk(bytesMap(s, func(_ int, b byte) byte {
			if isBytesLower(b) {
				return b - 32
			}
			return toLowerByte(b)
		}))
	})
	bytesMethod("capitalize", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return mk(bytesMap(s, func(i int, b byte) byte {
			if i == 0 {
				return toUpperByte(b)
			}
			return toLowerByte(b)
		}))
	})
	bytesMethod("title", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		prev := false
		return mk(bytesMap(s, func(_ int, b byte) byte {
			was := prev
			prev = isBytesAlpha(b)
			if was {
				return toLowerByte(b)
			}
			return toUpperByte(b)
		}))
	})
	preds := []struct {
		name string
		p    func(byte) bool
	}{
		{"isdigit", isBytesDigit},
		{"isalpha", isBytesAlpha},
		{"isalnum", func(b byte) bool { return isBytesAlpha(b) || isBytesDigit(b) }},
		{"isspace", isBytesSpace},
	}
	for _, pr := range preds {
		p := pr.p
		bytesMethod(pr.name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if s == "" {
				return False, nil
			}
			for i := 0; i < len(s); i++ {
				if !p(s[i]) {
					return False, nil
				}
			}
			return True, nil
		})
	}
	bytesMethod("isascii", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return MakeBool(isASCII(s)), nil
	})
	for _, name := range []string{"isupper", "islower"} {
		want, other := isBytesUpper, isBytesLower
		if name == "islower" {
			want, other = isBytesLower, isBytesUpper
		}
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			cased := false
			for i := 0; i < len(s); i++ {
				if other(s[i]) {
					return False, nil
				}
				cased = cased || want(s[i])
			}
			return MakeBool(cased), nil
		})
	}
	for _, name := range []string{"ljust", "rjust", "center"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 2); err != nil {
				return nil, err
			}
			w, err := countArg(c, args[0])
			if err != nil {
				return nil, err
			}
			fill := " "
			if len(args) == 2 {
				f, ok := bytesLike(BaseOf(args[1]))
				if !ok || len(f) != 1 {
					return nil, Errorf(TypeError, "%s() argument 2 must be a byte string of length 1, not %s", name, TypeName(args[1]))
				}
				fill = string(f)
			}
			n := len(s)
			if int64(n) >= w {
				return mk(s)
			}
			if err := Charge(c, uint64(w)); err != nil {
				return nil, err
			}
			total := int(w) - n
			switch name {
			case "ljust":
				return mk(s + strings.Repeat(fill, total))
			case "rjust":
				return mk(strings.Repeat(fill, total) + s)
			}
			left := total / 2
			if total%2 == 1 && w%2 == 1 { // CPython: marg/2 + (marg & width & 1)
				left++
			}
			return mk(strings.Repeat(fill, left) + s + strings.Repeat(fill, total-left))
		})
	}
	bytesMethod("zfill", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("zfill", args, 1, 1); err != nil {
			return nil, err
		}
		w, err := countArg(c, args[0])
		if err != nil {
			return nil, err
		}
		if int64(len(s)) >= w {
			return mk(s)
		}
		if err := Charge(c, uint64(w)); err != nil {
			return nil, err
		}
		sign, rest := "", s
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			sign, rest = s[:1], s[1:]
		}
		return mk(sign + strings.Repeat("0", int(w)-len(s)) + rest)
	})
	for _, name := range []string{"partition", "rpartition"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 1); err != nil {
				return nil, err
			}
			sep, err := bytesArg(args[0])
			if err != nil {
				return nil, err
			}
			if sep == "" {
				return nil, Errorf(ValueError, "empty separator")
			}
			var parts [3]string
			if name == "partition" {
				if i := strings.Index(s, sep); i < 0 {
					parts = [3]string{s, "", ""}
				} else {
					parts = [3]string{s[:i], sep, s[i+len(sep):]}
				}
			} else {
				if i := strings.LastIndex(s, sep); i < 0 {
					parts = [3]string{"", "", s}
				} else {
					parts = [3]string{s[:i], sep, s[i+len(sep):]}
				}
			}
			out := make(Tuple, 3)
			for i, p := range parts {
				v, err := mk(p)
				if err != nil {
					return nil, err
				}
				out[i] = v
			}
			return out, nil
		})
	}
	for _, name := range []string{"removeprefix", "removesuffix"} {
		name := name
		bytesMethod(name, func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 1); err != nil {
				return nil, err
			}
			p, err := bytesArg(args[0])
			if err != nil {
				return nil, err
			}
			if name == "removeprefix" {
				return mk(strings.TrimPrefix(s, p))
			}
			return mk(strings.TrimSuffix(s, p))
		})
	}
	initByteArrayMutators()
}

// initByteArrayMutators adds the list-like bytearray methods.
func initByteArrayMutators() {
	byteVal := func(c Ctx, v Value) (byte, error) {
		v, err := IndexArg(c, v)
		if err != nil {
			return 0, err
		}
		n, ok := AsInt64(v)
		if !ok || !isIntLike(v) {
			return 0, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
		}
		if n < 0 || n > 255 {
			return 0, Errorf(ValueError, "byte must be in range(0, 256)")
		}
		return byte(n), nil
	}
	set := func(name string, fn func(c Ctx, ba *ByteArray, args []Value) (Value, error)) {
		ByteArrayClass.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
			ba, ok := BaseOf(args[0]).(*ByteArray)
			if !ok {
				return nil, Errorf(TypeError, "descriptor '%s' requires a 'bytearray' object but received a '%s'", name, TypeName(args[0]))
			}
			if len(kw) > 0 {
				return nil, Errorf(TypeError, "bytearray.%s() takes no keyword arguments", name)
			}
			return fn(c, ba, args[1:])
		}))
	}
	set("pop", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("pop", args, 0, 1); err != nil {
			return nil, err
		}
		if len(ba.B) == 0 {
			return nil, Errorf(IndexError, "pop from empty bytearray")
		}
		i := int64(len(ba.B) - 1)
		if len(args) == 1 {
			at, err := IndexArg(c, args[0])
			if err != nil {
				return nil, err
			}
			n, ok := AsInt64(at)
			if !ok {
				return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(at))
			}
			if n < 0 {
				n += int64(len(ba.B))
			}
			if n < 0 || n >= int64(len(ba.B)) {
				return nil, Errorf(IndexError, "pop index out of range")
			}
			i = n
		}
		b := ba.B[i]
		ba.B = append(ba.B[:i], ba.B[i+1:]...)
		return Int(b), nil
	})
	set("insert", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("insert", args, 2, 2); err != nil {
			return nil, err
		}
		at, err := IndexArg(c, args[0])
		if err != nil {
			return nil, err
		}
		n, ok := AsInt64(at)
		if !ok {
			return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(at))
		}
		b, err := byteVal(c, args[1])
		if err != nil {
			return nil, err
		}
		if err := Alloc(c, 1); err != nil {
			return nil, err
		}
		i := clampIdx(n, len(ba.B))
		ba.B = append(ba.B, 0)
		copy(ba.B[i+1:], ba.B[i:])
		ba.B[i] = b
		return None, nil
	})
	set("remove", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("remove", args, 1, 1); err != nil {
			return nil, err
		}
		b, err := byteVal(c, args[0])
		if err != nil {
			return nil, err
		}
		for i, x := range ba.B {
			if x == b {
				ba.B = append(ba.B[:i], ba.B[i+1:]...)
				return None, nil
			}
		}
		return nil, Errorf(ValueError, "value not found in bytearray")
	})
	set("reverse", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("reverse", args, 0, 0); err != nil {
			return nil, err
		}
		for i, j := 0, len(ba.B)-1; i < j; i, j = i+1, j-1 {
			ba.B[i], ba.B[j] = ba.B[j], ba.B[i]
		}
		return None, nil
	})
	set("clear", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("clear", args, 0, 0); err != nil {
			return nil, err
		}
		ba.B = ba.B[:0]
		return None, nil
	})
	set("copy", func(c Ctx, ba *ByteArray, args []Value) (Value, error) {
		if err := ArgCount("copy", args, 0, 0); err != nil {
			return nil, err
		}
		if err := AllocSlots(c, meter.SizeBytesHeader, uint64(len(ba.B)), 1); err != nil {
			return nil, err
		}
		return &ByteArray{B: append([]byte(nil), ba.B...)}, nil
	})
}
