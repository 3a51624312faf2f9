package compile

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// expr compiles e so that it leaves exactly one value on the stack:
// [] -> [value]. Operands are evaluated left to right (Language Reference
// §6.16), and each operation's instruction is stamped with the first
// line of its own node, so an error in a multi-line expression points at
// the subexpression that raised rather than at the statement's first
// line.
func (c *compiler) expr(e syntax.Expr) error {
	line := exprLine(e)
	if err := c.nest(line); err != nil {
		return err
	}
	defer func() { c.nesting-- }()
	if line > 0 {
		c.b.line = int32(line)
	}
	switch n := e.(type) {
	case *syntax.Constant:
		v, err := constValue(n)
		if err != nil {
			return err
		}
		c.b.loadConst(v)
	case *syntax.Name:
		c.loadName(n.Id)
	case *syntax.Attribute:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.line = int32(line)
		c.b.emit(LOAD_ATTR, c.attrName(n.Attr))
	case *syntax.Subscript:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		if err := c.expr(n.Slice); err != nil {
			return err
		}
		c.b.line = int32(line)
		c.b.emit(BINARY_SUBSCR, 0)
	case *syntax.Slice:
		// x[a:b:c] (§6.3.3): an omitted bound is None; the step is only
		// pushed when written, and BUILD_SLICE 2 makes it None.
		for _, x := range []syntax.Expr{n.Lower, n.Upper} {
			if x == nil {
				c.b.loadConst(object.None)
			} else if err := c.expr(x); err != nil {
				return err
			}
		}
		if n.Step != nil {
			if err := c.expr(n.Step); err != nil {
				return err
			}
			c.b.emit(BUILD_SLICE, 3)
		} else {
			c.b.emit(BUILD_SLICE, 2)
		}
	case *syntax.BinOp:
		op, err := binOp(n.Op)
		if err != nil {
			return err
		}
		if err := c.expr(n.Left); err != nil {
			return err
		}
		if err := c.expr(n.Right); err != nil {
			return err
		}
		c.b.line = int32(line)
		c.b.emit(BINARY_OP, int(op))
	case *syntax.UnaryOp:
		if err := c.expr(n.Operand); err != nil {
			return err
		}
		c.b.line = int32(line)
		switch n.Op {
		case syntax.Not:
			c.b.emit(UNARY_NOT, 0)
		case syntax.USub:
			c.b.emit(UNARY_OP, int(object.OpNeg))
		case syntax.UAdd:
			c.b.emit(UNARY_OP, int(object.OpPos))
		case syntax.Invert:
			c.b.emit(UNARY_OP, int(object.OpInvert))
		default:
			return &SyntaxError{Line: line, Msg: "unknown unary operator"}
		}
	case *syntax.BoolOp:
		// `and` and `or` yield the last operand they evaluated, not a
		// bool (§6.11): JUMP_IF_*_OR_POP leaves the deciding operand on
		// the stack and jumps to the end, otherwise drops it and goes on
		// to the next.
		end := c.b.newLabel()
		op := JUMP_IF_FALSE_OR_POP
		if n.Op == syntax.Or {
			op = JUMP_IF_TRUE_OR_POP
		}
		for i, v := range n.Values {
			if err := c.expr(v); err != nil {
				return err
			}
			if i < len(n.Values)-1 {
				c.b.jump(op, end)
			}
		}
		c.b.bind(end)
	case *syntax.Compare:
		return c.compare(n)
	case *syntax.IfExp:
		// `body if test else orelse` (§6.13): only one branch runs.
		orelse, end := c.b.newLabel(), c.b.newLabel()
		if err := c.cond(n.Test, orelse, false); err != nil {
			return err
		}
		if err := c.expr(n.Body); err != nil {
			return err
		}
		c.b.jump(JUMP, end)
		c.b.bind(orelse)
		if err := c.expr(n.Orelse); err != nil {
			return err
		}
		c.b.bind(end)
	case *syntax.NamedExpr:
		// `(name := value)` (§6.12) both stores and yields the value. In
		// a comprehension the scope pass has made name a free variable
		// (or global) of the comprehension, so storeName reaches the
		// enclosing function's binding.
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(DUP_TOP, 0)
		nm, ok := n.Target.(*syntax.Name)
		if !ok {
			return &SyntaxError{Line: line, Msg: "cannot use assignment expressions with this target"}
		}
		c.storeName(nm.Id)
	case *syntax.Tuple:
		return c.sequence(n.Elts, BUILD_TUPLE, line)
	case *syntax.List:
		return c.sequence(n.Elts, BUILD_LIST, line)
	case *syntax.Set:
		return c.sequence(n.Elts, BUILD_SET, line)
	case *syntax.Dict:
		return c.dict(n)
	case *syntax.Call:
		return c.call(n)
	case *syntax.Lambda:
		return c.function(n, "<lambda>", n.Args, nil, n.Body, line)
	case *syntax.ListComp:
		return c.comprehension(n, n.Generators, BUILD_LIST, "<listcomp>", n.Elt, nil)
	case *syntax.SetComp:
		return c.comprehension(n, n.Generators, BUILD_SET, "<setcomp>", n.Elt, nil)
	case *syntax.DictComp:
		return c.comprehension(n, n.Generators, BUILD_MAP, "<dictcomp>", n.Key, n.Value)
	case *syntax.GeneratorExp:
		return c.comprehension(n, n.Generators, NOP, "<genexpr>", n.Elt, nil)
	case *syntax.Yield:
		// `yield x` (§6.2.9) evaluates to the value sent in on resume.
		if n.Value != nil {
			if err := c.expr(n.Value); err != nil {
				return err
			}
		} else {
			c.b.loadConst(object.None)
		}
		c.b.emit(YIELD_VALUE, 0)
	case *syntax.YieldFrom:
		// `yield from x` (PEP 380): YIELD_FROM starts the subiterator
		// with the None pushed here, passes on each value it yields and
		// each value sent in, and finally leaves its return value.
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(GET_YIELD_FROM_ITER, 0)
		c.b.loadConst(object.None)
		c.b.emit(YIELD_FROM, 0)
	case *syntax.Await:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.await()
	case *syntax.JoinedStr:
		return c.joinedStr(n)
	case *syntax.FormattedValue:
		if err := c.formattedValue(n); err != nil {
			return err
		}
	case *syntax.Starred:
		// *x is handled by the displays, calls and assignment targets
		// that allow it; anywhere else it is CPython's error.
		return &SyntaxError{Line: line, Msg: "can't use starred expression here"}
	default:
		return &SyntaxError{Line: line, Msg: "PVM: unsupported expression"}
	}
	return nil
}

