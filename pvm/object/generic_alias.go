package object

import "strings"

// GenericAlias is a parameterised builtin type such as list[int] or
// dict[str, int] (types.GenericAlias), and, with a nil Origin, a union
// written int | None (types.UnionType). They appear in annotations, which
// class bodies evaluate; calling one calls its origin.
type GenericAlias struct {
	Origin *Class // nil for a union
	Args   Tuple
}

// GenericAliasClass and UnionTypeClass are the types of parameterised
// builtins and of X | Y unions.
var (
	GenericAliasClass = newBuiltinClass("GenericAlias", true, ObjectClass)
	UnionTypeClass    = newBuiltinClass("UnionType", true, ObjectClass)
)

func init() {
	GenericAliasClass.Module = "types"
	UnionTypeClass.Module = "types"
	// GenericAlias(origin, args) is what a class's
	// `__class_getitem__ = classmethod(GenericAlias)` calls (CPython's
	// idiom, and how collections.deque[int] is made).
	GenericAliasClass.New = func(c Ctx, cls *Class, args []Value, kw []Kw) (Value, error) {
		if len(kw) != 0 {
			return nil, Errorf(TypeError, "GenericAlias() takes no keyword arguments")
		}
		if err := ArgCount("GenericAlias", args, 2, 2); err != nil {
			return nil, err
		}
		origin, ok := args[0].(*Class)
		if !ok {
			return nil, Errorf(TypeError, "GenericAlias() origin must be a class in the PVM, not '%s'", TypeName(args[0]))
		}
		return NewGenericAlias(origin, args[1]), nil
	}
}

// NewGenericAlias is origin[item].
func NewGenericAlias(origin *Class, item Value) *GenericAlias {
	args, ok := item.(Tuple)
	if !ok {
		args = Tuple{item}
	}
	return &GenericAlias{Origin: origin, Args: args}
}

// isTypeForm reports whether v can be an operand of X | Y between types.
func isTypeForm(v Value) bool {
	switch v.(type) {
	case *Class, *GenericAlias, NoneType:
		return true
	}
	return false
}

// NewUnion is x | y for types (int | None), flattening nested unions and
// dropping repeats.
func NewUnion(x, y Value) *GenericAlias {
	u := &GenericAlias{}
	for _, v := range []Value{x, y} {
		if g, ok := v.(*GenericAlias); ok && g.Origin == nil {
			for _, a := range g.Args {
				u.add(a)
			}
			continue
		}
		if v == None {
			v = NoneClass
		}
		u.add(v)
	}
	return u
}

func (g *GenericAlias) add(v Value) {
	for _, a := range g.Args {
		if identical(a, v) {
			return
		}
	}
	g.Args = append(g.Args, v)
}

// Type implements Value.
func (g *GenericAlias) Type() *Class {
	if g.Origin == nil {
		return UnionTypeClass
	}
	return GenericAliasClass
}

// typeRepr is how typing shows a type inside an alias: int, mod.Name, ...
func typeRepr(c Ctx, v Value) (string, error) {
	switch x := v.(type) {
	case *Class:
		if x == NoneClass {
			return "None", nil
		}
		if x.Module == "builtins" || x.Module == "" {
			return x.Name, nil
		}
		return x.Module + "." + x.Name, nil
	case *Singleton:
		if x == Ellipsis {
			return "...", nil
		}
	}
	return Repr(c, v)
}

// Repr implements Value.
func (g *GenericAlias) Repr(c Ctx) (string, error) {
	parts := make([]string, len(g.Args))
	for i, a := range g.Args {
		s, err := typeRepr(c, a)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	if g.Origin == nil {
		return strings.Join(parts, " | "), nil
	}
	o, _ := typeRepr(c, g.Origin)
	if len(parts) == 0 {
		parts = []string{"()"}
	}
	return o + "[" + strings.Join(parts, ", ") + "]", nil
}

// Truth implements Value.
func (*GenericAlias) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (g *GenericAlias) Hash(c Ctx) (int64, error) {
	h, err := g.Args.Hash(c)
	if g.Origin != nil {
		oh, _ := g.Origin.Hash(c)
		h ^= oh
	}
	return h, err
}

// GetAttr implements AttrGetter.
func (g *GenericAlias) GetAttr(c Ctx, name string) (Value, bool, error) {
	switch name {
	case "__origin__":
		if g.Origin == nil {
			return nil, false, nil
		}
		return g.Origin, true, nil
	case "__args__":
		return g.Args, true, nil
	case "__parameters__":
		return Tuple{}, true, nil
	case "__mro_entries__":
		if g.Origin == nil {
			return nil, false, nil
		}
		return NewBuiltin("__mro_entries__", func(Ctx, []Value, []Kw) (Value, error) {
			return Tuple{g.Origin}, nil
		}), true, nil
	}
	return nil, false, nil
}

// Contains reports whether k is one of a union's members (isinstance with
// int | str).
func (g *GenericAlias) Contains(k *Class) (bool, bool) {
	if g.Origin != nil {
		return false, false
	}
	for _, a := range g.Args {
		if m, ok := a.(*Class); ok && k.IsSubclass(m) {
			return true, true
		}
	}
	return false, true
}
