package modules

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// re.RegexFlag: the flags are members of an int subclass, as in CPython
// 3.11, where RegexFlag is an enum.IntFlag with boundary KEEP made global
// (enum.global_enum): repr and str are `re.IGNORECASE`, `|`, `&`, `^`
// and `~` give RegexFlag values named after their bits in definition
// order (`re.IGNORECASE|re.MULTILINE`, unknown bits in hex), any other
// arithmetic gives a plain int. The class is written here rather than
// with the enum module, so that importing re imports nothing more; the
// metaclass parts of an enum (RegexFlag['I'], iterating the class) are
// left out.

// reFlagDefs are RegexFlag's members in definition order (which names a
// composite value), with their one-letter aliases.
var reFlagDefs = []struct {
	name, alias string
	v           int64
}{
	{"ASCII", "A", reFlagASCII}, {"IGNORECASE", "I", reFlagIgnoreCase}, {"LOCALE", "L", reFlagLocale},
	{"UNICODE", "U", reFlagUnicode}, {"MULTILINE", "M", reFlagMultiline}, {"DOTALL", "S", reFlagDotAll},
	{"VERBOSE", "X", reFlagVerbose}, {"TEMPLATE", "T", reFlagTemplate}, {"DEBUG", "", reFlagDebug},
}

// reFlagAll is every member's bit (Flag._all_bits_).
const reFlagAll = 511

// reFlagMax bounds a RegexFlag's value, so that the identity numbers
// below stay distinct: far beyond any flag CPython defines.
const reFlagMax = 1 << 40

// reFlags is the RegexFlag class of one call and its values, one object
// per value (CPython caches pseudo-members the same way, so
// `(re.I | re.M) is (re.I | re.M)`).
type reFlags struct {
	cls     *object.Class
	byValue map[int64]*object.Instance
}

// get returns the RegexFlag of a value already normalized (v >= 0). Its
// identity number is derived from the value (an odd multiple of 8,
// where the thread numbers objects in multiples of 16), so making flags
// leaves the numbers of the program's own objects unchanged.
func (f *reFlags) get(c object.Ctx, v int64) (*object.Instance, error) {
	if in, ok := f.byValue[v]; ok {
		return in, nil
	}
	if v < 0 || v >= reFlagMax {
		return nil, object.Errorf(object.ValueError, "PVM: RegexFlag values are limited to 40 bits")
	}
	if err := object.Alloc(c, 64+48); err != nil {
		return nil, err
	}
	in := &object.Instance{Class: f.cls, Dict: object.NewStrDict(), ID: v*16 + 8, Base: object.Int(v)}
	f.byValue[v] = in
	return in, nil
}

// make is RegexFlag(v) for any int v, negative values folded into the
// bits as Flag._missing_ folds them under boundary KEEP.
func (f *reFlags) make(c object.Ctx, v int64) (*object.Instance, error) {
	if v < 0 {
		if v < ^int64(reFlagAll) {
			n := uint(bits.Len64(uint64(-v)))
			if n >= 62 {
				return nil, object.Errorf(object.ValueError, "PVM: RegexFlag values are limited to 40 bits")
			}
			v += max(reFlagAll+1, int64(1)<<n)
		} else {
			v += reFlagAll + 1
		}
	}
	return f.get(c, v)
}