// constValue converts a literal to a PVM value. The tokenizer gives ints
// that fit as int64 and the rest as *big.Int; a literal beyond the PVM's
// 4096-bit integer bound is a SyntaxError here rather than a failure at
// run time, since the constant would be built before any code runs.
func constValue(n *syntax.Constant) (object.Value, error) {
	switch v := n.Value.(type) {
	case nil:
		return object.None, nil
	case bool:
		return object.MakeBool(v), nil
	case int64:
		return object.Int(v), nil
	case int:
		return object.Int(v), nil
	case *big.Int:
		r, err := object.MakeBigInt(new(big.Int).Set(v))
		if err != nil {
			return nil, &SyntaxError{Line: n.Line, Msg: "integer literal exceeds the 4096-bit limit"}
		}
		return r, nil
	case float64:
		return object.Float(v), nil
	case string:
		if n.Kind == syntax.BytesConst {
			return object.Bytes(v), nil
		}
		return object.Str(v), nil
	case []byte:
		return object.Bytes(v), nil
	}
	if n.Kind == syntax.EllipsisConst {
		return object.Ellipsis, nil
	}
	return nil, &SyntaxError{Line: n.Line, Msg: "PVM: unsupported literal"}
}

// binOp maps a binary or augmented-assignment operator to the object.Op
// that BINARY_OP and INPLACE_OP carry in their Arg.
func binOp(op syntax.Operator) (object.Op, error) {
	switch op {
	case syntax.Add:
		return object.OpAdd, nil
	case syntax.Sub:
		return object.OpSub, nil
	case syntax.Mult:
		return object.OpMul, nil
	case syntax.Div:
		return object.OpTrueDiv, nil
	case syntax.FloorDiv:
		return object.OpFloorDiv, nil
	case syntax.Mod:
		return object.OpMod, nil
	case syntax.Pow:
		return object.OpPow, nil
	case syntax.LShift:
		return object.OpLShift, nil
	case syntax.RShift:
		return object.OpRShift, nil
	case syntax.BitAnd:
		return object.OpAnd, nil
	case syntax.BitOr:
		return object.OpOr, nil
	case syntax.BitXor:
		return object.OpXor, nil
	case syntax.MatMult:
		return object.OpMatMul, nil
	}
	return 0, &SyntaxError{Msg: "unknown binary operator"}
}

