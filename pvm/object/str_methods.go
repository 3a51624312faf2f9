package object

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cowboy-chain/cowboy/pvm/meter"
)

func utf8Valid(b []byte) bool { return utf8.Valid(b) }

func strArg(fname string, v Value) (string, error) {
	s, ok := v.(Str)
	if !ok {
		return "", Errorf(TypeError, "%s() argument must be str, not %s", fname, TypeName(v))
	}
	return string(s), nil
}

// strMethod registers a str method whose receiver is args[0].(Str); each
// call is charged per character of the receiver (CIP-3 string work).
func strMethod(name string, fn func(c Ctx, s string, args []Value, kw []Kw) (Value, error)) {
	StrClass.Dict.Set(name, method(name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if len(args) == 0 {
			return nil, Errorf(TypeError, "descriptor '%s' of 'str' object needs an argument", name)
		}
		s, ok := args[0].(Str)
		if !ok {
			return nil, Errorf(TypeError, "descriptor '%s' requires a 'str' object but received a '%s'", name, TypeName(args[0]))
		}
		if err := Charge(c, uint64(len(s))*meter.CostPerChar); err != nil {
			return nil, err
		}
		return fn(c, string(s), args[1:], kw)
	}))
}

func strResult(c Ctx, s string) (Value, error) { return NewStr(c, s) }

func stripChars(fname string, args []Value) (string, bool, error) {
	if len(args) == 0 || args[0] == None {
		return "", false, nil
	}
	s, ok := args[0].(Str)
	if !ok {
		return "", false, Errorf(TypeError, "%s arg must be None or str", fname)
	}
	return string(s), true, nil
}

func splitArgs(c Ctx, fname string, args []Value, kw []Kw) (sep string, hasSep bool, max int, err error) {
	a, err := UnpackArgs(fname, args, kw, "sep?", "maxsplit?")
	if err != nil {
		return "", false, 0, err
	}
	if a[1] != nil {
		// maxsplit is converted first, as argument clinic does.
		if a[1], err = IndexArg(c, a[1]); err != nil {
			return "", false, 0, err
		}
	}
	max = -1
	if a[0] != nil && a[0] != None {
		sep, err = strArg(fname, a[0])
		if err != nil {
			return
		}
		if sep == "" {
			return "", false, 0, Errorf(ValueError, "empty separator")
		}
		hasSep = true
	}
	if a[1] != nil {
		m, ok := AsInt64(a[1])
		if !ok {
			return "", false, 0, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(a[1]))
		}
		max = int(m)
	}
	return
}

func strList(c Ctx, parts []string) (Value, error) {
	out := make([]Value, len(parts))
	total := 0
	for i, p := range parts {
		out[i] = Str(p)
		total += len(p) + int(meter.SizeStrHeader)
	}
	if err := Alloc(c, uint64(total)); err != nil {
		return nil, err
	}
	return NewList(c, out)
}

// splitSep is strList(c, strings.SplitN(s, sep, n)) for a non-empty sep
// and n != 0, building the list's values directly.
func splitSep(c Ctx, s, sep string, n int) (Value, error) {
	if n < 0 {
		n = strings.Count(s, sep) + 1
	}
	if n > len(s)+1 {
		n = len(s) + 1
	}
	out := make([]Value, n)
	total := 0
	i := 0
	for i < n-1 {
		m := strings.Index(s, sep)
		if m < 0 {
			break
		}
		out[i] = Str(s[:m])
		total += m + int(meter.SizeStrHeader)
		s = s[m+len(sep):]
		i++
	}
	out[i] = Str(s)
	total += len(s) + int(meter.SizeStrHeader)
	if err := Alloc(c, uint64(total)); err != nil {
		return nil, err
	}
	return NewList(c, out[:i+1])
}

func isPySpace(r rune) bool {
	return unicode.IsSpace(r) || r == 0x1c || r == 0x1d || r == 0x1e || r == 0x1f
}

func splitWhitespace(s string, max int) []string {
	var out []string
	i := 0
	for {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !isPySpace(r) {
				break
			}
			i += n
		}
		if i >= len(s) {
			return out
		}
		if max >= 0 && len(out) == max {
			out = append(out, s[i:]) // the rest keeps its trailing whitespace
			return out
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if isPySpace(r) {
				break
			}
			j += n
		}
		out = append(out, s[i:j])
		i = j
	}
}