// flagName is a RegexFlag's _name_: its members' names in definition
// order, then the unknown bits in hex; "" (None) for a value with only
// unknown bits.
func flagName(v int64) string {
	if v == 0 {
		return "NOFLAG"
	}
	var names []string
	for _, d := range reFlagDefs {
		if v&d.v != 0 {
			names = append(names, d.name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	if unknown := v &^ reFlagAll; unknown != 0 {
		names = append(names, fmt.Sprintf("%#x", unknown))
	}
	return strings.Join(names, "|")
}

// flagRepr is global_flag_repr: `re.NAME|re.NAME|0x400`, or
// `re.RegexFlag(512)` for a value without a name.
func flagRepr(v int64) string {
	name := flagName(v)
	if name == "" {
		return fmt.Sprintf("re.RegexFlag(%d)", v)
	}
	parts := strings.Split(name, "|")
	for i, p := range parts {
		if !strings.HasPrefix(p, "0x") {
			parts[i] = "re." + p
		}
	}
	return strings.Join(parts, "|")
}

// flagValue is the int value of a RegexFlag (or of any int-like value,
// ok false for anything else).
func flagValue(v object.Value) (int64, bool) {
	if _, isBig := object.BaseOf(v).(*object.BigInt); isBig {
		return 0, false
	}
	return object.AsInt64(v)
}

// newRegexFlag builds the class and puts its members and aliases in g
// and in the class.
func newRegexFlag(t object.Ctx, g *object.StrDict) (*reFlags, error) {
	k := errorClass("re", "RegexFlag", object.IntClass)
	f := &reFlags{cls: k, byValue: map[int64]*object.Instance{}}
	self := func(args []object.Value) int64 {
		v, _ := flagValue(args[0])
		return v
	}
	str := func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return object.Str(flagRepr(self(args))), nil
	}
	addMethod(k, "__repr__", str)
	addMethod(k, "__str__", str)
	addMethod(k, "__format__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 2 {
			return nil, object.Errorf(object.TypeError, "__format__() takes exactly one argument")
		}
		spec, ok := args[1].(object.Str)
		if !ok {
			return nil, object.Errorf(object.TypeError, "format() argument 2 must be str, not %s", object.TypeName(args[1]))
		}
		if spec == "" {
			return object.Str(flagRepr(self(args))), nil
		}
		s, err := object.Format(c, object.Int(self(args)), string(spec))
		return object.Str(s), err
	})
	for _, op := range []struct {
		names []string
		fn    func(a, b int64) int64
	}{
		{[]string{"__or__", "__ror__"}, func(a, b int64) int64 { return a | b }},
		{[]string{"__and__", "__rand__"}, func(a, b int64) int64 { return a & b }},
		{[]string{"__xor__", "__rxor__"}, func(a, b int64) int64 { return a ^ b }},
	} {
		for i, name := range op.names {
			reflected := i == 1
			addMethod(k, name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
				if len(args) != 2 {
					return nil, object.Errorf(object.TypeError, "expected 1 argument, got %d", len(args)-1)
				}
				other, ok := flagValue(args[1])
				if !ok {
					return object.NotImplemented, nil
				}
				r := op.fn(self(args), other)
				if _, isBool := args[1].(object.Bool); isBool && reflected {
					// bool's own operator runs first and gives an int.
					return object.Int(r), nil
				}
				return f.make(c, r)
			})
		}
	}
	addMethod(k, "__invert__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return f.make(c, ^self(args))
	})
	addMethod(k, "__contains__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 2 {
			return nil, object.Errorf(object.TypeError, "expected 1 argument, got %d", len(args)-1)
		}
		if in, ok := args[1].(*object.Instance); !ok || in.Class != k {
			return nil, object.Errorf(object.TypeError, "unsupported operand type(s) for 'in': '%s' and 'RegexFlag'", object.TypeName(args[1]))
		}
		v, other := self(args), self(args[1:])
		return object.MakeBool(v&other == other), nil
	})
	members := func(c object.Ctx, v int64) ([]object.Value, error) {
		var out []object.Value
		for _, d := range reFlagDefs {
			if v&d.v != 0 {
				m, err := f.get(c, d.v)
				if err != nil {
					return nil, err
				}
				out = append(out, m)
			}
		}
		return out, nil
	}
	addMethod(k, "__iter__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		ms, err := members(c, self(args))
		if err != nil {
			return nil, err
		}
		return object.Iter(c, object.Tuple(ms))
	})
	addMethod(k, "__len__", func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
		return object.Int(bits.OnesCount64(uint64(self(args)))), nil // all bits, as Flag.__len__
	})
	getter := func(name string, fn func(v int64) object.Value) {
		k.Dict.Set(name, &object.Property{Get: object.NewBuiltin(name, func(c object.Ctx, args []object.Value, kw []object.Kw) (object.Value, error) {
			return fn(self(args)), nil
		}), Set: object.None, Del: object.None})
	}
	name := func(v int64) object.Value {
		if n := flagName(v); n != "" {
			return object.Str(n)
		}
		return object.None
	}
	value := func(v int64) object.Value { return object.Int(v) }
	getter("name", name)
	getter("_name_", name)
	getter("value", value)
	getter("_value_", value)
	k.New = func(c object.Ctx, cls *object.Class, args []object.Value, kw []object.Kw) (object.Value, error) {
		if len(args) != 1 || len(kw) != 0 {
			return nil, object.Errorf(object.TypeError, "RegexFlag() takes exactly one argument")
		}
		v, ok := flagValue(args[0])
		if !ok {
			r, err := object.Repr(c, args[0])
			if err != nil {
				return nil, err
			}
			return nil, object.Errorf(object.ValueError, "%s is not a valid RegexFlag", r)
		}
		return f.make(c, v)
	}
	g.Set("RegexFlag", k)
	noflag, err := f.get(t, 0)
	if err != nil {
		return nil, err
	}
	g.Set("NOFLAG", noflag)
	k.Dict.Set("NOFLAG", noflag)
	for _, d := range reFlagDefs {
		m, err := f.get(t, d.v)
		if err != nil {
			return nil, err
		}
		for _, n := range []string{d.name, d.alias} {
			if n != "" {
				g.Set(n, m)
				k.Dict.Set(n, m)
			}
		}
	}
	return f, nil
}