// emitCompareOp emits one comparison operator: [a b] -> [result]. `is`
// and `in` have their own opcodes because they never call __eq__/__lt__
// and friends (§6.10.2, §6.10.3); `is not` and `not in` are the same
// instructions with Arg 1, as in CPython 3.11.
func (c *compiler) emitCompareOp(op syntax.CmpOp) error {
	switch op {
	case syntax.Eq:
		c.b.emit(COMPARE_OP, int(object.OpEq))
	case syntax.NotEq:
		c.b.emit(COMPARE_OP, int(object.OpNe))
	case syntax.Lt:
		c.b.emit(COMPARE_OP, int(object.OpLt))
	case syntax.LtE:
		c.b.emit(COMPARE_OP, int(object.OpLe))
	case syntax.Gt:
		c.b.emit(COMPARE_OP, int(object.OpGt))
	case syntax.GtE:
		c.b.emit(COMPARE_OP, int(object.OpGe))
	case syntax.Is:
		c.b.emit(IS_OP, 0)
	case syntax.IsNot:
		c.b.emit(IS_OP, 1)
	case syntax.In:
		c.b.emit(CONTAINS_OP, 0)
	case syntax.NotIn:
		c.b.emit(CONTAINS_OP, 1)
	default:
		return &SyntaxError{Msg: "unknown comparison operator"}
	}
	return nil
}

// compare compiles a comparison. A chain `a < b < c` is `a < b and b < c`
// with b evaluated once (§6.10): each middle operand is duplicated and
// rotated under the result,
//
//	[a b] DUP_TOP [a b b] ROT_THREE [b a b] COMPARE_OP [b r]
//	JUMP_IF_FALSE_OR_POP cleanup -> [b], then the next operand
//
// and a false link leaves [b r], which cleanup turns into [r].
func (c *compiler) compare(n *syntax.Compare) error {
	if err := c.expr(n.Left); err != nil {
		return err
	}
	if len(n.Ops) == 1 {
		if err := c.expr(n.Comparators[0]); err != nil {
			return err
		}
		c.b.line = int32(n.Line)
		return c.emitCompareOp(n.Ops[0])
	}
	cleanup, end := c.b.newLabel(), c.b.newLabel()
	for i, op := range n.Ops {
		if err := c.expr(n.Comparators[i]); err != nil {
			return err
		}
		c.b.line = int32(n.Line)
		if i < len(n.Ops)-1 {
			c.b.emit(DUP_TOP, 0)
			c.b.emit(ROT_THREE, 0)
			if err := c.emitCompareOp(op); err != nil {
				return err
			}
			c.b.jump(JUMP_IF_FALSE_OR_POP, cleanup)
		} else if err := c.emitCompareOp(op); err != nil {
			return err
		}
	}
	c.b.jump(JUMP, end)
	c.b.bind(cleanup)
	c.b.emit(ROT_TWO, 0)
	c.b.emit(POP_TOP, 0)
	c.b.bind(end)
	return nil
}

