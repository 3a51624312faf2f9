package object

import "math"

// Index is operator.index(v), CPython's PyNumber_Index: an int, a bool or
// an instance of a subclass of int is its own int value, with no
// __index__ call (a subclass's __index__ is not consulted); an instance
// of a class with __index__ is the int value of what that returns, which
// must be an int or an instance of a subclass of int (3.11 accepts the
// latter with a DeprecationWarning and takes its value, calling no second
// __index__). The result is always an Int or a *BigInt.
func Index(c Ctx, v Value) (Value, error) {
	if n, ok := exactInt(v); ok {
		return n, nil
	}
	if in, ok := v.(*Instance); ok {
		if m, _ := in.Class.Lookup("__index__"); m != nil {
			r, err := c.Call(m, []Value{in}, nil)
			if err != nil {
				return nil, err
			}
			if n, ok := exactInt(r); ok {
				return n, nil
			}
			return nil, Errorf(TypeError, "__index__ returned non-int (type %s)", TypeName(r))
		}
	}
	return nil, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
}

// exactInt is the int value of an int, a bool or an instance of a
// subclass of int.
func exactInt(v Value) (Value, bool) {
	switch x := v.(type) {
	case Int, *BigInt:
		return x, true
	case Bool:
		if x {
			return Int(1), true
		}
		return Int(0), true
	case *Instance:
		switch b := x.Base.(type) {
		case Int, *BigInt:
			return b, true
		}
	}
	return nil, false
}

// IndexArg is the argument conversion of the builtins that take an integer
// count, size or position (PyNumber_Index where CPython applies it:
// `[0] * n`, range(n), chr(n), bytes(n), round(x, n), list.pop(n),
// str.split(sep, n), int.to_bytes(n)): an instance of a class with
// __index__ becomes the int its __index__ returns. Any other value,
// including a subclass of int, is returned as it is, so the caller's own
// checks and messages stay as they were.
func IndexArg(c Ctx, v Value) (Value, error) {
	in, ok := v.(*Instance)
	if !ok {
		return v, nil
	}
	switch in.Base.(type) {
	case Int, *BigInt:
		return v, nil
	}
	m, _ := in.Class.Lookup("__index__")
	if m == nil {
		return v, nil
	}
	r, err := c.Call(m, []Value{in}, nil)
	if err != nil {
		return nil, err
	}
	if b := BaseOf(r); isIntLike(b) {
		return b, nil
	}
	return nil, Errorf(TypeError, "__index__ returned non-int (type %s)", TypeName(r))
}

// repeatByIndex is sequence repetition by an object with __index__
// (`[0] * n`, `n * 'ab'`): CPython's sq_repeat, reached after neither
// operand's __mul__/__rmul__ took the operation, converts the count with
// PyNumber_Index. ok is false when neither operand is such a pair.
func repeatByIndex(c Ctx, x, y Value) (Value, bool, error) {
	seq, count, seqFirst := x, y, true
	if !isSeq(BaseOf(x)) {
		seq, count, seqFirst = y, x, false
	}
	if !isSeq(BaseOf(seq)) {
		return nil, false, nil
	}
	in, ok := count.(*Instance)
	if !ok || isSeq(BaseOf(count)) {
		return nil, false, nil
	}
	if m, _ := in.Class.Lookup("__index__"); m == nil {
		return nil, false, nil
	}
	n, err := IndexArg(c, count)
	if err != nil {
		return nil, false, err
	}
	if seqFirst {
		r, err := Binary(c, OpMul, seq, n)
		return r, true, err
	}
	r, err := Binary(c, OpMul, n, seq)
	return r, true, err
}

// countArg is a Py_ssize_t argument (a count or a width: str.replace's
// count, zfill, ljust): an int or an object with __index__, an int beyond
// 64 bits is OverflowError and anything else TypeError, as CPython's
// argument clinic converts it.
func countArg(c Ctx, v Value) (int64, error) {
	v, err := IndexArg(c, v)
	if err != nil {
		return 0, err
	}
	if n, ok := AsInt64(v); ok {
		return n, nil
	}
	if _, big := BaseOf(v).(*BigInt); big {
		return 0, Errorf(OverflowError, "Python int too large to convert to C ssize_t")
	}
	return 0, Errorf(TypeError, "'%s' object cannot be interpreted as an integer", TypeName(v))
}

// sliceIndexArg is a start or end argument of index(), find() and the
// like (_PyEval_SliceIndex): an int or an object with __index__, an int
// beyond 64 bits clamped by its sign; anything else is TypeError msg.
func sliceIndexArg(c Ctx, v Value, msg string) (int64, error) {
	v, err := IndexArg(c, v)
	if err != nil {
		return 0, err
	}
	if n, ok := AsInt64(v); ok {
		return n, nil
	}
	if b, big := BaseOf(v).(*BigInt); big {
		if b.v.Sign() < 0 {
			return math.MinInt64, nil
		}
		return math.MaxInt64, nil
	}
	return 0, Errorf(TypeError, "%s", msg)
}

// The messages of sliceIndexArg: list.index and tuple.index take no
// None, the str and bytes methods do.
const (
	sliceIndexMsg       = "slice indices must be integers or have an __index__ method"
	sliceIndexOrNoneMsg = "slice indices must be integers or None or have an __index__ method"
)
