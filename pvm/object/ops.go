package object

import (
	"errors"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/softfloat"
)

// Op is an operator of the language.
type Op uint8

// Operators. Binary arithmetic first (their order indexes opNames), then
// unary operators and comparisons.
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpTrueDiv
	OpFloorDiv
	OpMod
	OpPow
	OpLShift
	OpRShift
	OpAnd
	OpOr
	OpXor
	OpMatMul
	numBinary

	OpNeg = iota
	OpPos
	OpInvert
	OpAbs

	OpLt
	OpLe
	OpEq
	OpNe
	OpGt
	OpGe
)

var binNames = [numBinary][2]string{
	{"__add__", "__radd__"}, {"__sub__", "__rsub__"}, {"__mul__", "__rmul__"},
	{"__truediv__", "__rtruediv__"}, {"__floordiv__", "__rfloordiv__"},
	{"__mod__", "__rmod__"}, {"__pow__", "__rpow__"}, {"__lshift__", "__rlshift__"},
	{"__rshift__", "__rrshift__"}, {"__and__", "__rand__"}, {"__or__", "__ror__"},
	{"__xor__", "__rxor__"}, {"__matmul__", "__rmatmul__"},
}

var binSymbols = [numBinary]string{"+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@"}

// Symbol is the operator as written in source.
func (op Op) Symbol() string {
	if op < numBinary {
		return binSymbols[op]
	}
	switch op {
	case OpNeg:
		return "-"
	case OpPos:
		return "+"
	case OpInvert:
		return "~"
	case OpLt:
		return "<"
	case OpLe:
		return "<="
	case OpEq:
		return "=="
	case OpNe:
		return "!="
	case OpGt:
		return ">"
	case OpGe:
		return ">="
	}
	return "?"
}

// Repr is repr(v).
func Repr(c Ctx, v Value) (string, error) { return v.Repr(c) }

// ToStr is str(v).
func ToStr(c Ctx, v Value) (string, error) {
	switch x := v.(type) {
	case Str:
		return string(x), nil
	case *Instance:
		if m, _ := x.Class.Lookup("__str__"); m != nil && !isObjectSlot(m) {
			return callStrDunder(c, m, x, "__str__")
		}
	}
	return v.Repr(c)
}

// HashOf is hash(v).
func HashOf(c Ctx, v Value) (int64, error) {
	switch x := v.(type) {
	case Str:
		return strHash(string(x)), nil
	case Int:
		return hashInt64(int64(x)), nil
	}
	return v.Hash(c)
}

// Truth is bool(v).
func Truth(c Ctx, v Value) (bool, error) {
	switch x := v.(type) {
	case Bool:
		return bool(x), nil
	case Int:
		return x != 0, nil
	case NoneType:
		return false, nil
	}
	return v.Truth(c)
}

// TypeName is type(v).__name__.
func TypeName(v Value) string { return v.Type().Name }

// Len is len(v).
func Len(c Ctx, v Value) (int, error) {
	switch x := v.(type) {
	case Str:
		return x.Len(), nil
	case Lener:
		return x.Len(), nil
	case *Instance:
		if m := x.Class.lookupDunder(dLen); m != nil {
			return callLen(c, m, x)
		}
	case *Class:
		if m := MetaMethod(x, "__len__"); m != nil {
			return callLen(c, m, x)
		}
	}
	return 0, Errorf(TypeError, "object of type '%s' has no len()", TypeName(v))
}

// Equal is `x is y or x == y` as a Go bool: CPython's
// PyObject_RichCompareBool, which containment (`in`, index, count,
// remove), dict and set lookup and sequence and dict comparison use, tries
// identity first, so `e in [e]` is True even when e.__eq__ returns False.
// (A float NaN is never identical here: floats are values, not objects.)
func Equal(c Ctx, x, y Value) (bool, error) {
	if identical(x, y) {
		return true, nil
	}
	r, err := Compare(c, OpEq, x, y)
	if err != nil {
		return false, err
	}
	return Truth(c, r)
}

// Compare evaluates a rich comparison, returning whatever the dunder returns
// (a bool for builtin types).
func Compare(c Ctx, op Op, x, y Value) (Value, error) {
	if r, ok, err := builtinCompare(c, op, x, y); ok || err != nil {
		return r, err
	}
	// Rich comparison protocol with reflection.
	xi, xIsInst := x.(*Instance)
	yi, yIsInst := y.(*Instance)
	name, rname := cmpDunder(op)
	trySwapFirst := yIsInst && (!xIsInst || (yi.Class != xi.Class && yi.Class.IsSubclass(xi.Class)))
	if trySwapFirst {
		if r, ok, err := callDunder(c, y, rname, x); err != nil || ok {
			return r, err
		}
	}
	if xIsInst {
		if r, ok, err := callDunder(c, x, name, y); err != nil || ok {
			return r, err
		}
	}
	if yIsInst && !trySwapFirst {
		if r, ok, err := callDunder(c, y, rname, x); err != nil || ok {
			return r, err
		}
	}
	switch op {
	case OpEq:
		return MakeBool(identical(x, y)), nil
	case OpNe:
		return MakeBool(!identical(x, y)), nil
	}
	return nil, Errorf(TypeError, "'%s' not supported between instances of '%s' and '%s'", op.Symbol(), TypeName(x), TypeName(y))
}