// cond evaluates e and jumps to target when its truth equals jumpIf,
// leaving nothing on the stack: the condition of an if, while, assert,
// comprehension filter or match guard. `not`, `and` and `or` become jumps
// instead of values (CPython's compiler_jump_if), so `if a and b:` tests
// each operand's truth once and builds no intermediate result.
func (c *compiler) cond(e syntax.Expr, target *label, jumpIf bool) error {
	switch n := e.(type) {
	case *syntax.UnaryOp:
		if n.Op == syntax.Not {
			return c.cond(n.Operand, target, !jumpIf)
		}
	case *syntax.BoolOp:
		isAnd := n.Op == syntax.And
		if isAnd != jumpIf {
			// and-jump-if-false / or-jump-if-true: each operand may jump.
			for _, v := range n.Values {
				if err := c.cond(v, target, jumpIf); err != nil {
					return err
				}
			}
			return nil
		}
		skip := c.b.newLabel()
		for i, v := range n.Values {
			if i < len(n.Values)-1 {
				if err := c.cond(v, skip, !jumpIf); err != nil {
					return err
				}
			} else if err := c.cond(v, target, jumpIf); err != nil {
				return err
			}
		}
		c.b.bind(skip)
		return nil
	}
	if err := c.expr(e); err != nil {
		return err
	}
	if jumpIf {
		c.b.jump(POP_JUMP_IF_TRUE, target)
	} else {
		c.b.jump(POP_JUMP_IF_FALSE, target)
	}
	return nil
}

// hasStarred reports whether a display or call has a *x element.
func hasStarred(elts []syntax.Expr) bool {
	for _, e := range elts {
		if _, ok := e.(*syntax.Starred); ok {
			return true
		}
	}
	return false
}

// sequence compiles a tuple, list or set display (§6.2.5, §6.2.6,
// §6.15). Without *x it is BUILD_* of the elements. With *x the
// container is built empty and grown element by element (LIST_APPEND /
// LIST_EXTEND, or SET_ADD / SET_UPDATE, each with depth 1: the container
// is just below the operand), as CPython 3.11 does; a tuple is built as
// a list and converted at the end.
func (c *compiler) sequence(elts []syntax.Expr, build Opcode, line int) error {
	if !hasStarred(elts) {
		for _, e := range elts {
			if err := c.expr(e); err != nil {
				return err
			}
		}
		c.b.line = int32(line)
		c.b.emit(build, len(elts))
		return nil
	}
	container, add, extend := BUILD_LIST, LIST_APPEND, LIST_EXTEND
	if build == BUILD_SET {
		container, add, extend = BUILD_SET, SET_ADD, SET_UPDATE
	}
	c.b.emit(container, 0)
	for _, e := range elts {
		if s, ok := e.(*syntax.Starred); ok {
			if err := c.expr(s.Value); err != nil {
				return err
			}
			c.b.emit(extend, 1)
		} else {
			if err := c.expr(e); err != nil {
				return err
			}
			c.b.emit(add, 1)
		}
	}
	if build == BUILD_TUPLE {
		c.b.emit(LIST_TO_TUPLE, 0)
	}
	return nil
}

// dict compiles a dict display (§6.2.7); a nil key marks a **m element.
// With any **m the dict is built empty and filled in source order (MAP_ADD
// for k: v, DICT_UPDATE for **m), so a later key replaces an earlier one.
func (c *compiler) dict(n *syntax.Dict) error {
	unpack := false
	for _, k := range n.Keys {
		if k == nil {
			unpack = true
		}
	}
	if !unpack {
		for i, k := range n.Keys {
			if err := c.expr(k); err != nil {
				return err
			}
			if err := c.expr(n.Values[i]); err != nil {
				return err
			}
		}
		c.b.emit(BUILD_MAP, len(n.Keys))
		return nil
	}
	c.b.emit(BUILD_MAP, 0)
	for i, k := range n.Keys {
		if k == nil {
			if err := c.expr(n.Values[i]); err != nil {
				return err
			}
			c.b.emit(DICT_UPDATE, 1)
			continue
		}
		if err := c.expr(k); err != nil {
			return err
		}
		if err := c.expr(n.Values[i]); err != nil {
			return err
		}
		c.b.emit(MAP_ADD, 1)
	}
	return nil
}

