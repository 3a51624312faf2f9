package compile

import (
	"math/big"

	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

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
		c.b.emit(LOAD_ATTR, c.b.nameIndex(n.Attr))
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
		if n.Value != nil {
			if err := c.expr(n.Value); err != nil {
				return err
			}
		} else {
			c.b.loadConst(object.None)
		}
		c.b.emit(YIELD_VALUE, 0)
	case *syntax.YieldFrom:
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
		return &SyntaxError{Line: line, Msg: "can't use starred expression here"}
	default:
		return &SyntaxError{Line: line, Msg: "PVM: unsupported expression"}
	}
	return nil
}

// constValue converts a literal to a PVM value.
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

// emitCompareOp emits one comparison operator.
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

// cond evaluates e and jumps to target when its truth equals jumpIf.
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

func hasStarred(elts []syntax.Expr) bool {
	for _, e := range elts {
		if _, ok := e.(*syntax.Starred); ok {
			return true
		}
	}
	return false
}

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
	if attr, ok := n.Func.(*syntax.Attribute); ok && !starred && !dstar && len(n.Keywords) == 0 {
		if err := c.expr(attr.Value); err != nil {
			return err
		}
		c.b.line = int32(attr.Line)
		c.b.emit(LOAD_METHOD, c.b.nameIndex(attr.Attr))
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
		for _, k := range n.Keywords {
			if k.Arg == "" {
				if err := c.expr(k.Value); err != nil {
					return err
				}
				c.b.emit(DICT_MERGE, 1)
				continue
			}
			c.b.loadConst(object.Str(k.Arg))
			if err := c.expr(k.Value); err != nil {
				return err
			}
			c.b.emit(MAP_ADD, 1)
		}
	}
	c.b.line = int32(line)
	c.b.emit(CALL_EX, flags)
	return nil
}

// comprehension compiles a list/set/dict comprehension or generator
// expression as a nested function called with the first iterable, as
// CPython 3.11 does (so the loop variables do not leak).
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
