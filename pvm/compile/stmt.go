package compile

import (
	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// stmt compiles one statement. A statement leaves the value stack as it
// found it (a for loop's iterator and a with's __exit__ stay on the stack
// only while their body runs); the block stack (SETUP_*/POP_BLOCK) is
// balanced the same way. The line is set first so that every instruction
// of the statement is stamped with it unless an expression sets its own.
func (c *compiler) stmt(s syntax.Stmt) error {
	line := stmtLine(s)
	if err := c.nest(line); err != nil {
		return err
	}
	defer func() { c.nesting-- }()
	c.b.line = int32(line)
	switch n := s.(type) {
	case *syntax.ExprStmt:
		// Evaluated for its effect, the value dropped (§7.1).
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(POP_TOP, 0)
	case *syntax.Assign:
		// The value is evaluated once, before any target, then stored
		// into each target list from left to right (§7.2): every target
		// but the last stores a DUP_TOP copy.
		if err := c.expr(n.Value); err != nil {
			return err
		}
		// `a[s:t] = b[u:v]`: mark the load of b[u:v] so the VM may build
		// that list in the thread's scratch list (Code.SliceTemps).
		if len(n.Targets) == 1 && sliceSubscript(n.Value) && sliceSubscript(n.Targets[0]) {
			if last := len(c.b.code.Instrs) - 1; c.b.code.Instrs[last].Op == BINARY_SUBSCR {
				c.b.code.SliceTemps = setBit(c.b.code.SliceTemps, last)
			}
		}
		for i, t := range n.Targets {
			if i < len(n.Targets)-1 {
				c.b.emit(DUP_TOP, 0)
			}
			if err := c.assign(t); err != nil {
				return err
			}
		}
	case *syntax.AugAssign:
		return c.augAssign(n)
	case *syntax.AnnAssign:
		return c.annAssign(n, line)
	case *syntax.FunctionDef:
		// Decorators are evaluated top to bottom before the function is
		// made, and applied bottom to top after it (§8.7): each CALL 1
		// takes the function on top and the decorator below it.
		for _, d := range n.DecoratorList {
			if err := c.expr(d); err != nil {
				return err
			}
		}
		if err := c.function(n, n.Name, n.Args, n.Body, nil, n.Line); err != nil {
			return err
		}
		c.b.line = int32(line)
		for range n.DecoratorList {
			c.b.emit(CALL, 1)
		}
		c.storeName(n.Name)
	case *syntax.ClassDef:
		return c.class(n)
	case *syntax.Return:
		// The value is computed before leaving the enclosing blocks, so
		// a finally body runs after it (and may replace it with its own
		// return); unwindAll keeps it on top while popping loop
		// iterators and handler state.
		if n.Value != nil {
			if err := c.expr(n.Value); err != nil {
				return err
			}
		} else {
			c.b.loadConst(object.None)
		}
		if err := c.unwindAll(true); err != nil {
			return err
		}
		c.b.line = int32(line)
		c.b.emit(RETURN_VALUE, 0)
	case *syntax.Delete:
		for _, t := range n.Targets {
			if err := c.del(t); err != nil {
				return err
			}
		}
	case *syntax.If:
		// elif chains arrive as nested Ifs in Orelse.
		orelse := c.b.newLabel()
		end := c.b.newLabel()
		if err := c.cond(n.Test, orelse, false); err != nil {
			return err
		}
		if err := c.stmts(n.Body); err != nil {
			return err
		}
		if len(n.Orelse) > 0 {
			c.b.jump(JUMP, end)
		}
		c.b.bind(orelse)
		if err := c.stmts(n.Orelse); err != nil {
			return err
		}
		c.b.bind(end)
	case *syntax.While:
		// The test runs before every iteration; when it is false the
		// else clause runs. break jumps to brk, past the else clause
		// (§8.2); continue jumps back to the test.
		top, exit, brk := c.b.newLabel(), c.b.newLabel(), c.b.newLabel()
		c.b.bind(top)
		if err := c.cond(n.Test, exit, false); err != nil {
			return err
		}
		c.fblocks = append(c.fblocks, fblock{kind: fbWhile, cont: top, brk: brk})
		if err := c.stmts(n.Body); err != nil {
			return err
		}
		c.fblocks = c.fblocks[:len(c.fblocks)-1]
		c.b.jump(JUMP, top)
		c.b.bind(exit)
		if err := c.stmts(n.Orelse); err != nil {
			return err
		}
		c.b.bind(brk)
	case *syntax.For:
		if n.IsAsync {
			return c.asyncFor(n, line)
		}
		if err := c.expr(n.Iter); err != nil {
			return err
		}
		// The iterator stays on the stack for the whole loop: FOR_ITER
		// pushes each item above it and, when the iterator is exhausted,
		// pops it and jumps to the else clause. break must pop it
		// itself (below) and skips the else clause (§8.3).
		c.b.line = int32(line)
		c.b.emit(GET_ITER, 0)
		top, exit, brk := c.b.newLabel(), c.b.newLabel(), c.b.newLabel()
		c.b.bind(top)
		c.b.jump(FOR_ITER, exit)
		if err := c.assign(n.Target); err != nil {
			return err
		}
		c.fblocks = append(c.fblocks, fblock{kind: fbFor, cont: top, brk: brk})
		if err := c.stmts(n.Body); err != nil {
			return err
		}
		c.fblocks = c.fblocks[:len(c.fblocks)-1]
		c.b.jump(JUMP, top)
		c.b.bind(exit)
		if err := c.stmts(n.Orelse); err != nil {
			return err
		}
		c.b.bind(brk)
	case *syntax.Break, *syntax.Continue:
		// Leave every block between here and the innermost loop (a try's
		// finally body runs, a with's __exit__ is called), then jump.
		_, isBreak := s.(*syntax.Break)
		for i := len(c.fblocks) - 1; i >= 0; i-- {
			fb := c.fblocks[i]
			if fb.kind == fbWhile || fb.kind == fbFor {
				if err := c.unwindTo(i+1, false); err != nil {
					return err
				}
				c.b.line = int32(line)
				if isBreak {
					if fb.kind == fbFor {
						c.b.emit(POP_TOP, 0)
					}
					c.b.jump(JUMP, fb.brk)
				} else {
					c.b.jump(JUMP, fb.cont)
				}
				return nil
			}
		}
		if isBreak {
			return &SyntaxError{Line: line, Msg: "'break' outside loop"}
		}
		return &SyntaxError{Line: line, Msg: "'continue' not properly in loop"}
	case *syntax.Pass:
	case *syntax.Global, *syntax.Nonlocal:
		// Declarations only: the scope pass already bound the names.
	case *syntax.Raise:
		// RAISE's Arg counts what is on the stack: 0 re-raises the
		// exception being handled, 1 raises exc, 2 raises exc from cause
		// (§7.8).
		nargs := 0
		if n.Exc != nil {
			if err := c.expr(n.Exc); err != nil {
				return err
			}
			nargs = 1
			if n.Cause != nil {
				if err := c.expr(n.Cause); err != nil {
					return err
				}
				nargs = 2
			}
		}
		c.b.line = int32(line)
		c.b.emit(RAISE, nargs)
	case *syntax.Assert:
		// `assert test, msg` is `if not test: raise AssertionError(msg)`
		// (§7.3), always: there is no -O mode that strips asserts. msg
		// is evaluated only when the test fails.
		end := c.b.newLabel()
		if err := c.cond(n.Test, end, true); err != nil {
			return err
		}
		c.b.emit(LOAD_ASSERTION_ERROR, 0)
		if n.Msg != nil {
			if err := c.expr(n.Msg); err != nil {
				return err
			}
			c.b.emit(CALL, 1)
		}
		c.b.line = int32(line)
		c.b.emit(RAISE, 1)
		c.b.bind(end)
	case *syntax.Try:
		return c.try(n)
	case *syntax.With:
		if n.IsAsync {
			return c.asyncWith(n.Items, n.Body, line)
		}
		return c.with(n.Items, n.Body, line)
	case *syntax.Import:
		// `import a.b` imports a, then a.b (which the VM sets as a's
		// attribute b, as CPython does), and binds a: IMPORT_NAME with
		// ImportTop. `import a.b as c` asks for a.b itself and binds it
		// to c. A name without a dot is a plain IMPORT_NAME. The
		// operand is a fromlist the VM ignores.
		for _, a := range n.Names {
			c.b.loadConst(object.None)
			// CPython mangles the module name too (a dotted one is
			// left alone): `import __m` in a class body imports _C__m.
			name := c.sc.mangle(a.Name)
			if a.Asname == "" && name != firstComponent(name) {
				c.b.emit(IMPORT_NAME, c.b.nameIndex(name)|ImportTop)
			} else {
				c.b.emit(IMPORT_NAME, c.b.nameIndex(name))
			}
			if a.Asname != "" {
				c.storeName(a.Asname)
			} else {
				c.storeName(firstComponent(a.Name))
			}
		}
	case *syntax.ImportFrom:
		// The module stays on the stack while IMPORT_FROM reads each
		// name from it, and is popped at the end; `from m import *`
		// (module level only, checked by the scope pass) is the only
		// name of its statement, and IMPORT_STAR consumes the module.
		// Relative imports are refused: modules come from the whitelist
		// by absolute name.
		if n.Level > 0 {
			return &SyntaxError{Line: line, Msg: "PVM: relative imports are not supported"}
		}
		// A future statement anywhere but the start of the module
		// (compiler_from_import; future.go read the ones at the start).
		if n.Module == "__future__" && line > c.future.line {
			return &SyntaxError{Line: line, Msg: futureMisplacedMsg}
		}
		c.b.loadConst(object.None)
		c.b.emit(IMPORT_NAME, c.b.nameIndex(c.sc.mangle(n.Module)))
		for _, a := range n.Names {
			if a.Name == "*" {
				c.b.emit(IMPORT_STAR, 0)
				return nil
			}
			c.b.emit(IMPORT_FROM, c.b.nameIndex(c.sc.mangle(a.Name)))
			as := a.Asname
			if as == "" {
				as = a.Name
			}
			c.storeName(as)
		}
		c.b.emit(POP_TOP, 0)
	case *syntax.Match:
		return c.match(n)
	default:
		return &SyntaxError{Line: line, Msg: "PVM: unsupported statement"}
	}
	return nil
}

// unwindAll emits the cleanup of every enclosing block before a return;
// preserveTOS keeps the return value on top (ROT_TWO brings it above each
// value a block drops).
func (c *compiler) unwindAll(preserveTOS bool) error { return c.unwindTo(0, preserveTOS) }

// unwindTo emits cleanup for fblocks[depth:], innermost first, without
// removing them from the compile-time stack (code after the jump still sits
// inside them). While a block's cleanup is emitted, the compile-time stack
// is cut to the blocks outside it, so a return or break inside a finally
// body being copied here unwinds only the outer blocks.
func (c *compiler) unwindTo(depth int, preserveTOS bool) error {
	saved := c.fblocks
	defer func() { c.fblocks = saved }()
	for i := len(saved) - 1; i >= depth; i-- {
		fb := saved[i]
		c.fblocks = saved[:i]
		switch fb.kind {
		case fbFor:
			if preserveTOS {
				c.b.emit(ROT_TWO, 0)
			}
			c.b.emit(POP_TOP, 0)
		case fbWhile:
		case fbTryExcept:
			c.b.emit(POP_BLOCK, 0)
		case fbTryFinally:
			// The finally body runs on the way out (§8.4.4): it is
			// compiled again here, once per return, break or continue
			// that leaves the try, as CPython 3.11 does.
			c.b.emit(POP_BLOCK, 0)
			if err := c.stmts(fb.final); err != nil {
				return err
			}
		case fbFinallyHandler:
			// Leaving the exceptional copy of a finally body: drop the
			// pending exception (a return, break or continue in a
			// finally clause discards it, §8.4.4).
			if preserveTOS {
				c.b.emit(ROT_TWO, 0)
			}
			c.b.emit(POP_EXCEPT, 0)
			c.b.emit(POP_TOP, 0)
		case fbWith:
			// [exit] -> []: __exit__(None, None, None), as if the body
			// had ended normally (§8.5).
			c.b.emit(POP_BLOCK, 0)
			if preserveTOS {
				c.b.emit(ROT_TWO, 0)
			}
			c.b.emit(WITH_EXIT, 0)
		case fbAsyncWith:
			c.b.emit(POP_BLOCK, 0)
			if preserveTOS {
				c.b.emit(ROT_TWO, 0)
			}
			c.b.emit(ASYNC_WITH_EXIT, 0)
			c.await()
			c.b.emit(POP_TOP, 0)
		case fbHandler:
			// Leaving an except clause early: restore the previously
			// handled exception, drop this one and clear the `as` name,
			// as the clause's normal end does.
			if preserveTOS {
				c.b.emit(ROT_TWO, 0)
			}
			c.b.emit(POP_EXCEPT, 0)
			c.b.emit(POP_TOP, 0)
			if fb.excName != "" {
				c.clearExcName(fb.excName)
			}
		}
	}
	return nil
}

// clearExcName ends the life of an except clause's `as` name (§8.4.1:
// "as if `except E as N: try: foo finally: del N`", so the exception and
// its traceback do not stay reachable from the frame). It stores None
// first, as CPython does, so the del cannot fail when the clause already
// deleted the name.
func (c *compiler) clearExcName(name string) {
	c.b.loadConst(object.None)
	c.storeName(name)
	c.deleteName(name)
}

// try compiles a try statement with a finally clause (§8.4.4), delegating
// the except/else part to tryExcept inside the SETUP_FINALLY block:
//
//	SETUP_FINALLY fin
//	  body (or try/except/else)
//	POP_BLOCK
//	  finally body          normal path
//	JUMP end
//	fin: [exc]
//	  finally body          exceptional path (fbFinallyHandler)
//	RERAISE
//	end:
//
// and a further copy at each return, break or continue leaving the body
// (unwindTo).
func (c *compiler) try(n *syntax.Try) error {
	if len(n.Finalbody) == 0 {
		return c.tryExcept(n)
	}
	fin := c.b.newLabel()
	end := c.b.newLabel()
	c.b.jump(SETUP_FINALLY, fin)
	c.fblocks = append(c.fblocks, fblock{kind: fbTryFinally, final: n.Finalbody})
	var err error
	if len(n.Handlers) > 0 {
		err = c.tryExcept(n)
	} else {
		err = c.stmts(n.Body)
	}
	if err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.emit(POP_BLOCK, 0)
	if err := c.stmts(n.Finalbody); err != nil {
		return err
	}
	c.b.jump(JUMP, end)
	c.b.bind(fin)
	c.fblocks = append(c.fblocks, fblock{kind: fbFinallyHandler})
	if err := c.stmts(n.Finalbody); err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.emit(RERAISE, 0)
	c.b.bind(end)
	return nil
}

// tryExcept compiles try/except/else (§8.4.1, §8.4.3):
//
//	SETUP_EXCEPT handler
//	  body
//	POP_BLOCK
//	JUMP orelse
//	handler: [exc]
//	  for each clause: type, CHECK_EXC_MATCH, POP_JUMP_IF_FALSE next,
//	  store the name, clause body, POP_EXCEPT, POP_TOP, clear the name,
//	  JUMP end; next:
//	RERAISE                 no clause matched
//	orelse:
//	  else body             outside the try: its exceptions are not caught
//	end:
//
// The handler's block (made by the VM when it enters the handler) stays
// until POP_EXCEPT, so a bare raise in the clause re-raises exc.
func (c *compiler) tryExcept(n *syntax.Try) error {
	handler, orelse, end := c.b.newLabel(), c.b.newLabel(), c.b.newLabel()
	c.b.jump(SETUP_EXCEPT, handler)
	c.fblocks = append(c.fblocks, fblock{kind: fbTryExcept})
	if err := c.stmts(n.Body); err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.emit(POP_BLOCK, 0)
	c.b.jump(JUMP, orelse)
	c.b.bind(handler)
	for i, h := range n.Handlers {
		c.b.line = int32(h.Line)
		next := c.b.newLabel()
		if h.Type != nil {
			if err := c.expr(h.Type); err != nil {
				return err
			}
			c.b.emit(CHECK_EXC_MATCH, 0)
			c.b.jump(POP_JUMP_IF_FALSE, next)
		} else if i != len(n.Handlers)-1 {
			// A bare except catches everything, so a clause after it
			// could never run (§8.4.1).
			return &SyntaxError{Line: h.Line, Msg: "default 'except:' must be last"}
		}
		// [exc] DUP_TOP, store: the name is bound and the exception
		// stays on the stack for POP_EXCEPT's POP_TOP.
		if h.Name != "" {
			c.b.emit(DUP_TOP, 0)
			c.storeName(h.Name)
		}
		c.fblocks = append(c.fblocks, fblock{kind: fbHandler, excName: h.Name})
		if err := c.stmts(h.Body); err != nil {
			return err
		}
		c.fblocks = c.fblocks[:len(c.fblocks)-1]
		c.b.emit(POP_EXCEPT, 0)
		c.b.emit(POP_TOP, 0)
		if h.Name != "" {
			c.clearExcName(h.Name)
		}
		c.b.jump(JUMP, end)
		c.b.bind(next)
	}
	c.b.emit(RERAISE, 0)
	c.b.bind(orelse)
	if err := c.stmts(n.Orelse); err != nil {
		return err
	}
	c.b.bind(end)
	return nil
}

// with compiles a with statement (§8.5); several items nest as if each
// were its own with statement, the first outermost. The layout is
//
//	mgr; SETUP_WITH exc     [exit result], block at [exit]
//	  store result (or pop it); body
//	POP_BLOCK; WITH_EXIT    __exit__(None, None, None)
//	JUMP end
//	exc: [exit exc]
//	WITH_EXCEPT             [exit exc suppress]: __exit__(type, exc, None)
//	POP_JUMP_IF_TRUE suppress
//	RERAISE
//	suppress: POP_EXCEPT; POP_TOP; POP_TOP
//	end:
//
// __exit__'s third argument is None where CPython passes the traceback.
func (c *compiler) with(items []*syntax.WithItem, body []syntax.Stmt, line int) error {
	if len(items) == 0 {
		return c.stmts(body)
	}
	it := items[0]
	if err := c.expr(it.ContextExpr); err != nil {
		return err
	}
	c.b.line = int32(line)
	exc, end := c.b.newLabel(), c.b.newLabel()
	c.b.jump(SETUP_WITH, exc)
	if it.OptionalVars != nil {
		if err := c.assign(it.OptionalVars); err != nil {
			return err
		}
	} else {
		c.b.emit(POP_TOP, 0)
	}
	c.fblocks = append(c.fblocks, fblock{kind: fbWith})
	if err := c.with(items[1:], body, line); err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.line = int32(line)
	c.b.emit(POP_BLOCK, 0)
	c.b.emit(WITH_EXIT, 0)
	c.b.jump(JUMP, end)
	c.b.bind(exc)
	suppress := c.b.newLabel()
	c.b.emit(WITH_EXCEPT, 0)
	c.b.jump(POP_JUMP_IF_TRUE, suppress)
	c.b.emit(RERAISE, 0)
	c.b.bind(suppress)
	c.b.emit(POP_EXCEPT, 0)
	c.b.emit(POP_TOP, 0)
	c.b.emit(POP_TOP, 0)
	c.b.bind(end)
	return nil
}

// assign stores TOS into a target (§7.2): a name, an attribute, a
// subscription or slicing, or a (possibly starred) tuple or list of
// targets. The object and key of an attribute or subscript target are
// evaluated after the value, as CPython does.
func (c *compiler) assign(t syntax.Expr) error {
	switch n := t.(type) {
	case *syntax.Name:
		c.storeName(n.Id)
	case *syntax.Attribute:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(STORE_ATTR, c.attrName(n.Attr))
	case *syntax.Subscript:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		if err := c.expr(n.Slice); err != nil {
			return err
		}
		c.b.emit(STORE_SUBSCR, 0)
	case *syntax.Tuple:
		return c.unpackTargets(n.Elts, n.Line)
	case *syntax.List:
		return c.unpackTargets(n.Elts, n.Line)
	case *syntax.Starred:
		return &SyntaxError{Line: n.Line, Msg: "starred assignment target must be in a list or tuple"}
	default:
		return &SyntaxError{Line: exprLine(t), Msg: "cannot assign to expression"}
	}
	return nil
}

// unpackTargets unpacks TOS into a target list: UNPACK_SEQUENCE for
// exact length, UNPACK_EX when one target is starred (it receives a list
// of the rest). Both counts around the star must fit a byte of Arg;
// CPython bounds the count before the star the same way.
func (c *compiler) unpackTargets(elts []syntax.Expr, line int) error {
	star := -1
	for i, e := range elts {
		if _, ok := e.(*syntax.Starred); ok {
			if star >= 0 {
				return &SyntaxError{Line: line, Msg: "multiple starred expressions in assignment"}
			}
			star = i
		}
	}
	if star < 0 {
		c.b.emit(UNPACK_SEQUENCE, len(elts))
	} else {
		after := len(elts) - star - 1
		if star > 255 || after > 255 {
			return &SyntaxError{Line: line, Msg: "too many expressions in star-unpacking assignment"}
		}
		c.b.emit(UNPACK_EX, star|after<<8)
	}
	for _, e := range elts {
		if s, ok := e.(*syntax.Starred); ok {
			e = s.Value
		}
		if err := c.assign(e); err != nil {
			return err
		}
	}
	return nil
}

// augAssign compiles `target op= value` (§7.2.1): the target's object and
// key are evaluated once, the current value loaded, INPLACE_OP applied
// and the result stored back through the same object and key. Stack,
// for an attribute: [obj] DUP_TOP [obj obj] LOAD_ATTR [obj v] ...
// INPLACE_OP [obj r] ROT_TWO [r obj] STORE_ATTR; for a subscript: [obj
// key] DUP_TOP_TWO, BINARY_SUBSCR [obj key v] ... [obj key r] ROT_THREE
// [r obj key] STORE_SUBSCR.
func (c *compiler) augAssign(n *syntax.AugAssign) error {
	op, err := binOp(n.Op)
	if err != nil {
		return err
	}
	switch t := n.Target.(type) {
	case *syntax.Name:
		c.loadName(t.Id)
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.line = int32(n.Line)
		c.b.emit(INPLACE_OP, int(op))
		c.storeName(t.Id)
	case *syntax.Attribute:
		if err := c.expr(t.Value); err != nil {
			return err
		}
		c.b.emit(DUP_TOP, 0)
		c.b.emit(LOAD_ATTR, c.attrName(t.Attr))
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.line = int32(n.Line)
		c.b.emit(INPLACE_OP, int(op))
		c.b.emit(ROT_TWO, 0)
		c.b.emit(STORE_ATTR, c.attrName(t.Attr))
	case *syntax.Subscript:
		if err := c.expr(t.Value); err != nil {
			return err
		}
		if err := c.expr(t.Slice); err != nil {
			return err
		}
		c.b.emit(DUP_TOP_TWO, 0)
		c.b.emit(BINARY_SUBSCR, 0)
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.line = int32(n.Line)
		c.b.emit(INPLACE_OP, int(op))
		c.b.emit(ROT_THREE, 0)
		c.b.emit(STORE_SUBSCR, 0)
	default:
		return &SyntaxError{Line: n.Line, Msg: "'" + "expression" + "' is an illegal expression for augmented assignment"}
	}
	return nil
}

// del compiles `del target` (§7.5): a target list deletes each element
// left to right.
func (c *compiler) del(t syntax.Expr) error {
	switch n := t.(type) {
	case *syntax.Name:
		c.deleteName(n.Id)
	case *syntax.Attribute:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		c.b.emit(DELETE_ATTR, c.attrName(n.Attr))
	case *syntax.Subscript:
		if err := c.expr(n.Value); err != nil {
			return err
		}
		if err := c.expr(n.Slice); err != nil {
			return err
		}
		c.b.emit(DELETE_SUBSCR, 0)
	case *syntax.Tuple:
		for _, e := range n.Elts {
			if err := c.del(e); err != nil {
				return err
			}
		}
	case *syntax.List:
		for _, e := range n.Elts {
			if err := c.del(e); err != nil {
				return err
			}
		}
	default:
		return &SyntaxError{Line: exprLine(t), Msg: "cannot delete expression"}
	}
	return nil
}

// asyncFor compiles `async for` (PEP 492): the iterator is
// type(x).__aiter__(x); each step awaits __anext__() under an except block
// whose handler ends the loop on StopAsyncIteration (END_ASYNC_FOR) and
// runs the else clause (Language Reference §8.9.2):
//
//	GET_AITER               [aiter]
//	top: SETUP_EXCEPT stop
//	GET_ANEXT; await        [aiter item]
//	POP_BLOCK; store item; body; JUMP top
//	stop: [aiter exc]
//	END_ASYNC_FOR           [aiter], or re-raise exc if it is not
//	                        StopAsyncIteration
//	POP_EXCEPT; POP_TOP     the iterator
//	else body
//	brk:
//
// Only the __anext__ await is protected: an exception from the body
// propagates as in a plain for loop.
func (c *compiler) asyncFor(n *syntax.For, line int) error {
	if err := c.expr(n.Iter); err != nil {
		return err
	}
	c.b.line = int32(line)
	c.b.emit(GET_AITER, 0)
	top, stop, brk := c.b.newLabel(), c.b.newLabel(), c.b.newLabel()
	c.b.bind(top)
	c.b.jump(SETUP_EXCEPT, stop)
	c.b.emit(GET_ANEXT, 0)
	c.await()
	c.b.emit(POP_BLOCK, 0)
	if err := c.assign(n.Target); err != nil {
		return err
	}
	c.fblocks = append(c.fblocks, fblock{kind: fbFor, cont: top, brk: brk})
	if err := c.stmts(n.Body); err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.jump(JUMP, top)
	c.b.bind(stop)
	c.b.line = int32(line)
	c.b.emit(END_ASYNC_FOR, 0)
	c.b.emit(POP_EXCEPT, 0)
	c.b.emit(POP_TOP, 0)
	if err := c.stmts(n.Orelse); err != nil {
		return err
	}
	c.b.bind(brk)
	return nil
}

// asyncWith compiles `async with` (PEP 492, §8.9.3) like with, awaiting
// __aenter__() before the body and __aexit__(...) after it on every way
// out: normal completion, an exception (whose __aexit__ result decides
// suppression) and return/break/continue (unwindTo, fbAsyncWith). Unlike
// SETUP_WITH, entering is split in two (ASYNC_WITH_ENTER, the await,
// ASYNC_WITH_SETUP) because the await must suspend between the call of
// __aenter__ and the block's start.
func (c *compiler) asyncWith(items []*syntax.WithItem, body []syntax.Stmt, line int) error {
	if len(items) == 0 {
		return c.stmts(body)
	}
	it := items[0]
	if err := c.expr(it.ContextExpr); err != nil {
		return err
	}
	c.b.line = int32(line)
	exc, end := c.b.newLabel(), c.b.newLabel()
	c.b.emit(ASYNC_WITH_ENTER, 0)
	c.await()
	c.b.jump(ASYNC_WITH_SETUP, exc)
	if it.OptionalVars != nil {
		if err := c.assign(it.OptionalVars); err != nil {
			return err
		}
	} else {
		c.b.emit(POP_TOP, 0)
	}
	c.fblocks = append(c.fblocks, fblock{kind: fbAsyncWith})
	if err := c.asyncWith(items[1:], body, line); err != nil {
		return err
	}
	c.fblocks = c.fblocks[:len(c.fblocks)-1]
	c.b.line = int32(line)
	c.b.emit(POP_BLOCK, 0)
	c.b.emit(ASYNC_WITH_EXIT, 0)
	c.await()
	c.b.emit(POP_TOP, 0)
	c.b.jump(JUMP, end)
	c.b.bind(exc)
	suppress := c.b.newLabel()
	c.b.emit(ASYNC_WITH_EXCEPT, 0)
	c.await()
	c.b.jump(POP_JUMP_IF_TRUE, suppress)
	c.b.emit(RERAISE, 0)
	c.b.bind(suppress)
	c.b.emit(POP_EXCEPT, 0)
	c.b.emit(POP_TOP, 0)
	c.b.emit(POP_TOP, 0)
	c.b.bind(end)
	return nil
}

// sliceSubscript reports whether e is x[a:b] or x[a:b:c] (Code.SliceTemps).
func sliceSubscript(e syntax.Expr) bool {
	s, ok := e.(*syntax.Subscript)
	if !ok {
		return false
	}
	_, ok = s.Slice.(*syntax.Slice)
	return ok
}

// annAssign compiles `target: annotation [= value]` as CPython 3.11's
// compiler_annassign does (Language Reference §7.2.2): the value, when
// there is one, is assigned first, like `target = value`. At module level
// and in a class body a simple name's annotation is then evaluated into
// __annotations__ (dataclasses, NamedTuple and TypedDict read a class's),
// and any other target's annotation is evaluated and dropped; in a
// function an annotation is never evaluated. Without a value, an
// attribute or subscript target's object and index are still evaluated
// (and dropped), so `a.b: int` fails on an unbound `a` as in CPython.
func (c *compiler) annAssign(n *syntax.AnnAssign, line int) error {
	if n.Value != nil {
		if err := c.expr(n.Value); err != nil {
			return err
		}
		if err := c.assign(n.Target); err != nil {
			return err
		}
	} else {
		switch t := n.Target.(type) {
		case *syntax.Attribute:
			if err := c.exprDropped(t.Value); err != nil {
				return err
			}
		case *syntax.Subscript:
			if err := c.exprDropped(t.Value); err != nil {
				return err
			}
			if err := c.annSubscript(t.Slice); err != nil {
				return err
			}
		}
	}
	if c.sc.kind != classScope && c.sc.kind != moduleScope {
		return nil
	}
	if nm, ok := n.Target.(*syntax.Name); ok && n.Simple {
		// PEP 563 (`from __future__ import annotations`): the text of
		// the annotation is stored, not its value (compiler_visit_annexpr).
		if err := c.annotationValue(n.Annotation); err != nil {
			return err
		}
		c.loadName("__annotations__")
		c.b.loadConst(object.Str(c.sc.mangle(nm.Id)))
		c.b.line = int32(line)
		c.b.emit(STORE_SUBSCR, 0)
		return nil
	}
	if c.future.annotations {
		// check_annotation: a complex target's annotation produces no
		// code at all under PEP 563.
		return nil
	}
	return c.exprDropped(n.Annotation)
}

// annSubscript evaluates and drops the index of an annotated subscript
// target without a value, part by part as CPython's check_ann_subscr
// does: a slice's bounds, each element of a tuple index, else the index.
func (c *compiler) annSubscript(e syntax.Expr) error {
	switch x := e.(type) {
	case *syntax.Slice:
		for _, p := range []syntax.Expr{x.Lower, x.Upper, x.Step} {
			if p == nil {
				continue
			}
			if err := c.exprDropped(p); err != nil {
				return err
			}
		}
		return nil
	case *syntax.Tuple:
		for _, el := range x.Elts {
			if err := c.annSubscript(el); err != nil {
				return err
			}
		}
		return nil
	}
	return c.exprDropped(e)
}

// exprDropped evaluates e for its effects (and errors) only.
func (c *compiler) exprDropped(e syntax.Expr) error {
	if err := c.expr(e); err != nil {
		return err
	}
	c.b.emit(POP_TOP, 0)
	return nil
}