// isZeroArgSuper reports a `super()` call the compiler can complete
// itself: in a function nested in a class (so __class__ is a free
// variable, addClassCells), with at least one parameter, and with super
// not bound locally. CPython's super() finds the class cell and the first
// argument in the calling frame at run time; here they are passed
// explicitly, so call compiles it as super(__class__, <first parameter>).
func (c *compiler) isZeroArgSuper(n *syntax.Call) bool {
	nm, ok := n.Func.(*syntax.Name)
	if !ok || nm.Id != "super" || len(n.Args) != 0 || len(n.Keywords) != 0 {
		return false
	}
	if c.sc.kind != functionScope || c.sc.resolved["super"] != bindGlobal {
		return false
	}
	_, has := c.b.cellIdx["__class__"]
	return has && len(c.sc.params) > 0
}

// call compiles a call (§6.3.4) in the cheapest of four shapes:
//
//   - obj.name(args), no keywords or unpacking: LOAD_METHOD and
//     CALL_METHOD, which call a method without making a bound-method
//     object (as CPython 3.11's LOAD_METHOD does);
//   - f(args): CALL;
//   - f(args, k=v): CALL_KW, the keyword names a constant tuple on top;
//   - anything with *x or **m: the positional arguments built into a
//     tuple and the keywords into a dict, then CALL_EX.
//
// A keyword given twice is a SyntaxError, as in CPython; one repeated
// through **m is the TypeError DICT_MERGE raises at run time.
func (c *compiler) call(n *syntax.Call) error {
	line := n.Line
	if c.isZeroArgSuper(n) {
		c.loadName("super")
		c.b.emit(LOAD_DEREF, c.b.cellIdx["__class__"])
		c.loadName(c.sc.params[0])
		c.b.line = int32(line)
		c.b.emit(CALL, 2)
		return nil
	}
	starred := hasStarred(n.Args)
	dstar := false
	for _, k := range n.Keywords {
		if k.Arg == "" {
			dstar = true
		}
	}
	// obj.name(args): [obj] LOAD_METHOD [meth obj] args CALL_METHOD.
	if attr, ok := n.Func.(*syntax.Attribute); ok && !starred && !dstar && len(n.Keywords) == 0 {
		if err := c.expr(attr.Value); err != nil {
			return err
		}
		c.b.line = int32(attr.Line)
		c.b.emit(LOAD_METHOD, c.attrName(attr.Attr))
		for _, a := range n.Args {
			if err := c.expr(a); err != nil {
				return err
			}
		}
		c.b.line = int32(line)
		c.b.emit(CALL_METHOD, len(n.Args))
		return nil
	}
	if err := c.expr(n.Func); err != nil {
		return err
	}
	if !starred && !dstar {
		for _, a := range n.Args {
			if err := c.expr(a); err != nil {
				return err
			}
		}
		if len(n.Keywords) == 0 {
			c.b.line = int32(line)
			c.b.emit(CALL, len(n.Args))
			return nil
		}
		// f(a, k=v): the keyword values follow the positional ones and
		// a constant tuple names them: [f a v ('k',)] CALL_KW 2.
		names := make(object.Tuple, len(n.Keywords))
		for i, k := range n.Keywords {
			for _, prev := range names[:i] {
				if string(prev.(object.Str)) == k.Arg {
					return &SyntaxError{Line: line, Msg: "keyword argument repeated: " + k.Arg}
				}
			}
			names[i] = object.Str(k.Arg)
			if err := c.expr(k.Value); err != nil {
				return err
			}
		}
		c.b.loadConst(names)
		c.b.line = int32(line)
		c.b.emit(CALL_KW, len(n.Args)+len(n.Keywords))
		return nil
	}
	// With *x or **m: [f] BUILD_LIST, then each positional argument
	// appended or each *x extended into it, LIST_TO_TUPLE; then, if there
	// are keywords, a dict filled in order (MAP_ADD for k=v, DICT_MERGE
	// for **m); CALL_EX.
	c.b.emit(BUILD_LIST, 0)
	for _, a := range n.Args {
		if s, ok := a.(*syntax.Starred); ok {
			if err := c.expr(s.Value); err != nil {
				return err
			}
			if len(n.Args) == 1 {
				// f(*x): CPython checks x in the call and names f; with
				// other positional arguments it builds a list first
				// ("Value after * must be an iterable").
				c.b.emit(LIST_EXTEND, 1|CallArgs)
			} else {
				c.b.emit(LIST_EXTEND, 1)
			}
		} else {
			if err := c.expr(a); err != nil {
				return err
			}
			c.b.emit(LIST_APPEND, 1)
		}
	}
	c.b.emit(LIST_TO_TUPLE, 0)
	flags := 0
	if len(n.Keywords) > 0 {
		flags = 1
		c.b.emit(BUILD_MAP, 0)
		merged := false
		for _, k := range n.Keywords {
			if k.Arg == "" {
				if err := c.expr(k.Value); err != nil {
					return err
				}
				c.b.emit(DICT_MERGE, 1)
				merged = true
				continue
			}
			c.b.loadConst(object.Str(k.Arg))
			if err := c.expr(k.Value); err != nil {
				return err
			}
			if merged {
				// f(**m, k=v): k may have come from m, which is
				// CPython's "got multiple values" (it merges k=v as a
				// dict too).
				c.b.emit(MAP_ADD, 1|CallArgs)
			} else {
				c.b.emit(MAP_ADD, 1)
			}
		}
	}
	c.b.line = int32(line)
	c.b.emit(CALL_EX, flags)
	return nil
}

