package object

import "errors"

// Methods CPython 3.11 has that a reader of pvm/vm found missing (issue
// 18, eleventh session; docs/decisions.md lists them): float.conjugate,
// bytes.istitle and bytearray.istitle, the separators of bytes.hex and
// bytearray.hex, and isdisjoint on the keys and items views.
func initMiscMethods() {
	FloatClass.Dict.Set("conjugate", method("conjugate", func(c Ctx, args []Value, kw []Kw) (Value, error) {
		if err := ArgCount("conjugate", args[1:], 0, 0); err != nil {
			return nil, err
		}
		return args[0], nil
	}))
	bytesMethod("istitle", func(c Ctx, s string, mk func(string) (Value, error), args []Value, kw []Kw) (Value, error) {
		return MakeBool(bytesIsTitle(s)), nil
	})
	for _, k := range []*Class{BytesClass, ByteArrayClass} {
		k.Dict.Set("hex", method("hex", bytesHex))
	}
	for _, k := range []*Class{DictViewClasses[0], DictViewClasses[2]} {
		k.Dict.Set("isdisjoint", method("isdisjoint", viewIsDisjoint))
	}
	// range's read-only start, stop and step (range_members).
	for _, f := range []struct {
		name string
		get  func(*Range) int64
	}{
		{"start", func(r *Range) int64 { return r.Start }},
		{"stop", func(r *Range) int64 { return r.Stop }},
		{"step", func(r *Range) int64 { return r.Step }},
	} {
		f := f
		get := NewBuiltin(f.name, func(c Ctx, args []Value, kw []Kw) (Value, error) {
			if err := ArgCount(f.name, args, 1, 1); err != nil {
				return nil, err
			}
			r, ok := args[0].(*Range)
			if !ok {
				return nil, Errorf(TypeError, "descriptor '%s' for 'range' objects doesn't apply to a '%s' object", f.name, TypeName(args[0]))
			}
			return MakeInt(f.get(r)), nil
		})
		RangeClass.Dict.Set(f.name, &Property{Get: get, Set: None, Del: None})
	}
}

// bytesIsTitle is bytes.istitle (CPython's _Py_bytes_istitle): an
// uppercase ASCII letter only after an uncased byte, a lowercase one only
// after a cased one, and at least one cased byte.
func bytesIsTitle(s string) bool {
	cased, previousCased := false, false
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case isBytesUpper(b):
			if previousCased {
				return false
			}
			previousCased, cased = true, true
		case isBytesLower(b):
			if !previousCased {
				return false
			}
			previousCased, cased = true, true
		default:
			previousCased = false
		}
	}
	return cased
}

// bytesHex is bytes.hex([sep[, bytes_per_sep]]) (Python/pystrhex.c): sep,
// one ASCII character as str or bytes, goes between groups of
// bytes_per_sep bytes counted from the right, or from the left when
// bytes_per_sep is negative; 0 means no separator.
func bytesHex(c Ctx, args []Value, kw []Kw) (Value, error) {
	b, _ := bytesLike(args[0])
	a, err := UnpackArgs("hex", args[1:], kw, "sep?", "bytes_per_sep?")
	if err != nil {
		return nil, err
	}
	var sep byte
	per := int64(1)
	if a[0] != nil {
		var s string
		switch v := BaseOf(a[0]).(type) {
		case Str:
			s = string(v)
		default:
			bs, ok := bytesLike(v)
			if !ok {
				return nil, Errorf(TypeError, "object of type '%s' has no len()", TypeName(a[0]))
			}
			s = string(bs)
		}
		if len([]rune(s)) != 1 {
			return nil, Errorf(ValueError, "sep must be length 1.")
		}
		if s[0] >= 0x80 {
			return nil, Errorf(ValueError, "sep must be ASCII.")
		}
		sep = s[0]
	}
	if a[1] != nil {
		n, err := IndexValue(c, a[1], "'"+TypeName(a[1])+"' object cannot be interpreted as an integer")
		if err != nil {
			return nil, err
		}
		per = n
	}
	if a[0] == nil || per == 0 {
		per = 0
	}
	group := per
	if group < 0 {
		group = -group
	}
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 3*len(b))
	for i, x := range b {
		if group > 0 && i > 0 {
			// Counted from the left (negative) or from the right.
			at := int64(i)
			if per > 0 {
				at = int64(len(b) - i)
			}
			if at%group == 0 {
				out = append(out, sep)
			}
		}
		out = append(out, digits[x>>4], digits[x&15])
	}
	return NewStr(c, string(out))
}

// viewIsDisjoint is dict_keys.isdisjoint and dict_items.isdisjoint
// (dictviews_isdisjoint): true when no item of other is in the view.
func viewIsDisjoint(c Ctx, args []Value, kw []Kw) (Value, error) {
	if err := ArgCount("isdisjoint", args[1:], 1, 1); err != nil {
		return nil, err
	}
	view := args[0]
	err := Iterate(c, args[1], func(item Value) error {
		in, err := Contains(c, view, item)
		if err == nil && in {
			return errFoundShared
		}
		return err
	})
	if err == errFoundShared {
		return False, nil
	}
	if err != nil {
		return nil, err
	}
	return True, nil
}

// errFoundShared stops viewIsDisjoint's walk at the first shared item.
var errFoundShared = errors.New("isdisjoint: shared item")