// runeOffsets converts code-point start/end arguments to byte offsets.
func subRange(c Ctx, s string, args []Value) (string, int, error) {
	n := utf8.RuneCountInString(s)
	start, end := 0, n
	if len(args) > 0 && args[0] != None {
		v, err := sliceIndexArg(c, args[0], sliceIndexOrNoneMsg)
		if err != nil {
			return "", 0, err
		}
		start = clampIdx(v, n)
	}
	if len(args) > 1 && args[1] != None {
		v, err := sliceIndexArg(c, args[1], sliceIndexOrNoneMsg)
		if err != nil {
			return "", 0, err
		}
		end = clampIdx(v, n)
	}
	if start > end {
		return "", -1, nil
	}
	if isASCII(s) {
		return s[start:end], start, nil
	}
	rs := []rune(s)
	return string(rs[start:end]), start, nil
}

func clampIdx(v int64, n int) int {
	if v < 0 {
		v += int64(n)
		if v < 0 {
			v = 0
		}
	}
	if v > int64(n) {
		v = int64(n)
	}
	return int(v)
}

func runeIndex(s string, byteIdx int) int {
	if byteIdx < 0 {
		return -1
	}
	return utf8.RuneCountInString(s[:byteIdx])
}

func initStrMethods() {
	strMethod("join", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("join", args, 1, 1); err != nil {
			return nil, err
		}
		items, err := joinItems(c, args[0])
		if err != nil {
			return nil, err
		}
		it, err := Iter(c, items)
		if err != nil {
			return nil, err
		}
		var parts []string
		if src, ok := sequenceElems(items); ok {
			parts = make([]string, 0, len(src))
		}
		total := 0
		i := 0
		err = Iterate(c, it, func(v Value) error {
			p, ok := BaseOf(v).(Str)
			if !ok {
				return Errorf(TypeError, "sequence item %d: expected str instance, %s found", i, TypeName(v))
			}
			i++
			total += len(p) + len(s)
			if err := Charge(c, uint64(len(p))*meter.CostPerChar); err != nil {
				return err
			}
			if err := Alloc(c, uint64(len(p)+len(s))); err != nil {
				return err
			}
			parts = append(parts, string(p))
			return nil
		})
		if err != nil {
			return nil, err
		}
		return strResult(c, strings.Join(parts, s))
	})
	strMethod("split", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		sep, has, max, err := splitArgs(c, "split", args, kw)
		if err != nil {
			return nil, err
		}
		if !has {
			return strList(c, splitWhitespace(s, max))
		}
		n := -1
		if max >= 0 {
			n = max + 1
		}
		return splitSep(c, s, sep, n)
	})
	strMethod("rsplit", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		sep, has, max, err := splitArgs(c, "rsplit", args, kw)
		if err != nil {
			return nil, err
		}
		if max < 0 {
			if !has {
				return strList(c, splitWhitespace(s, -1))
			}
			return strList(c, strings.Split(s, sep))
		}
		var parts []string
		rest := s
		if !has {
			rest = strings.TrimRightFunc(rest, isPySpace)
			for len(parts) < max {
				i := strings.LastIndexFunc(rest, isPySpace)
				if i < 0 {
					break
				}
				_, n := utf8.DecodeRuneInString(rest[i:])
				parts = append(parts, rest[i+n:])
				rest = strings.TrimRightFunc(rest[:i], isPySpace)
			}
			if rest != "" {
				parts = append(parts, rest)
			}
		} else {
			for len(parts) < max {
				i := strings.LastIndex(rest, sep)
				if i < 0 {
					break
				}
				parts = append(parts, rest[i+len(sep):])
				rest = rest[:i]
			}
			parts = append(parts, rest)
		}
		for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
			parts[i], parts[j] = parts[j], parts[i]
		}
		return strList(c, parts)
	})
	strMethod("splitlines", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("splitlines", args, kw, "keepends?")
		if err != nil {
			return nil, err
		}
		keep := false
		if a[0] != nil {
			keep, _ = Truth(c, a[0])
		}
		var parts []string
		for len(s) > 0 {
			// str line boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85
			// \u2028 \u2029.
			i := strings.IndexAny(s, "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029")
			if i < 0 {
				parts = append(parts, s)
				break
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			end := i + size
			if s[i] == '\r' && end < len(s) && s[end] == '\n' {
				end++
			}
			if keep {
				parts = append(parts, s[:end])
			} else {
				parts = append(parts, s[:i])
			}
			s = s[end:]
		}
		return strList(c, parts)
	})
	for _, name := range []string{"strip", "lstrip", "rstrip"} {
		name := name
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 0, 1); err != nil {
				return nil, err
			}
			chars, has, err := stripChars(name, args)
			if err != nil {
				return nil, err
			}
			f := func(r rune) bool {
				if has {
					return strings.ContainsRune(chars, r)
				}
				return isPySpace(r)
			}
			switch name {
			case "strip":
				return Str(strings.TrimFunc(s, f)), nil
			case "lstrip":
				return Str(strings.TrimLeftFunc(s, f)), nil
			}
			return Str(strings.TrimRightFunc(s, f)), nil
		})
	}
	for _, m := range []struct {
		name string
		f    func(string) string
	}{{"upper", strUpper}, {"lower", strLower}, {"casefold", strCasefold}, {"swapcase", strSwapcase}, {"capitalize", strCapitalize}, {"title", strTitle}} {
		f := m.f
		strMethod(m.name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return strResult(c, f(s)) })
	}
	strMethod("replace", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("replace", args, 2, 3); err != nil {
			return nil, err
		}
		old, ok := args[0].(Str)
		if !ok {
			return nil, Errorf(TypeError, "replace() argument 1 must be str, not %s", TypeName(args[0]))
		}
		nw, ok := args[1].(Str)
		if !ok {
			return nil, Errorf(TypeError, "replace() argument 2 must be str, not %s", TypeName(args[1]))
		}
		n := int64(-1)
		if len(args) == 3 {
			var err error
			if n, err = countArg(c, args[2]); err != nil {
				return nil, err
			}
		}
		cnt := strings.Count(s, string(old))
		if n >= 0 && int64(cnt) > n {
			cnt = int(n)
		}
		grow := int64(cnt) * int64(len(nw)-len(old))
		if grow > 0 {
			if err := Alloc(c, uint64(grow)); err != nil {
				return nil, err
			}
			if err := Charge(c, uint64(grow)*meter.CostPerChar); err != nil {
				return nil, err
			}
		}
		return strResult(c, strings.Replace(s, string(old), string(nw), int(n)))
	})
	for _, name := range []string{"startswith", "endswith"} {
		name := name
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 3); err != nil {
				return nil, err
			}
			sub, _, err := subRange(c, s, args[1:])
			if err != nil {
				return nil, err
			}
			var cands []Value
			switch p := args[0].(type) {
			case Str:
				cands = []Value{p}
			case Tuple:
				cands = p
			default:
				return nil, Errorf(TypeError, "%s first arg must be str or a tuple of str, not %s", name, TypeName(args[0]))
			}
			for _, cand := range cands {
				p, ok := cand.(Str)
				if !ok {
					return nil, Errorf(TypeError, "tuple for %s must only contain str, not %s", name, TypeName(cand))
				}
				if (name == "startswith" && strings.HasPrefix(sub, string(p))) || (name == "endswith" && strings.HasSuffix(sub, string(p))) {
					return True, nil
				}
			}
			return False, nil
		})
	}
	for _, name := range []string{"find", "rfind", "index", "rindex", "count"} {
		name := name
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 3); err != nil {
				return nil, err
			}
			sub, err := strArg(name, args[0])
			if err != nil {
				return nil, err
			}
			hay, off, err := subRange(c, s, args[1:])
			if err != nil {
				return nil, err
			}
			if off < 0 {
				if name == "count" {
					return Int(0), nil
				}
				if name == "index" || name == "rindex" {
					return nil, Errorf(ValueError, "substring not found")
				}
				return Int(-1), nil
			}
			var i int
			switch name {
			case "count":
				if sub == "" {
					return Int(utf8.RuneCountInString(hay) + 1), nil
				}
				return Int(strings.Count(hay, sub)), nil
			case "find", "index":
				i = runeIndex(hay, strings.Index(hay, sub))
			default:
				i = runeIndex(hay, strings.LastIndex(hay, sub))
			}
			if i < 0 {
				if name == "index" || name == "rindex" {
					return nil, Errorf(ValueError, "substring not found")
				}
				return Int(-1), nil
			}
			return Int(i + off), nil
		})
	}
	preds := map[string]func(rune) bool{
		"isdigit":   isDigitRune,
		"isdecimal": IsDecimalRune,
		"isnumeric": isNumericRune,
		"isalpha":   IsAlphaRune,
		"isalnum":   isAlnumRune,
		"isspace":   isPySpace,
	}
	for _, name := range []string{"isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace"} {
		p := preds[name]
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if s == "" {
				return False, nil
			}
			for _, r := range s {
				if !p(r) {
					return False, nil
				}
			}
			return True, nil
		})
	}
	strMethod("isascii", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return MakeBool(isASCII(s)), nil })
	strMethod("isupper", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return MakeBool(strIsUpper(s)), nil })
	strMethod("islower", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return MakeBool(strIsLower(s)), nil })
	strMethod("istitle", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return MakeBool(strIsTitle(s)), nil })
	strMethod("isidentifier", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if s == "" {
			return False, nil
		}
		for i, r := range s {
			if i == 0 && !inRanges(idStartRanges, r) || !inRanges(idContinueRanges, r) {
				return False, nil
			}
		}
		return True, nil
	})
	strMethod("isprintable", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		for _, r := range s {
			if !inRanges(printableRanges, r) {
				return False, nil
			}
		}
		return True, nil
	})
	pad := func(name string) {
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 2); err != nil {
				return nil, err
			}
			w, err := countArg(c, args[0])
			if err != nil {
				return nil, err
			}
			fill := " "
			if len(args) == 2 {
				f, ok := args[1].(Str)
				if !ok || Str(f).Len() != 1 {
					return nil, Errorf(TypeError, "The fill character must be exactly one character long")
				}
				fill = string(f)
			}
			n := utf8.RuneCountInString(s)
			if int64(n) >= w {
				return Str(s), nil
			}
			if err := Alloc(c, uint64(w)*uint64(len(fill))); err != nil {
				return nil, err
			}
			if err := Charge(c, uint64(w)); err != nil {
				return nil, err
			}
			total := int(w) - n
			switch name {
			case "ljust":
				return Str(s + strings.Repeat(fill, total)), nil
			case "rjust":
				return Str(strings.Repeat(fill, total) + s), nil
			}
			left := total / 2
			if total%2 == 1 && w%2 == 1 { // CPython: marg/2 + (marg & width & 1)
				left++
			}
			return Str(strings.Repeat(fill, left) + s + strings.Repeat(fill, total-left)), nil
		})
	}
	pad("ljust")
	pad("rjust")
	pad("center")
	strMethod("zfill", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("zfill", args, 1, 1); err != nil {
			return nil, err
		}
		w, err := countArg(c, args[0])
		if err != nil {
			return nil, err
		}
		n := utf8.RuneCountInString(s)
		if int64(n) >= w {
			return Str(s), nil
		}
		if err := Alloc(c, uint64(w)); err != nil {
			return nil, err
		}
		sign := ""
		if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
			sign, s = s[:1], s[1:]
		}
		return Str(sign + strings.Repeat("0", int(w)-n) + s), nil
	})
	strMethod("encode", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		a, err := UnpackArgs("encode", args, kw, "encoding?", "errors?")
		if err != nil {
			return nil, err
		}
		return encodeStr(c, s, a[0], a[1], false)
	})
	for _, name := range []string{"partition", "rpartition"} {
		name := name
		strMethod(name, func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(name, args, 1, 1); err != nil {
				return nil, err
			}
			sep, err := strArg(name, args[0])
			if err != nil {
				return nil, err
			}
			if sep == "" {
				return nil, Errorf(ValueError, "empty separator")
			}
			var i int
			if name == "partition" {
				i = strings.Index(s, sep)
				if i < 0 {
					return Tuple{Str(s), Str(""), Str("")}, nil
				}
			} else {
				i = strings.LastIndex(s, sep)
				if i < 0 {
					return Tuple{Str(""), Str(""), Str(s)}, nil
				}
			}
			return Tuple{Str(s[:i]), Str(sep), Str(s[i+len(sep):])}, nil
		})
	}
	strMethod("removeprefix", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("removeprefix", args, 1, 1); err != nil {
			return nil, err
		}
		p, err := strArg("removeprefix", args[0])
		return Str(strings.TrimPrefix(s, p)), err
	})
	strMethod("removesuffix", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("removesuffix", args, 1, 1); err != nil {
			return nil, err
		}
		p, err := strArg("removesuffix", args[0])
		return Str(strings.TrimSuffix(s, p)), err
	})
	strMethod("format", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) {
		r, err := StrFormat(c, s, args, kw)
		if err != nil {
			return nil, err
		}
		return strResult(c, r)
	})
	strMethod("__len__", func(c Ctx, s string, args []Value, kw []Kw) (Value, error) { return Int(Str(s).Len()), nil })
}