// identical is object identity for values where Python's `is` is allowed
// and meaningful (pointers, singletons).
func identical(x, y Value) bool {
	if a, ok := x.(Tuple); ok {
		// Tuple is a slice type: Go cannot compare two of them with ==.
		b, ok := y.(Tuple)
		return ok && len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
	}
	if _, ok := y.(Tuple); ok {
		return false
	}
	return x == y
}

// Identical is the `is` operator for values the spec allows it on.
func Identical(x, y Value) bool { return identical(x, y) }

func cmpDunder(op Op) (string, string) {
	switch op {
	case OpLt:
		return "__lt__", "__gt__"
	case OpLe:
		return "__le__", "__ge__"
	case OpEq:
		return "__eq__", "__eq__"
	case OpNe:
		return "__ne__", "__ne__"
	case OpGt:
		return "__gt__", "__lt__"
	}
	return "__ge__", "__le__"
}

// callDunder calls type(self).name(self, arg); ok is false when the method is
// missing or returned NotImplemented.
func callDunder(c Ctx, self Value, name string, arg Value) (Value, bool, error) {
	in, isInst := self.(*Instance)
	if !isInst {
		return nil, false, nil
	}
	m, _ := in.Class.Lookup(name)
	if m == nil || isObjectSlot(m) {
		if name == "__ne__" {
			// Default __ne__ inverts __eq__.
			r, ok, err := callDunder(c, self, "__eq__", arg)
			if err != nil || !ok {
				return nil, ok, err
			}
			t, err := Truth(c, r)
			return MakeBool(!t), true, err
		}
		return nil, false, nil
	}
	r, err := c.Call(m, []Value{self, arg}, nil)
	if err != nil {
		return nil, false, err
	}
	if r == NotImplemented {
		return nil, false, nil
	}
	return r, true, nil
}

func cmpResult(op Op, cmp int) Value {
	switch op {
	case OpLt:
		return MakeBool(cmp < 0)
	case OpLe:
		return MakeBool(cmp <= 0)
	case OpEq:
		return MakeBool(cmp == 0)
	case OpNe:
		return MakeBool(cmp != 0)
	case OpGt:
		return MakeBool(cmp > 0)
	}
	return MakeBool(cmp >= 0)
}

func builtinCompare(c Ctx, op Op, x, y Value) (Value, bool, error) {
	// keys() and items() views compare with sets and with each other as
	// sets do (collections.abc.Set's rich comparisons).
	if (setLikeView(x) || setLikeView(y)) && setLike(x) && setLike(y) {
		sa, err := setFromIterable(c, x)
		if err != nil {
			return nil, true, err
		}
		sb, err := setFromIterable(c, y)
		if err != nil {
			return nil, true, err
		}
		r, err := setCompare(c, op, sa, sb)
		return r, true, err
	}
	switch a := x.(type) {
	case Int, Bool, *BigInt:
		switch b := y.(type) {
		case Int, Bool, *BigInt:
			return cmpResult(op, intCompare(a, b)), true, nil
		case Float:
			return floatIntCompare(op, float64(b), a, true), true, nil
		}
	case *SliceObj:
		// Slices compare as (start, stop, step) tuples.
		if b, ok := y.(*SliceObj); ok {
			return builtinCompare(c, op, Tuple{a.Start, a.Stop, a.Step}, Tuple{b.Start, b.Stop, b.Step})
		}
	case Float:
		switch b := y.(type) {
		case Float:
			return floatCompare(op, float64(a), float64(b)), true, nil
		case Int, Bool, *BigInt:
			return floatIntCompare(op, float64(a), b, false), true, nil
		}
	case Str:
		if b, ok := y.(Str); ok {
			n := len(a)
			if len(b) < n {
				n = len(b)
			}
			if err := Charge(c, uint64(n/8)); err != nil {
				return nil, true, err
			}
			return cmpResult(op, strings.Compare(string(a), string(b))), true, nil
		}
	case Bytes:
		switch b := y.(type) {
		case Bytes:
			return cmpResult(op, strings.Compare(string(a), string(b))), true, nil
		case *ByteArray:
			return cmpResult(op, strings.Compare(string(a), string(b.B))), true, nil
		}
	case NoneType:
		if _, ok := y.(NoneType); ok && (op == OpEq || op == OpNe) {
			return MakeBool(op == OpEq), true, nil
		}
	case *List:
		if b, ok := y.(*List); ok {
			r, err := seqCompare(c, op, a.Elems, b.Elems)
			return r, true, err
		}
	case Tuple:
		if b, ok := y.(Tuple); ok {
			r, err := seqCompare(c, op, a, b)
			return r, true, err
		}
	case *Dict:
		if b, ok := y.(*Dict); ok && (op == OpEq || op == OpNe) {
			eq, err := dictEqual(c, a, b)
			if op == OpNe {
				eq = !eq
			}
			return MakeBool(eq), true, err
		}
	case *Set:
		if b, ok := y.(*Set); ok {
			r, err := setCompare(c, op, a, b)
			return r, true, err
		}
	case *Range:
		if b, ok := y.(*Range); ok && (op == OpEq || op == OpNe) {
			eq := a.Len() == b.Len() && (a.Len() == 0 || (a.Start == b.Start && (a.Len() == 1 || a.Step == b.Step)))
			return MakeBool(eq == (op == OpEq)), true, nil
		}
	case *ByteArray:
		var bb []byte
		switch b := y.(type) {
		case *ByteArray:
			bb = b.B
		case Bytes:
			bb = []byte(b)
		default:
			return nil, false, nil
		}
		return cmpResult(op, strings.Compare(string(a.B), string(bb))), true, nil
	}
	if _, isInst := x.(*Instance); !isInst {
		if _, isInst := y.(*Instance); !isInst {
			switch op {
			case OpEq:
				return MakeBool(identical(x, y)), true, nil
			case OpNe:
				return MakeBool(!identical(x, y)), true, nil
			}
			return nil, true, Errorf(TypeError, "'%s' not supported between instances of '%s' and '%s'", op.Symbol(), TypeName(x), TypeName(y))
		}
	}
	return nil, false, nil
}

