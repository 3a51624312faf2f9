package object

// UnpackArgs binds positional and keyword arguments of a builtin to names.
// Names ending in "?" are optional; the result has one slot per name, nil
// for an optional argument not given.
func UnpackArgs(fname string, args []Value, kw []Kw, names ...string) ([]Value, error) {
	out := make([]Value, len(names))
	required := 0
	for _, n := range names {
		if n[len(n)-1] != '?' {
			required++
		}
	}
	if len(args) > len(names) {
		return nil, Errorf(TypeError, "%s() takes at most %d arguments (%d given)", fname, len(names), len(args))
	}
	copy(out, args)
	for _, k := range kw {
		found := false
		for i, n := range names {
			if n[len(n)-1] == '?' {
				n = n[:len(n)-1]
			}
			if n == k.Name {
				if out[i] != nil {
					return nil, Errorf(TypeError, "%s() got multiple values for argument '%s'", fname, k.Name)
				}
				out[i] = k.Value
				found = true
				break
			}
		}
		if !found {
			return nil, Errorf(TypeError, "%s() got an unexpected keyword argument '%s'", fname, k.Name)
		}
	}
	for i, n := range names {
		if n[len(n)-1] != '?' && out[i] == nil {
			return nil, Errorf(TypeError, "%s() missing required argument '%s' (pos %d)", fname, n, i+1)
		}
	}
	return out, nil
}

// NoKw fails when keyword arguments were passed to a builtin that takes none.
func NoKw(fname string, kw []Kw) error {
	if len(kw) > 0 {
		return Errorf(TypeError, "%s() takes no keyword arguments", fname)
	}
	return nil
}

// ArgCount checks a builtin's positional argument count.
func ArgCount(fname string, args []Value, min, max int) error {
	if len(args) < min || len(args) > max {
		switch {
		case min == max && min == 0:
			return Errorf(TypeError, "%s() takes no arguments (%d given)", fname, len(args))
		case min == max && min == 1:
			return Errorf(TypeError, "%s() takes exactly one argument (%d given)", fname, len(args))
		case len(args) < min:
			return Errorf(TypeError, "%s expected at least %d argument%s, got %d", fname, min, plural(min), len(args))
		}
		return Errorf(TypeError, "%s expected at most %d argument%s, got %d", fname, max, plural(max), len(args))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
