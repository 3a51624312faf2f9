package vm

import "github.com/cowboy-chain/cowboy/pvm/object"

// Slot methods of builtin types that need the vm's builtins (see
// pvm/object/dunders.go for the rest): [1, 2].__reversed__(),
// (2.5).__round__(), range(3).__reversed__().
func init() {
	// __reversed__ returns the same iterator as the reversed() builtin: a
	// list's slot copies the list first (see the builtin for why), other
	// sequences go through ListOf, which charges per element.
	reversedSlot := func(c object.Ctx, self object.Value, args []object.Value, kw []object.Kw) (object.Value, error) {
		if l, ok := self.(*object.List); ok {
			return newReversed(append([]object.Value(nil), l.Elems...)), nil
		}
		l, err := object.ListOf(c, self)
		if err != nil {
			return nil, err
		}
		return newReversed(l.Elems), nil
	}
	for _, k := range []*object.Class{object.ListClass, object.DictClass, object.RangeClass,
		object.DictViewClasses[0], object.DictViewClasses[1], object.DictViewClasses[2]} {
		object.DefSlot(k, "__reversed__", 0, reversedSlot)
	}
	// int.__round__ and float.__round__ take ndigits as an optional
	// positional or keyword argument, as int___round___impl and
	// float___round___impl do, and share round's exact arithmetic.
	for _, k := range []*object.Class{object.IntClass, object.FloatClass} {
		object.DefSlot(k, "__round__", -1, func(c object.Ctx, self object.Value, args []object.Value, kw []object.Kw) (object.Value, error) {
			a, err := object.UnpackArgs("__round__", args[1:], kw, "ndigits?")
			if err != nil {
				return nil, err
			}
			return round(c, self, a[0])
		})
	}
}