func floatCompare(op Op, a64, b64 float64) Value {
	a, b := sf(a64), sf(b64)
	switch op {
	case OpLt:
		return MakeBool(softfloat.Lt(a, b))
	case OpLe:
		return MakeBool(softfloat.Le(a, b))
	case OpEq:
		return MakeBool(softfloat.Eq(a, b))
	case OpNe:
		return MakeBool(!softfloat.Eq(a, b))
	case OpGt:
		return MakeBool(softfloat.Gt(a, b))
	}
	return MakeBool(softfloat.Ge(a, b))
}

// floatIntCompare compares a float and an int exactly (no rounding of the
// int, as Python does). swapped means the int was the left operand.
func floatIntCompare(op Op, f float64, i Value, swapped bool) Value {
	if f != f {
		return MakeBool(op == OpNe)
	}
	var cmp int
	if iv, ok := AsInt64(i); ok && iv > -(1<<53) && iv < 1<<53 {
		fi := softfloat.FromInt64(iv) // exact below 2**53
		switch {
		case softfloat.Lt(sf(f), fi):
			cmp = -1
		case softfloat.Gt(sf(f), fi):
			cmp = 1
		}
	} else if sf(f).IsInf() {
		cmp = 1
		if f < 0 {
			cmp = -1
		}
	} else {
		// Compare exactly: floor(f) as an integer against i, then the
		// fractional part breaks a tie.
		fl := softfloat.Floor(sf(f))
		bf, _ := softfloat.ToBig(fl)
		cmp = bf.Cmp(toBig(i))
		if cmp == 0 && fl != sf(f) {
			cmp = 1
		}
	}
	if swapped {
		cmp = -cmp
	}
	return cmpResult(op, cmp)
}

func seqCompare(c Ctx, op Op, a, b []Value) (Value, error) {
	if (op == OpEq || op == OpNe) && len(a) != len(b) {
		return MakeBool(op == OpNe), nil
	}
	if err := c.Nest(); err != nil {
		return nil, err
	}
	defer c.Unnest()
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		eq, err := Equal(c, a[i], b[i])
		if err != nil {
			return nil, err
		}
		if !eq {
			if op == OpEq || op == OpNe {
				return MakeBool(op == OpNe), nil
			}
			return Compare(c, op, a[i], b[i])
		}
	}
	return cmpResult(op, len(a)-len(b)), nil
}