// comprehension compiles a list/set/dict comprehension or generator
// expression as a nested function called with the first iterable, as
// CPython 3.11 does (so the loop variables do not leak; §6.2.4). The
// first iterable is evaluated, and iter() taken, in the enclosing scope
// (errors there are raised before the function runs), and passed as the
// hidden parameter ".0":
//
//	iter(first) MAKE_FUNCTION [it fn] ROT_TWO [fn it] CALL 1
//
// The function builds and returns the container, or, for a generator
// expression (build NOP), is a generator that yields each element.
func (c *compiler) comprehension(node any, gens []*syntax.Comprehension, build Opcode, name string, elt, val syntax.Expr) error {
	line := exprLine(node.(syntax.Expr))
	sc := c.scopes[node]
	code := &Code{Name: name, QualName: c.qualName(name), Filename: c.filename, FirstLine: line, ArgCount: 1}
	if err := c.expr(gens[0].Iter); err != nil {
		return err
	}
	c.b.emit(GET_ITER, 0)
	saved := *c
	code.Varnames, code.Cellvars, code.Freevars = sc.varnames, sc.cellvars, sc.freevars
	code.Generator = sc.generator || sc.coroutine
	code.Coroutine = sc.coroutine
	code.CellArg = make([]int, len(sc.cellvars))
	for i, cv := range sc.cellvars {
		code.CellArg[i] = -1
		for j, p := range sc.varnames {
			if p == cv {
				code.CellArg[i] = j
			}
		}
	}
	c.sc, c.b, c.fblocks = sc, newBuilder(code), nil
	c.qual = code.QualName
	c.b.line = int32(line)
	if build != NOP {
		c.b.emit(build, 0)
	}
	err := c.compGen(gens, 0, build, elt, val)
	if err == nil {
		if build == NOP {
			c.b.loadConst(object.None)
		}
		c.b.emit(RETURN_VALUE, 0)
		err = c.b.finish()
	}
	c.sc, c.b, c.fblocks, c.qual = saved.sc, saved.b, saved.fblocks, saved.qual
	if err != nil {
		return err
	}
	c.makeFunction(code, 0)
	c.b.emit(ROT_TWO, 0)
	c.b.emit(CALL, 1)
	if sc.coroutine {
		// A comprehension that awaits is itself a coroutine (PEP 530).
		c.await()
	}
	return nil
}