func dictEqual(c Ctx, a, b *Dict) (bool, error) {
	if a.Len() != b.Len() {
		return false, nil
	}
	if err := c.Nest(); err != nil {
		return false, err
	}
	defer c.Unnest()
	for _, kv := range a.Items() {
		v, ok, err := b.Get(c, kv[0])
		if err != nil || !ok {
			return false, err
		}
		eq, err := Equal(c, kv[1], v)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

func setSubset(c Ctx, a, b *Set) (bool, error) {
	for _, x := range a.Elems() {
		ok, err := b.Has(c, x)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

func setCompare(c Ctx, op Op, a, b *Set) (Value, error) {
	switch op {
	case OpEq, OpNe:
		eq := a.Len() == b.Len()
		if eq {
			s, err := setSubset(c, a, b)
			if err != nil {
				return nil, err
			}
			eq = s
		}
		return MakeBool(eq == (op == OpEq)), nil
	case OpLe, OpLt:
		s, err := setSubset(c, a, b)
		if op == OpLt {
			s = s && a.Len() < b.Len()
		}
		return MakeBool(s), err
	}
	s, err := setSubset(c, b, a)
	if op == OpGt {
		s = s && a.Len() > b.Len()
	}
	return MakeBool(s), err
}

// Binary evaluates x op y.
func Binary(c Ctx, op Op, x, y Value) (Value, error) {
	if r, err := builtinBinary(c, op, x, y); r != nil || err != nil {
		return r, err
	}
	return binaryDunders(c, op, x, y)
}

func binaryDunders(c Ctx, op Op, x, y Value) (Value, error) {
	xi, xIsInst := x.(*Instance)
	yi, yIsInst := y.(*Instance)
	if xIsInst || yIsInst {
		names := binNames[op]
		swapFirst := yIsInst && xIsInst && yi.Class != xi.Class && yi.Class.IsSubclass(xi.Class)
		if swapFirst {
			if r, ok, err := callDunder(c, y, names[1], x); err != nil || ok {
				return r, err
			}
		}
		if r, ok, err := callDunder(c, x, names[0], y); err != nil || ok {
			return r, err
		}
		if !swapFirst && (!xIsInst || !yIsInst || xi.Class != yi.Class) {
			if r, ok, err := callDunder(c, y, names[1], x); err != nil || ok {
				return r, err
			}
		}
	}
	if op == OpOr && isTypeForm(x) && isTypeForm(y) && (x != None || y != None) {
		return NewUnion(x, y), nil // int | None
	}
	// A subclass of str, list, ... fails like its base (sq_concat).
	bx := BaseOf(x)
	if op == OpAdd {
		if _, ok := bx.(Bytes); ok {
			return nil, Errorf(TypeError, "can't concat %s to bytes", TypeName(y))
		}
		if _, ok := bx.(Str); ok {
			return nil, Errorf(TypeError, "can only concatenate str (not \"%s\") to str", TypeName(y))
		}
		if _, ok := bx.(*List); ok {
			return nil, Errorf(TypeError, "can only concatenate list (not \"%s\") to list", TypeName(y))
		}
		if _, ok := bx.(Tuple); ok {
			return nil, Errorf(TypeError, "can only concatenate tuple (not \"%s\") to tuple", TypeName(y))
		}
	}
	if op == OpMul {
		if n, ok, err := repeatByIndex(c, x, y); ok || err != nil {
			return n, err
		}
		if isSeq(x) || isSeq(y) {
			other := y
			if isSeq(y) {
				other = x
			}
			if _, big := BaseOf(other).(*BigInt); big {
				// A count beyond int64 does not fit Py_ssize_t (CPython's
				// sequence repeat goes through PyNumber_AsSsize_t).
				return nil, Errorf(OverflowError, "cannot fit 'int' into an index-sized integer")
			}
			return nil, Errorf(TypeError, "can't multiply sequence by non-int of type '%s'", TypeName(other))
		}
	}
	if op == OpPow {
		return nil, Errorf(TypeError, "unsupported operand type(s) for ** or pow(): '%s' and '%s'", TypeName(x), TypeName(y))
	}
	return nil, Errorf(TypeError, "unsupported operand type(s) for %s: '%s' and '%s'", op.Symbol(), TypeName(x), TypeName(y))
}

func setLikeView(v Value) bool {
	dv, ok := v.(*DictView)
	return ok && dv.Kind != 1
}

func setLike(v Value) bool {
	_, ok := v.(*Set)
	return ok || setLikeView(v)
}

func isSeq(v Value) bool {
	switch v.(type) {
	case Str, *List, Tuple, Bytes, *ByteArray:
		return true
	}
	return false
}

// Inplace evaluates x op= y: __iop__ first for instances, in-place update for
// lists, sets, dicts and bytearrays, otherwise the binary operator.
func Inplace(c Ctx, op Op, x, y Value) (Value, error) {
	switch a := x.(type) {
	case *List:
		switch op {
		case OpAdd:
			if err := extendList(c, a, y); err != nil {
				return nil, err
			}
			return a, nil
		case OpMul:
			n, ok := AsInt64(y)
			if !ok {
				break
			}
			r, err := repeatSlice(c, a.Elems, n)
			if err != nil {
				return nil, err
			}
			a.Elems = r
			return a, nil
		}
	case *Set:
		if b, ok := y.(*Set); ok && !a.Frozen {
			r, err := setBinary(c, op, a, b)
			if err != nil || r == nil {
				return r, err
			}
			a.ht = r.(*Set).ht
			return a, nil
		}
	case *Dict:
		if b, ok := y.(*Dict); ok && op == OpOr {
			for _, kv := range b.Items() {
				if err := a.Set(c, kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
			return a, nil
		}
	case *ByteArray:
		if op == OpAdd {
			b, ok := bytesLike(y)
			if ok {
				if err := Alloc(c, uint64(len(b))); err != nil {
					return nil, err
				}
				a.B = append(a.B, b...)
				return a, nil
			}
		}
	case *Instance:
		name := "__i" + binNames[op][0][2:]
		if r, ok, err := callDunder(c, a, name, y); err != nil || ok {
			return r, err
		}
	}
	r, err := Binary(c, op, x, y)
	if err != nil {
		if e, ok := err.(*Exception); ok && e.Value.Class == TypeError && strings.HasPrefix(excStrNoCtx(e.Value), "unsupported operand") {
			return nil, Errorf(TypeError, "unsupported operand type(s) for %s=: '%s' and '%s'", op.Symbol(), TypeName(x), TypeName(y))
		}
	}
	return r, err
}

func bytesLike(v Value) ([]byte, bool) {
	switch b := v.(type) {
	case Bytes:
		return []byte(b), true
	case *ByteArray:
		return b.B, true
	}
	return nil, false
}

func builtinBinary(c Ctx, op Op, x, y Value) (Value, error) {
	switch a := x.(type) {
	case Int, Bool, *BigInt:
		switch b := y.(type) {
		case Int, Bool, *BigInt:
			if op == OpMatMul {
				return nil, nil
			}
			if ba, ok := a.(Bool); ok && (op == OpAnd || op == OpOr || op == OpXor) {
				if bb, ok := b.(Bool); ok { // bool & | ^ bool is a bool
					switch op {
					case OpAnd:
						return MakeBool(bool(ba) && bool(bb)), nil
					case OpOr:
						return MakeBool(bool(ba) || bool(bb)), nil
					}
					return MakeBool(ba != bb), nil
				}
			}
			return intBinary(c, op, a, b)
		case Float:
			fa, err := intToFloat(a)
			if err != nil {
				return nil, err
			}
			return floatBinary(c, op, fa, float64(b))
		case Str, *List, Tuple, Bytes, *ByteArray:
			if op == OpMul {
				return builtinBinary(c, op, y, x)
			}
		}
	case Float:
		fb, ok, err := ToFloat(y)
		if err != nil {
			return nil, err
		}
		if ok {
			return floatBinary(c, op, float64(a), fb)
		}
	case Str:
		switch op {
		case OpAdd:
			if b, ok := y.(Str); ok {
				if err := Charge(c, uint64(len(a)+len(b))*meter.CostPerChar); err != nil {
					return nil, err
				}
				s, err := NewStr(c, string(a)+string(b))
				return s, err
			}
		case OpMul:
			if n, ok := AsInt64(y); ok {
				return repeatStr(c, string(a), n)
			}
			if _, ok := y.(*BigInt); ok {
				return nil, Errorf(OverflowError, "cannot fit 'int' into an index-sized integer")
			}
		case OpMod:
			return PercentFormat(c, string(a), y)
		}
	case Bytes:
		switch op {
		case OpAdd:
			if b, ok := bytesLike(y); ok {
				if err := AllocSlots(c, meter.SizeBytesHeader, uint64(len(a)+len(b)), 1); err != nil {
					return nil, err
				}
				return Bytes(string(a) + string(b)), nil
			}
		case OpMul:
			if n, ok := AsInt64(y); ok {
				s, err := repeatStr(c, string(a), n)
				if err != nil {
					return nil, err
				}
				return Bytes(s.(Str)), nil
			}
		case OpMod:
			return BytesPercentFormat(c, string(a), y)
		}
	case *ByteArray:
		if op == OpAdd {
			if b, ok := bytesLike(y); ok {
				if err := AllocSlots(c, meter.SizeBytesHeader, uint64(len(a.B)+len(b)), 1); err != nil {
					return nil, err
				}
				return &ByteArray{B: append(append([]byte(nil), a.B...), b...)}, nil
			}
		}
		if op == OpMul {
			if n, ok := AsInt64(y); ok {
				s, err := repeatStr(c, string(a.B), n)
				if err != nil {
					return nil, err
				}
				return &ByteArray{B: []byte(s.(Str))}, nil
			}
		}
	case *List:
		switch op {
		case OpAdd:
			if b, ok := y.(*List); ok {
				n := len(a.Elems) + len(b.Elems)
				if err := Charge(c, uint64(n)*meter.CostPerElem); err != nil {
					return nil, err
				}
				if err := AllocSlots(c, meter.SizeListHeader, uint64(n), meter.SizePointer); err != nil {
					return nil, err
				}
				out := make([]Value, 0, n)
				return &List{Elems: append(append(out, a.Elems...), b.Elems...)}, nil
			}
		case OpMul:
			if n, ok := AsInt64(y); ok {
				r, err := repeatSlice(c, a.Elems, n)
				if err != nil {
					return nil, err
				}
				return &List{Elems: r}, nil
			}
			if _, ok := y.(*BigInt); ok {
				return nil, Errorf(OverflowError, "cannot fit 'int' into an index-sized integer")
			}
		}
	case Tuple:
		switch op {
		case OpAdd:
			if b, ok := y.(Tuple); ok {
				n := len(a) + len(b)
				if err := Charge(c, uint64(n)*meter.CostPerElem); err != nil {
					return nil, err
				}
				if err := AllocSlots(c, meter.SizeTupleHeader, uint64(n), meter.SizePointer); err != nil {
					return nil, err
				}
				out := make(Tuple, 0, n)
				return append(append(out, a...), b...), nil
			}
		case OpMul:
			if n, ok := AsInt64(y); ok {
				r, err := repeatSlice(c, a, n)
				if err != nil {
					return nil, err
				}
				return Tuple(r), nil
			}
		}
	case *Set:
		if b, ok := y.(*Set); ok {
			return setBinary(c, op, a, b)
		}
		if v, ok := y.(*DictView); ok && v.Kind != 1 && isSetOp(op) {
			b, err := setFromIterable(c, v)
			if err != nil {
				return nil, err
			}
			return setBinary(c, op, a, b)
		}
	case *DictView:
		// keys() and items() views are set-like: the result is a set.
		if a.Kind != 1 && isSetOp(op) {
			if _, err := Iter(c, y); err != nil {
				return nil, nil
			}
			sa, err := setFromIterable(c, a)
			if err != nil {
				return nil, err
			}
			sb, ok := y.(*Set)
			if !ok {
				if sb, err = setFromIterable(c, y); err != nil {
					return nil, err
				}
			}
			return setBinary(c, op, sa, sb)
		}
	case *Dict:
		if b, ok := y.(*Dict); ok && op == OpOr {
			d := NewDict()
			for _, src := range []*Dict{a, b} {
				for _, kv := range src.Items() {
					if err := d.Set(c, kv[0], kv[1]); err != nil {
						return nil, err
					}
				}
			}
			return d, nil
		}
	}
	return nil, nil
}

func repeatStr(c Ctx, s string, n int64) (Value, error) {
	if n <= 0 || len(s) == 0 {
		return Str(""), nil
	}
	if n > (1<<40)/int64(len(s)) {
		return nil, Errorf(MemoryError, "")
	}
	total := uint64(n) * uint64(len(s))
	if err := Alloc(c, meter.SizeStrHeader+total); err != nil {
		return nil, err
	}
	if err := Charge(c, total*meter.CostPerChar); err != nil {
		return nil, err
	}
	return Str(strings.Repeat(s, int(n))), nil
}

func repeatSlice(c Ctx, elems []Value, n int64) ([]Value, error) {
	if n <= 0 || len(elems) == 0 {
		return nil, nil
	}
	if n > (1<<40)/int64(len(elems)) {
		return nil, Errorf(MemoryError, "")
	}
	total := uint64(n) * uint64(len(elems))
	if err := AllocSlots(c, meter.SizeListHeader, total, meter.SizePointer); err != nil {
		return nil, err
	}
	if err := Charge(c, total*meter.CostPerElem); err != nil {
		return nil, err
	}
	out := make([]Value, 0, total)
	for i := int64(0); i < n; i++ {
		out = append(out, elems...)
	}
	return out, nil
}

func isSetOp(op Op) bool { return op == OpAnd || op == OpOr || op == OpSub || op == OpXor }

func setFromIterable(c Ctx, v Value) (*Set, error) {
	s := NewSet(false)
	err := IterateInto(c, v, s, func(x Value) error { return s.Add(c, x) })
	return s, err
}

func setBinary(c Ctx, op Op, a, b *Set) (Value, error) {
	out := NewSet(a.Frozen)
	switch op {
	case OpOr:
		for _, s := range []*Set{a, b} {
			for _, x := range s.Elems() {
				if err := out.Add(c, x); err != nil {
					return nil, err
				}
			}
		}
	case OpAnd, OpSub:
		for _, x := range a.Elems() {
			in, err := b.Has(c, x)
			if err != nil {
				return nil, err
			}
			if in == (op == OpAnd) {
				if err := out.Add(c, x); err != nil {
					return nil, err
				}
			}
		}
	case OpXor:
		for _, pair := range [][2]*Set{{a, b}, {b, a}} {
			for _, x := range pair[0].Elems() {
				in, err := pair[1].Has(c, x)
				if err != nil {
					return nil, err
				}
				if !in {
					if err := out.Add(c, x); err != nil {
						return nil, err
					}
				}
			}
		}
	default:
		return nil, nil
	}
	return out, nil
}

// Unary evaluates -x, +x, ~x (and abs for the builtin).
func Unary(c Ctx, op Op, x Value) (Value, error) {
	switch a := x.(type) {
	case Int, Bool, *BigInt:
		return intUnary(op, a)
	case Float:
		switch op {
		case OpNeg:
			return Float(fl(softfloat.Neg(sf(float64(a))))), nil
		case OpPos:
			return a, nil
		case OpAbs:
			return Float(fl(softfloat.Abs(sf(float64(a))))), nil
		}
	case *Instance:
		name := map[Op]string{OpNeg: "__neg__", OpPos: "__pos__", OpInvert: "__invert__", OpAbs: "__abs__"}[op]
		if m, _ := a.Class.Lookup(name); m != nil {
			return callSelf(c, m, a)
		}
	}
	if op == OpAbs {
		return nil, Errorf(TypeError, "bad operand type for abs(): '%s'", TypeName(x))
	}
	return nil, Errorf(TypeError, "bad operand type for unary %s: '%s'", op.Symbol(), TypeName(x))
}

// Contains is `x in container`.
func Contains(c Ctx, container, x Value) (bool, error) {
	switch s := container.(type) {
	case Str:
		sub, ok := x.(Str)
		if !ok {
			return false, Errorf(TypeError, "'in <string>' requires string as left operand, not %s", TypeName(x))
		}
		if err := Charge(c, uint64(len(s))*meter.CostPerChar/8); err != nil {
			return false, err
		}
		return strings.Contains(string(s), string(sub)), nil
	case Bytes, *ByteArray:
		hay, _ := bytesLike(s)
		if isIntLike(x) {
			i, ok := AsInt64(x)
			if !ok || i < 0 || i > 255 {
				return false, Errorf(ValueError, "byte must be in range(0, 256)")
			}
			return strings.IndexByte(string(hay), byte(i)) >= 0, nil
		}
		sub, ok := bytesLike(x)
		if !ok {
			return false, Errorf(TypeError, "a bytes-like object is required, not '%s'", TypeName(x))
		}
		return strings.Contains(string(hay), string(sub)), nil
	case *Dict:
		_, ok, err := s.Get(c, x)
		return ok, err
	case *Set:
		return s.Has(c, x)
	case *DictView:
		if s.Kind == 0 {
			_, ok, err := s.D.Get(c, x)
			return ok, err
		}
	case *Range:
		if i, ok := AsInt64(x); ok {
			if s.Step > 0 {
				return i >= s.Start && i < s.Stop && (i-s.Start)%s.Step == 0, nil
			}
			return i <= s.Start && i > s.Stop && (s.Start-i)%(-s.Step) == 0, nil
		}
	case *List:
		return containsSlice(c, s.Elems, x)
	case Tuple:
		return containsSlice(c, s, x)
	case *Instance:
		if m, _ := s.Class.Lookup("__contains__"); m != nil {
			r, err := c.Call(m, []Value{s, x}, nil)
			if err != nil {
				return false, err
			}
			return Truth(c, r)
		}
	case *Class:
		if m := MetaMethod(s, "__contains__"); m != nil {
			r, err := CallMeta(c, m, s, x)
			if err != nil {
				return false, err
			}
			return Truth(c, r)
		}
	}
	it, err := Iter(c, container)
	if err != nil {
		if e, ok := err.(*Exception); ok && e.Value.Class == TypeError {
			return false, Errorf(TypeError, "argument of type '%s' is not iterable", TypeName(container))
		}
		return false, err
	}
	for {
		v, ok, err := Next(c, it)
		if err != nil || !ok {
			return false, err
		}
		if err := Charge(c, meter.CostPerElem); err != nil {
			return false, err
		}
		eq, err := Equal(c, v, x)
		if err != nil || eq {
			return eq, err
		}
	}
}

func containsSlice(c Ctx, elems []Value, x Value) (bool, error) {
	for i := 0; i < len(elems); i++ {
		if err := Charge(c, meter.CostPerElem); err != nil {
			return false, err
		}
		eq, err := Equal(c, elems[i], x)
		if err != nil || eq {
			return eq, err
		}
	}
	return false, nil
}

// Iter is iter(v).
func Iter(c Ctx, v Value) (Value, error) {
	switch x := v.(type) {
	case *List, Tuple, Str, Bytes, *ByteArray:
		return &seqIter{seq: v}, nil
	case *Range:
		return &rangeIter{next: x.Start, step: x.Step, left: x.Len()}, nil
	case *Dict:
		return dictIter(x, 0), nil
	case *Set:
		return newHashIter(&x.ht, 0, true), nil
	case *DictView:
		return dictIter(x.D, x.Kind), nil
	case Iterator:
		return x, nil
	case *Instance:
		if m := x.Class.lookupDunder(dIter); m != nil {
			it, err := callSelf(c, m, x)
			if err != nil {
				return nil, err
			}
			if !isIterator(it) {
				return nil, Errorf(TypeError, "iter() returned non-iterator of type '%s'", TypeName(it))
			}
			return it, nil
		}
		if m, _ := x.Class.Lookup("__getitem__"); m != nil {
			return &getitemIter{obj: x}, nil
		}
	case *Class:
		if m := MetaMethod(x, "__iter__"); m != nil {
			it, err := CallMeta(c, m, x)
			if err != nil {
				return nil, err
			}
			if !isIterator(it) {
				return nil, Errorf(TypeError, "iter() returned non-iterator of type '%s'", TypeName(it))
			}
			return it, nil
		}
	}
	return nil, Errorf(TypeError, "'%s' object is not iterable", TypeName(v))
}

// IsIterable reports whether iter(v) gets past the type check (CPython's
// tp_iter or the sequence protocol), without calling anything.
func IsIterable(v Value) bool {
	switch x := v.(type) {
	case *List, Tuple, Str, Bytes, *ByteArray, *Range, *Dict, *Set, *DictView, Iterator:
		return true
	case *Instance:
		if m := x.Class.lookupDunder(dIter); m != nil {
			return true
		}
		m, _ := x.Class.Lookup("__getitem__")
		return m != nil
	case *Class:
		return MetaMethod(x, "__iter__") != nil
	}
	return false
}

func isIterator(v Value) bool {
	switch x := v.(type) {
	case Iterator:
		return true
	case *Instance:
		m := x.Class.lookupDunder(dNext)
		return m != nil
	}
	return false
}

// Next advances an iterator; ok is false when it is exhausted.
func Next(c Ctx, it Value) (Value, bool, error) {
	// The commonest iterators first: a type test each, where the
	// Iterator case is an interface lookup.
	switch x := it.(type) {
	case *seqIter:
		return x.Next(c)
	case *rangeIter:
		return x.Next(c)
	case Iterator:
		return x.Next(c)
	case *Instance:
		if m := x.Class.lookupDunder(dNext); m != nil {
			r, err := callSelf(c, m, x)
			if err != nil {
				if e, ok := err.(*Exception); ok && e.Value.Class.IsSubclass(StopIteration) {
					return nil, false, nil
				}
				return nil, false, err
			}
			return r, true, nil
		}
	}
	return nil, false, Errorf(TypeError, "'%s' object is not an iterator", TypeName(it))
}

// getitemIter is the old sequence protocol: __getitem__ with 0, 1, ... until
// IndexError.
type getitemIter struct {
	obj *Instance
	i   int64
}

// Type implements Value.
func (*getitemIter) Type() *Class { return IteratorClass }

// Repr implements Value.
func (*getitemIter) Repr(Ctx) (string, error) { return "<iterator object>", nil }

// Truth implements Value.
func (*getitemIter) Truth(Ctx) (bool, error) { return true, nil }

// Hash implements Value.
func (*getitemIter) Hash(Ctx) (int64, error) { return 0x67657469, nil }

// Next implements Iterator.
func (it *getitemIter) Next(c Ctx) (Value, bool, error) {
	r, err := GetItem(c, it.obj, Int(it.i))
	if err != nil {
		if e, ok := err.(*Exception); ok && (e.Value.Class.IsSubclass(IndexError) || e.Value.Class.IsSubclass(StopIteration)) {
			return nil, false, nil
		}
		return nil, false, err
	}
	it.i++
	return r, true, nil
}

// Iterate calls f for each element of v, charging per element.
func Iterate(c Ctx, v Value, f func(Value) error) error {
	switch x := v.(type) {
	case *List:
		for i := 0; i < len(x.Elems); i++ {
			if err := Charge(c, meter.CostPerElem); err != nil {
				return err
			}
			if err := f(x.Elems[i]); err != nil {
				return err
			}
		}
		return nil
	case Tuple:
		for _, e := range x {
			if err := Charge(c, meter.CostPerElem); err != nil {
				return err
			}
			if err := f(e); err != nil {
				return err
			}
		}
		return nil
	}
	it, err := Iter(c, v)
	if err != nil {
		return err
	}
	if x, ok := it.(Iterator); ok {
		// What Next calls for an Iterator on every element, with its
		// type test (an interface conversion) done once here.
		for {
			e, ok, err := x.Next(c)
			if err != nil || !ok {
				return err
			}
			if err := Charge(c, meter.CostPerElem); err != nil {
				return err
			}
			if err := f(e); err != nil {
				return err
			}
		}
	}
	for {
		e, ok, err := Next(c, it)
		if err != nil || !ok {
			return err
		}
		if err := Charge(c, meter.CostPerElem); err != nil {
			return err
		}
		if err := f(e); err != nil {
			return err
		}
	}
}

// ListOf collects an iterable into a new list (list(v)).
func ListOf(c Ctx, v Value) (*List, error) {
	elems, err := listElems(c, v, true)
	if err != nil {
		return nil, err
	}
	return &List{Elems: elems}, nil
}

// listElems is ListOf's work, charged exactly as ListOf: the elements of
// list(v). With mustCopy false, a list or tuple's own elements may be
// returned instead of a copy, for a caller that only reads them at once.
func listElems(c Ctx, v Value, mustCopy bool) ([]Value, error) {
	var out []Value
	if l, ok := v.(Lener); ok {
		if err := AllocSlots(c, meter.SizeListHeader, uint64(l.Len()), meter.SizePointer); err != nil {
			return nil, err
		}
		if src, ok := sequenceElems(v); ok {
			// Iterate charges CostPerElem per element; when all of them
			// fit in what is left, charging them at once ends the same.
			if m := c.Meter(); uint64(len(src))*meter.CostPerElem <= m.Left {
				m.Left -= uint64(len(src)) * meter.CostPerElem
				if !mustCopy {
					return src, nil
				}
				return append(make([]Value, 0, len(src)), src...), nil
			}
		}
		out = make([]Value, 0, l.Len())
		lst := &List{Elems: out}
		err := IterateInto(c, v, lst, func(e Value) error { lst.Elems = append(lst.Elems, e); return nil })
		return lst.Elems, err
	}
	if err := Alloc(c, meter.SizeListHeader); err != nil {
		return nil, err
	}
	lst := &List{}
	err := IterateInto(c, v, lst, func(e Value) error {
		if err := Alloc(c, meter.SizePointer); err != nil {
			return err
		}
		lst.Elems = append(lst.Elems, e)
		return nil
	})
	return lst.Elems, err
}

// sequenceElems returns the elements of a list or tuple.
func sequenceElems(v Value) ([]Value, bool) {
	switch x := v.(type) {
	case *List:
		return x.Elems, true
	case Tuple:
		return x, true
	}
	return nil, false
}

// joinItems is what str.join and bytes.join iterate over: a list or tuple
// itself, and any other iterable made into a list first, as CPython's
// PySequence_Fast does. So the iterable runs to its end before any item's
// type is checked: an error the iterator raises comes before the type
// error of an earlier item, and a generator is exhausted either way.
// Making the list is charged as list(v) is, so s.join(g) costs what
// s.join(list(g)) costs, less the call of list.
func joinItems(c Ctx, v Value) (Value, error) {
	if _, ok := sequenceElems(v); ok {
		return v, nil
	}
	it, err := Iter(c, v)
	if err != nil {
		// Only a TypeError becomes the join's own message; anything else
		// (an error raised by __iter__, running out of cycles) passes as
		// it is.
		var e *Exception
		if errors.As(err, &e) && e.Value.Class.IsSubclass(TypeError) {
			return nil, Errorf(TypeError, "can only join an iterable")
		}
		return nil, err
	}
	return ListOf(c, it)
}

func extendList(c Ctx, l *List, v Value) error {
	if o, ok := v.(*List); ok {
		src := o.Elems
		if err := AllocSlots(c, 0, uint64(len(src)), meter.SizePointer); err != nil {
			return err
		}
		if err := Charge(c, uint64(len(src))*meter.CostPerElem); err != nil {
			return err
		}
		l.Elems = append(l.Elems, src...)
		return nil
	}
	items, err := ListOf(c, v)
	if err != nil {
		return err
	}
	l.Elems = append(l.Elems, items.Elems...)
	return nil
}