// compGen emits the loop of the i-th `for` clause of a comprehension and,
// inside it, the next clause or, in the innermost, the element. Each
// loop's iterator stays on the stack while the loop runs, so the
// container sits i+1 iterators below the element: the depth LIST_APPEND,
// SET_ADD and MAP_ADD are given. An `if` clause that is false jumps
// straight back to its loop's FOR_ITER.
func (c *compiler) compGen(gens []*syntax.Comprehension, i int, build Opcode, elt, val syntax.Expr) error {
	g := gens[i]
	if i == 0 {
		c.b.emit(LOAD_FAST, c.b.varIndex[".0"])
	} else {
		if err := c.expr(g.Iter); err != nil {
			return err
		}
		c.b.emit(GET_ITER, 0)
	}
	top, exit := c.b.newLabel(), c.b.newLabel()
	c.b.bind(top)
	c.b.jump(FOR_ITER, exit)
	if err := c.assign(g.Target); err != nil {
		return err
	}
	for _, cond := range g.Ifs {
		if err := c.cond(cond, top, false); err != nil {
			return err
		}
	}
	if i+1 < len(gens) {
		if err := c.compGen(gens, i+1, build, elt, val); err != nil {
			return err
		}
	} else {
		depth := i + 2 // the container sits below one iterator per loop
		switch build {
		case BUILD_LIST:
			if err := c.expr(elt); err != nil {
				return err
			}
			c.b.emit(LIST_APPEND, depth)
		case BUILD_SET:
			if err := c.expr(elt); err != nil {
				return err
			}
			c.b.emit(SET_ADD, depth)
		case BUILD_MAP:
			if err := c.expr(elt); err != nil {
				return err
			}
			if err := c.expr(val); err != nil {
				return err
			}
			c.b.emit(MAP_ADD, depth)
		case NOP:
			if err := c.expr(elt); err != nil {
				return err
			}
			c.b.emit(YIELD_VALUE, 0)
			c.b.emit(POP_TOP, 0)
		}
	}
	c.b.jump(JUMP, top)
	c.b.bind(exit)
	return nil
}

// joinedStr compiles an f-string (§2.4.3): each literal piece is a str
// constant, each {field} a FORMAT_VALUE, and BUILD_STRING joins them; one
// piece needs no join, and f"" is the empty string.
func (c *compiler) joinedStr(n *syntax.JoinedStr) error {
	if len(n.Values) == 0 {
		c.b.loadConst(object.Str(""))
		return nil
	}
	for _, v := range n.Values {
		switch x := v.(type) {
		case *syntax.Constant:
			val, err := constValue(x)
			if err != nil {
				return err
			}
			c.b.loadConst(val)
		case *syntax.FormattedValue:
			if err := c.formattedValue(x); err != nil {
				return err
			}
		default:
			if err := c.expr(v); err != nil {
				return err
			}
		}
	}
	if len(n.Values) > 1 {
		c.b.emit(BUILD_STRING, len(n.Values))
	}
	return nil
}

// formattedValue compiles one {value!conv:spec} field: FORMAT_VALUE's Arg
// is the conversion character ('s', 'r', 'a'; 0 for none; the parser's -1
// is none) and 0x100 when the spec, itself an f-string, is on the stack.
func (c *compiler) formattedValue(n *syntax.FormattedValue) error {
	if err := c.expr(n.Value); err != nil {
		return err
	}
	arg := 0
	if n.Conversion > 0 {
		arg = n.Conversion
	}
	if n.FormatSpec != nil {
		if err := c.expr(n.FormatSpec); err != nil {
			return err
		}
		arg |= 0x100
	}
	c.b.emit(FORMAT_VALUE, arg)
	return nil
}

// await emits the suspension of `await`: TOS becomes an awaitable's
// iterator, and YIELD_FROM drives it to its result (PEP 492).
func (c *compiler) await() {
	c.b.emit(GET_AWAITABLE, 0)
	c.b.loadConst(object.None)
	c.b.emit(YIELD_FROM, 0)
}
