package syntax

import (
	"fmt"
	"strings"
)

// ParseFile parses a Python 3.11 source file.
func ParseFile(filename string, src []byte) (*Module, error) {
	toks, err := tokenize(string(src))
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var body []Stmt
	for p.tok().kind != tEOF {
		if p.tok().kind == tNewline {
			p.next()
			continue
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		body = append(body, s...)
	}
	return &Module{Body: body}, nil
}

type parser struct {
	toks  []token
	pos   int
	depth int
}

func (p *parser) tok() token { return p.toks[p.pos] }
func (p *parser) peek(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}
func (p *parser) isOp(v string) bool { t := p.tok(); return t.kind == tOp && t.val == v }
func (p *parser) isKw(v string) bool { t := p.tok(); return t.kind == tName && t.val == v }
func (p *parser) pos0() Pos          { return Pos{Line: p.tok().line} }
func (p *parser) errf(format string, a ...any) error {
	return &Error{Ln: p.tok().line, Msg: fmt.Sprintf(format, a...)}
}

func (p *parser) expectOp(v string) error {
	if !p.isOp(v) {
		return p.errf("expected '%s'", v)
	}
	p.next()
	return nil
}

func (p *parser) expectKw(v string) error {
	if !p.isKw(v) {
		return p.errf("expected '%s'", v)
	}
	p.next()
	return nil
}

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

func (p *parser) name() (string, error) {
	t := p.tok()
	if t.kind != tName || keywords[t.val] {
		return "", p.errf("invalid syntax")
	}
	p.next()
	return t.val, nil
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxSourceNesting {
		return p.errf("too many nested expressions")
	}
	return nil
}

// statement parses one statement line or compound statement.
func (p *parser) statement() ([]Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.tok()
	if t.kind == tIndent {
		return nil, p.errf("unexpected indent")
	}
	if t.kind == tOp && t.val == "@" {
		s, err := p.decorated()
		return []Stmt{s}, err
	}
	if t.kind == tName {
		switch t.val {
		case "if":
			s, err := p.ifStmt()
			return []Stmt{s}, err
		case "while":
			s, err := p.whileStmt()
			return []Stmt{s}, err
		case "for":
			s, err := p.forStmt()
			return []Stmt{s}, err
		case "try":
			s, err := p.tryStmt()
			return []Stmt{s}, err
		case "with":
			s, err := p.withStmt()
			return []Stmt{s}, err
		case "def":
			s, err := p.funcDef(nil)
			return []Stmt{s}, err
		case "class":
			s, err := p.classDef(nil)
			return []Stmt{s}, err
		case "async":
			return nil, p.errf("PVM: async is not supported")
		case "match":
			if s, ok, err := p.tryMatch(); ok || err != nil {
				return []Stmt{s}, err
			}
		}
	}
	return p.simpleStmts()
}

func (p *parser) simpleStmts() ([]Stmt, error) {
	var out []Stmt
	for {
		s, err := p.smallStmt()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if p.isOp(";") {
			p.next()
			if p.tok().kind == tNewline {
				break
			}
			continue
		}
		break
	}
	if p.tok().kind != tNewline {
		return nil, p.errf("invalid syntax")
	}
	p.next()
	return out, nil
}

func (p *parser) block() ([]Stmt, error) {
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	if p.tok().kind != tNewline {
		return p.simpleStmts()
	}
	p.next()
	if p.tok().kind != tIndent {
		return nil, p.errf("expected an indented block")
	}
	p.next()
	var body []Stmt
	for p.tok().kind != tDedent && p.tok().kind != tEOF {
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		body = append(body, s...)
	}
	p.next()
	return body, nil
}

func (p *parser) smallStmt() (Stmt, error) {
	pos := p.pos0()
	t := p.tok()
	if t.kind == tName {
		switch t.val {
		case "pass":
			p.next()
			return &Pass{pos}, nil
		case "break":
			p.next()
			return &Break{pos}, nil
		case "continue":
			p.next()
			return &Continue{pos}, nil
		case "return":
			p.next()
			r := &Return{Pos: pos}
			if !p.endOfSimple() {
				v, err := p.starExprs()
				if err != nil {
					return nil, err
				}
				r.Value = v
			}
			return r, nil
		case "raise":
			p.next()
			r := &Raise{Pos: pos}
			if !p.endOfSimple() {
				e, err := p.test()
				if err != nil {
					return nil, err
				}
				r.Exc = e
				if p.isKw("from") {
					p.next()
					if r.Cause, err = p.test(); err != nil {
						return nil, err
					}
				}
			}
			return r, nil
		case "global", "nonlocal":
			p.next()
			var names []string
			for {
				n, err := p.name()
				if err != nil {
					return nil, err
				}
				names = append(names, n)
				if !p.isOp(",") {
					break
				}
				p.next()
			}
			if t.val == "global" {
				return &Global{pos, names}, nil
			}
			return &Nonlocal{pos, names}, nil
		case "del":
			p.next()
			targets, err := p.exprList()
			if err != nil {
				return nil, err
			}
			return &Delete{pos, targets}, nil
		case "assert":
			p.next()
			test, err := p.test()
			if err != nil {
				return nil, err
			}
			a := &Assert{Pos: pos, Test: test}
			if p.isOp(",") {
				p.next()
				if a.Msg, err = p.test(); err != nil {
					return nil, err
				}
			}
			return a, nil
		case "import":
			p.next()
			imp := &Import{Pos: pos}
			for {
				name, err := p.dottedName()
				if err != nil {
					return nil, err
				}
				a := &Alias{Name: name}
				if p.isKw("as") {
					p.next()
					if a.Asname, err = p.name(); err != nil {
						return nil, err
					}
				}
				imp.Names = append(imp.Names, a)
				if !p.isOp(",") {
					break
				}
				p.next()
			}
			return imp, nil
		case "from":
			p.next()
			f := &ImportFrom{Pos: pos}
			for p.isOp(".") || p.isOp("...") {
				f.Level += len(p.next().val)
			}
			if !p.isKw("import") {
				name, err := p.dottedName()
				if err != nil {
					return nil, err
				}
				f.Module = name
			}
			if err := p.expectKw("import"); err != nil {
				return nil, err
			}
			if p.isOp("*") {
				p.next()
				f.Names = []*Alias{{Name: "*"}}
				return f, nil
			}
			paren := p.isOp("(")
			if paren {
				p.next()
			}
			for {
				n, err := p.name()
				if err != nil {
					return nil, err
				}
				a := &Alias{Name: n}
				if p.isKw("as") {
					p.next()
					if a.Asname, err = p.name(); err != nil {
						return nil, err
					}
				}
				f.Names = append(f.Names, a)
				if !p.isOp(",") {
					break
				}
				p.next()
				if paren && p.isOp(")") {
					break
				}
			}
			if paren {
				if err := p.expectOp(")"); err != nil {
					return nil, err
				}
			}
			return f, nil
		}
	}
	// Expression statement, assignment, augmented or annotated assignment.
	first, err := p.starExprsOrYield()
	if err != nil {
		return nil, err
	}
	if p.isOp(":") {
		p.next()
		ann, err := p.test()
		if err != nil {
			return nil, err
		}
		a := &AnnAssign{Pos: pos, Target: first, Annotation: ann}
		if p.isOp("=") {
			p.next()
			if a.Value, err = p.starExprsOrYield(); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
	if t := p.tok(); t.kind == tOp && len(t.val) >= 2 && strings.HasSuffix(t.val, "=") && t.val != "==" && t.val != "<=" && t.val != ">=" && t.val != "!=" {
		op, ok := augOps[t.val]
		if !ok {
			return nil, p.errf("invalid syntax")
		}
		p.next()
		v, err := p.starExprsOrYield()
		if err != nil {
			return nil, err
		}
		if err := checkTarget(first, true); err != nil {
			return nil, err
		}
		return &AugAssign{Pos: pos, Target: first, Op: op, Value: v}, nil
	}
	if p.isOp("=") {
		targets := []Expr{first}
		var value Expr
		for p.isOp("=") {
			p.next()
			v, err := p.starExprsOrYield()
			if err != nil {
				return nil, err
			}
			targets = append(targets, v)
		}
		value = targets[len(targets)-1]
		targets = targets[:len(targets)-1]
		for _, t := range targets {
			if err := checkTarget(t, false); err != nil {
				return nil, err
			}
		}
		return &Assign{Pos: pos, Targets: targets, Value: value}, nil
	}
	return &ExprStmt{pos, first}, nil
}

var augOps = map[string]Operator{"+=": Add, "-=": Sub, "*=": Mult, "@=": MatMult, "/=": Div, "%=": Mod,
	"**=": Pow, "<<=": LShift, ">>=": RShift, "|=": BitOr, "^=": BitXor, "&=": BitAnd, "//=": FloorDiv}

func checkTarget(e Expr, aug bool) error {
	switch n := e.(type) {
	case *Name, *Attribute, *Subscript:
		return nil
	case *Tuple:
		if !aug {
			for _, x := range n.Elts {
				if err := checkTarget(x, false); err != nil {
					return err
				}
			}
			return nil
		}
	case *List:
		if !aug {
			for _, x := range n.Elts {
				if err := checkTarget(x, false); err != nil {
					return err
				}
			}
			return nil
		}
	case *Starred:
		if !aug {
			return checkTarget(n.Value, false)
		}
	}
	if aug {
		return &Error{Ln: e.Lineno(), Msg: "'expression' is an illegal expression for augmented assignment"}
	}
	return &Error{Ln: e.Lineno(), Msg: "cannot assign to expression"}
}

func (p *parser) endOfSimple() bool {
	t := p.tok()
	return t.kind == tNewline || t.kind == tEOF || (t.kind == tOp && t.val == ";")
}

func (p *parser) dottedName() (string, error) {
	n, err := p.name()
	if err != nil {
		return "", err
	}
	for p.isOp(".") {
		p.next()
		m, err := p.name()
		if err != nil {
			return "", err
		}
		n += "." + m
	}
	return n, nil
}

func (p *parser) decorated() (Stmt, error) {
	var decos []Expr
	for p.isOp("@") {
		p.next()
		d, err := p.namedExprTest()
		if err != nil {
			return nil, err
		}
		decos = append(decos, d)
		if p.tok().kind != tNewline {
			return nil, p.errf("invalid syntax")
		}
		p.next()
	}
	switch {
	case p.isKw("def"):
		return p.funcDef(decos)
	case p.isKw("class"):
		return p.classDef(decos)
	}
	return nil, p.errf("invalid syntax")
}

func (p *parser) funcDef(decos []Expr) (Stmt, error) {
	pos := p.pos0()
	p.next()
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	args, err := p.params(")", true)
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	f := &FunctionDef{Pos: pos, Name: name, Args: args, DecoratorList: decos}
	if p.isOp("->") {
		p.next()
		if f.Returns, err = p.test(); err != nil {
			return nil, err
		}
	}
	if f.Body, err = p.block(); err != nil {
		return nil, err
	}
	return f, nil
}

// params parses a parameter list up to (not including) end.
func (p *parser) params(end string, annotations bool) (*Arguments, error) {
	a := &Arguments{}
	seenDefault, kwOnly := false, false
	for !p.isOp(end) {
		switch {
		case p.isOp("/"):
			p.next()
			if len(a.PosOnlyArgs) > 0 || len(a.Args) == 0 || kwOnly {
				return nil, p.errf("invalid syntax")
			}
			a.PosOnlyArgs, a.Args = a.Args, nil
		case p.isOp("**"):
			p.next()
			arg, err := p.param(annotations)
			if err != nil {
				return nil, err
			}
			a.KwArg = arg
		case p.isOp("*"):
			p.next()
			if kwOnly {
				return nil, p.errf("* argument may appear only once")
			}
			kwOnly = true
			if !p.isOp(",") && !p.isOp(end) {
				arg, err := p.param(annotations)
				if err != nil {
					return nil, err
				}
				a.VarArg = arg
			}
		default:
			arg, err := p.param(annotations)
			if err != nil {
				return nil, err
			}
			var def Expr
			if p.isOp("=") {
				p.next()
				if def, err = p.test(); err != nil {
					return nil, err
				}
			}
			if kwOnly {
				a.KwOnlyArgs = append(a.KwOnlyArgs, arg)
				a.KwDefaults = append(a.KwDefaults, def)
			} else {
				if def != nil {
					seenDefault = true
					a.Defaults = append(a.Defaults, def)
				} else if seenDefault {
					return nil, p.errf("non-default argument follows default argument")
				}
				a.Args = append(a.Args, arg)
			}
		}
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	return a, nil
}

func (p *parser) param(annotations bool) (*Arg, error) {
	pos := p.pos0()
	n, err := p.name()
	if err != nil {
		return nil, err
	}
	arg := &Arg{Pos: pos, Arg: n}
	if annotations && p.isOp(":") {
		p.next()
		if arg.Annotation, err = p.test(); err != nil {
			return nil, err
		}
	}
	return arg, nil
}

func (p *parser) classDef(decos []Expr) (Stmt, error) {
	pos := p.pos0()
	p.next()
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	c := &ClassDef{Pos: pos, Name: name, DecoratorList: decos}
	if p.isOp("(") {
		p.next()
		args, kws, err := p.callArgs()
		if err != nil {
			return nil, err
		}
		c.Bases, c.Keywords = args, kws
	}
	if c.Body, err = p.block(); err != nil {
		return nil, err
	}
	return c, nil
}

func (p *parser) ifStmt() (Stmt, error) {
	pos := p.pos0()
	p.next()
	test, err := p.namedExprTest()
	if err != nil {
		return nil, err
	}
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	s := &If{Pos: pos, Test: test, Body: body}
	switch {
	case p.isKw("elif"):
		e, err := p.ifStmt()
		if err != nil {
			return nil, err
		}
		s.Orelse = []Stmt{e}
	case p.isKw("else"):
		p.next()
		if s.Orelse, err = p.block(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (p *parser) whileStmt() (Stmt, error) {
	pos := p.pos0()
	p.next()
	test, err := p.namedExprTest()
	if err != nil {
		return nil, err
	}
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	s := &While{Pos: pos, Test: test, Body: body}
	if p.isKw("else") {
		p.next()
		if s.Orelse, err = p.block(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (p *parser) forStmt() (Stmt, error) {
	pos := p.pos0()
	p.next()
	target, err := p.targetList()
	if err != nil {
		return nil, err
	}
	if err := p.expectKw("in"); err != nil {
		return nil, err
	}
	iter, err := p.starExprs()
	if err != nil {
		return nil, err
	}
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	s := &For{Pos: pos, Target: target, Iter: iter, Body: body}
	if p.isKw("else") {
		p.next()
		if s.Orelse, err = p.block(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// targetList parses for-loop and comprehension targets (stops before "in").
func (p *parser) targetList() (Expr, error) {
	pos := p.pos0()
	var elts []Expr
	trailing := false
	for {
		var e Expr
		var err error
		if p.isOp("*") {
			sp := p.pos0()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			e = &Starred{sp, v}
		} else if e, err = p.bitOr(); err != nil {
			return nil, err
		}
		if err := checkTarget(e, false); err != nil {
			return nil, err
		}
		elts = append(elts, e)
		trailing = false
		if !p.isOp(",") {
			break
		}
		p.next()
		trailing = true
		if p.isKw("in") {
			break
		}
	}
	if len(elts) == 1 && !trailing {
		return elts[0], nil
	}
	return &Tuple{pos, elts}, nil
}

func (p *parser) tryStmt() (Stmt, error) {
	pos := p.pos0()
	p.next()
	body, err := p.block()
	if err != nil {
		return nil, err
	}
	t := &Try{Pos: pos, Body: body}
	for p.isKw("except") {
		hp := p.pos0()
		p.next()
		h := &ExceptHandler{Pos: hp}
		if p.isOp("*") {
			return nil, p.errf("PVM: except* is not supported")
		}
		if !p.isOp(":") {
			if h.Type, err = p.test(); err != nil {
				return nil, err
			}
			if p.isOp(",") {
				elts := []Expr{h.Type}
				for p.isOp(",") {
					p.next()
					e, err := p.test()
					if err != nil {
						return nil, err
					}
					elts = append(elts, e)
				}
				h.Type = &Tuple{hp, elts}
			}
			if p.isKw("as") {
				p.next()
				if h.Name, err = p.name(); err != nil {
					return nil, err
				}
			}
		}
		if h.Body, err = p.block(); err != nil {
			return nil, err
		}
		t.Handlers = append(t.Handlers, h)
	}
	if p.isKw("else") {
		if len(t.Handlers) == 0 {
			return nil, p.errf("invalid syntax")
		}
		p.next()
		if t.Orelse, err = p.block(); err != nil {
			return nil, err
		}
	}
	if p.isKw("finally") {
		p.next()
		if t.Finalbody, err = p.block(); err != nil {
			return nil, err
		}
	}
	if len(t.Handlers) == 0 && t.Finalbody == nil {
		return nil, p.errf("expected 'except' or 'finally' block")
	}
	return t, nil
}

func (p *parser) withStmt() (Stmt, error) {
	pos := p.pos0()
	p.next()
	w := &With{Pos: pos}
	paren := false
	if p.isOp("(") {
		// Parenthesized with-items (3.10+) or a parenthesized expression:
		// try the item form and fall back.
		save := p.pos
		p.next()
		items, err := p.withItems(")")
		if err == nil && p.isOp(")") && p.peek(1).kind == tOp && p.peek(1).val == ":" {
			p.next()
			w.Items = items
			paren = true
		} else {
			p.pos = save
		}
	}
	if !paren {
		items, err := p.withItems(":")
		if err != nil {
			return nil, err
		}
		w.Items = items
	}
	var err error
	if w.Body, err = p.block(); err != nil {
		return nil, err
	}
	return w, nil
}

func (p *parser) withItems(end string) ([]*WithItem, error) {
	var items []*WithItem
	for {
		e, err := p.test()
		if err != nil {
			return nil, err
		}
		it := &WithItem{ContextExpr: e}
		if p.isKw("as") {
			p.next()
			t, err := p.targetAtom()
			if err != nil {
				return nil, err
			}
			it.OptionalVars = t
		}
		items = append(items, it)
		if !p.isOp(",") {
			break
		}
		p.next()
		if p.isOp(end) {
			break
		}
	}
	return items, nil
}

func (p *parser) targetAtom() (Expr, error) {
	e, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	return e, checkTarget(e, false)
}

// Expressions.

// starExprs parses a comma-separated list that may contain *x and makes a
// tuple when there is a comma.
func (p *parser) starExprs() (Expr, error) {
	pos := p.pos0()
	var elts []Expr
	trailing := false
	for {
		var e Expr
		var err error
		if p.isOp("*") {
			sp := p.pos0()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			e = &Starred{sp, v}
		} else if e, err = p.namedExprTest(); err != nil {
			return nil, err
		}
		elts = append(elts, e)
		trailing = false
		if !p.isOp(",") {
			break
		}
		p.next()
		trailing = true
		if p.exprEnd() {
			break
		}
	}
	if len(elts) == 1 && !trailing {
		if _, ok := elts[0].(*Starred); ok {
			return nil, &Error{Ln: pos.Line, Msg: "can't use starred expression here"}
		}
		return elts[0], nil
	}
	return &Tuple{pos, elts}, nil
}

func (p *parser) starExprsOrYield() (Expr, error) {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExprs()
}

func (p *parser) exprEnd() bool {
	t := p.tok()
	if t.kind == tNewline || t.kind == tEOF {
		return true
	}
	if t.kind == tOp {
		switch t.val {
		case ")", "]", "}", "=", ":", ";":
			return true
		}
		return augOps[t.val] != 0
	}
	return t.kind == tName && (t.val == "in")
}

func (p *parser) exprList() ([]Expr, error) {
	var out []Expr
	for {
		e, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
		if !p.isOp(",") {
			break
		}
		p.next()
		if p.exprEnd() {
			break
		}
	}
	return out, nil
}

func (p *parser) yieldExpr() (Expr, error) {
	pos := p.pos0()
	p.next()
	if p.isKw("from") {
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		return &YieldFrom{pos, v}, nil
	}
	y := &Yield{Pos: pos}
	if !p.exprEnd() {
		v, err := p.starExprs()
		if err != nil {
			return nil, err
		}
		y.Value = v
	}
	return y, nil
}

func (p *parser) namedExprTest() (Expr, error) {
	if p.tok().kind == tName && p.peek(1).kind == tOp && p.peek(1).val == ":=" {
		pos := p.pos0()
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		return &NamedExpr{pos, &Name{pos, n}, v}, nil
	}
	return p.test()
}

func (p *parser) test() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	if p.isKw("lambda") {
		return p.lambda()
	}
	pos := p.pos0()
	e, err := p.orTest()
	if err != nil {
		return nil, err
	}
	if p.isKw("if") {
		p.next()
		cond, err := p.orTest()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("else"); err != nil {
			return nil, err
		}
		orelse, err := p.test()
		if err != nil {
			return nil, err
		}
		return &IfExp{pos, cond, e, orelse}, nil
	}
	return e, nil
}

func (p *parser) testNoCond() (Expr, error) {
	if p.isKw("lambda") {
		return p.lambda()
	}
	return p.orTest()
}

func (p *parser) lambda() (Expr, error) {
	pos := p.pos0()
	p.next()
	args, err := p.params(":", false)
	if err != nil {
		return nil, err
	}
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	body, err := p.test()
	if err != nil {
		return nil, err
	}
	return &Lambda{pos, args, body}, nil
}

func (p *parser) orTest() (Expr, error) { return p.boolChain("or", Or, p.andTest) }

func (p *parser) andTest() (Expr, error) { return p.boolChain("and", And, p.notTest) }

// boolChain parses operand (kw operand)* into one BoolOp, as CPython does
// (a or b or c is a single node with three values).
func (p *parser) boolChain(kw string, op BoolOperator, operand func() (Expr, error)) (Expr, error) {
	pos := p.pos0()
	e, err := operand()
	if err != nil || !p.isKw(kw) {
		return e, err
	}
	vals := []Expr{e}
	for p.isKw(kw) {
		p.next()
		x, err := operand()
		if err != nil {
			return nil, err
		}
		vals = append(vals, x)
	}
	return &BoolOp{pos, op, vals}, nil
}

func (p *parser) notTest() (Expr, error) {
	if p.isKw("not") {
		pos := p.pos0()
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		e, err := p.notTest()
		if err != nil {
			return nil, err
		}
		return &UnaryOp{pos, Not, e}, nil
	}
	return p.comparison()
}

func (p *parser) compOp() (CmpOp, bool) {
	t := p.tok()
	if t.kind == tOp {
		switch t.val {
		case "<":
			return Lt, true
		case ">":
			return Gt, true
		case "==":
			return Eq, true
		case ">=":
			return GtE, true
		case "<=":
			return LtE, true
		case "!=":
			return NotEq, true
		}
	}
	if t.kind == tName {
		switch t.val {
		case "in":
			return In, true
		case "not":
			if n := p.peek(1); n.kind == tName && n.val == "in" {
				return NotIn, true
			}
		case "is":
			return Is, true
		}
	}
	return 0, false
}

func (p *parser) comparison() (Expr, error) {
	pos := p.pos0()
	e, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	var ops []CmpOp
	var comps []Expr
	for {
		op, ok := p.compOp()
		if !ok {
			break
		}
		p.next()
		if op == NotIn {
			p.next()
		}
		if op == Is && p.isKw("not") {
			p.next()
			op = IsNot
		}
		x, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
		comps = append(comps, x)
	}
	if len(ops) == 0 {
		return e, nil
	}
	return &Compare{pos, e, ops, comps}, nil
}

type binLevel struct {
	ops  map[string]Operator
	next func(*parser) (Expr, error)
}

func (p *parser) binary(ops map[string]Operator, next func() (Expr, error)) (Expr, error) {
	e, err := next()
	if err != nil {
		return nil, err
	}
	for {
		t := p.tok()
		if t.kind != tOp {
			return e, nil
		}
		op, ok := ops[t.val]
		if !ok {
			return e, nil
		}
		p.next()
		r, err := next()
		if err != nil {
			return nil, err
		}
		e = &BinOp{Pos{Line: e.Lineno()}, e, op, r}
	}
}

var (
	opsOr    = map[string]Operator{"|": BitOr}
	opsXor   = map[string]Operator{"^": BitXor}
	opsAnd   = map[string]Operator{"&": BitAnd}
	opsShift = map[string]Operator{"<<": LShift, ">>": RShift}
	opsArith = map[string]Operator{"+": Add, "-": Sub}
	opsTerm  = map[string]Operator{"*": Mult, "/": Div, "//": FloorDiv, "%": Mod, "@": MatMult}
)

func (p *parser) bitOr() (Expr, error)  { return p.binary(opsOr, p.bitXor) }
func (p *parser) bitXor() (Expr, error) { return p.binary(opsXor, p.bitAnd) }
func (p *parser) bitAnd() (Expr, error) { return p.binary(opsAnd, p.shift) }
func (p *parser) shift() (Expr, error)  { return p.binary(opsShift, p.arith) }
func (p *parser) arith() (Expr, error)  { return p.binary(opsArith, p.term) }
func (p *parser) term() (Expr, error)   { return p.binary(opsTerm, p.factor) }

func (p *parser) factor() (Expr, error) {
	t := p.tok()
	if t.kind == tOp && (t.val == "-" || t.val == "+" || t.val == "~") {
		pos := p.pos0()
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		e, err := p.factor()
		if err != nil {
			return nil, err
		}
		op := map[string]UnaryOperator{"-": USub, "+": UAdd, "~": Invert}[t.val]
		return &UnaryOp{pos, op, e}, nil
	}
	return p.power()
}

func (p *parser) power() (Expr, error) {
	pos := p.pos0()
	if p.isKw("await") {
		p.next()
		v, err := p.primary()
		if err != nil {
			return nil, err
		}
		return &Await{pos, v}, nil
	}
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.isOp("**") {
		p.next()
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &BinOp{pos, e, Pow, r}, nil
	}
	return e, nil
}

func (p *parser) primary() (Expr, error) {
	e, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		pos := p.pos0()
		switch {
		case p.isOp("."):
			p.next()
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			e = &Attribute{pos, e, n}
		case p.isOp("("):
			p.next()
			args, kws, err := p.callArgs()
			if err != nil {
				return nil, err
			}
			e = &Call{Pos{Line: e.Lineno()}, e, args, kws}
		case p.isOp("["):
			p.next()
			s, err := p.subscript()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			e = &Subscript{Pos{Line: e.Lineno()}, e, s}
		default:
			return e, nil
		}
	}
}

// callArgs parses arguments after "(" through ")".
func (p *parser) callArgs() ([]Expr, []*Keyword, error) {
	var args []Expr
	var kws []*Keyword
	for !p.isOp(")") {
		switch {
		case p.isOp("*"):
			pos := p.pos0()
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			args = append(args, &Starred{pos, v})
		case p.isOp("**"):
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			kws = append(kws, &Keyword{Value: v})
		case p.tok().kind == tName && p.peek(1).kind == tOp && p.peek(1).val == "=":
			n, err := p.name()
			if err != nil {
				return nil, nil, err
			}
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			kws = append(kws, &Keyword{Arg: n, Value: v})
		default:
			v, err := p.namedExprTest()
			if err != nil {
				return nil, nil, err
			}
			if p.isKw("for") {
				gens, err := p.compFor()
				if err != nil {
					return nil, nil, err
				}
				v = &GeneratorExp{Pos{Line: v.Lineno()}, v, gens}
			}
			if len(kws) > 0 {
				for _, k := range kws {
					if k.Arg == "" {
						return nil, nil, p.errf("positional argument follows keyword argument unpacking")
					}
				}
				return nil, nil, p.errf("positional argument follows keyword argument")
			}
			args = append(args, v)
		}
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	if err := p.expectOp(")"); err != nil {
		return nil, nil, err
	}
	return args, kws, nil
}

func (p *parser) subscript() (Expr, error) {
	pos := p.pos0()
	var elts []Expr
	trailing := false
	for {
		e, err := p.sliceItem()
		if err != nil {
			return nil, err
		}
		elts = append(elts, e)
		trailing = false
		if !p.isOp(",") {
			break
		}
		p.next()
		trailing = true
		if p.isOp("]") {
			break
		}
	}
	if len(elts) == 1 && !trailing {
		return elts[0], nil
	}
	return &Tuple{pos, elts}, nil
}

func (p *parser) sliceItem() (Expr, error) {
	pos := p.pos0()
	var lower Expr
	var err error
	if !p.isOp(":") {
		if p.isOp("*") {
			sp := p.pos0()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			return &Starred{sp, v}, nil
		}
		if lower, err = p.namedExprTest(); err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return lower, nil
		}
	}
	p.next()
	s := &Slice{Pos: pos, Lower: lower}
	if !p.isOp(":") && !p.isOp("]") && !p.isOp(",") {
		if s.Upper, err = p.test(); err != nil {
			return nil, err
		}
	}
	if p.isOp(":") {
		p.next()
		if !p.isOp("]") && !p.isOp(",") {
			if s.Step, err = p.test(); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func (p *parser) compFor() ([]*Comprehension, error) {
	var gens []*Comprehension
	for p.isKw("for") {
		p.next()
		target, err := p.targetList()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("in"); err != nil {
			return nil, err
		}
		iter, err := p.orTest()
		if err != nil {
			return nil, err
		}
		g := &Comprehension{Target: target, Iter: iter}
		for p.isKw("if") {
			p.next()
			c, err := p.testNoCond()
			if err != nil {
				return nil, err
			}
			g.Ifs = append(g.Ifs, c)
		}
		gens = append(gens, g)
	}
	return gens, nil
}

func (p *parser) atom() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.tok()
	pos := p.pos0()
	switch t.kind {
	case tNumber:
		p.next()
		return &Constant{Pos: pos, Value: t.num}, nil
	case tString:
		return p.strings()
	case tName:
		switch t.val {
		case "None":
			p.next()
			return &Constant{Pos: pos, Value: nil}, nil
		case "True":
			p.next()
			return &Constant{Pos: pos, Value: true}, nil
		case "False":
			p.next()
			return &Constant{Pos: pos, Value: false}, nil
		}
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		return &Name{pos, n}, nil
	case tOp:
		switch t.val {
		case "...":
			p.next()
			return &Constant{Pos: pos, Kind: EllipsisConst, Value: ellipsisMarker{}}, nil
		case "(":
			p.next()
			if p.isOp(")") {
				p.next()
				return &Tuple{pos, nil}, nil
			}
			if p.isKw("yield") {
				y, err := p.yieldExpr()
				if err != nil {
					return nil, err
				}
				return y, p.expectOp(")")
			}
			first, err := p.starOrNamed()
			if err != nil {
				return nil, err
			}
			if p.isKw("for") {
				gens, err := p.compFor()
				if err != nil {
					return nil, err
				}
				return &GeneratorExp{pos, first, gens}, p.expectOp(")")
			}
			if p.isOp(")") {
				p.next()
				if _, ok := first.(*Starred); ok {
					return nil, &Error{Ln: pos.Line, Msg: "can't use starred expression here"}
				}
				return first, nil
			}
			elts := []Expr{first}
			for p.isOp(",") {
				p.next()
				if p.isOp(")") {
					break
				}
				e, err := p.starOrNamed()
				if err != nil {
					return nil, err
				}
				elts = append(elts, e)
			}
			return &Tuple{pos, elts}, p.expectOp(")")
		case "[":
			p.next()
			if p.isOp("]") {
				p.next()
				return &List{pos, nil}, nil
			}
			first, err := p.starOrNamed()
			if err != nil {
				return nil, err
			}
			if p.isKw("for") {
				gens, err := p.compFor()
				if err != nil {
					return nil, err
				}
				return &ListComp{pos, first, gens}, p.expectOp("]")
			}
			elts := []Expr{first}
			for p.isOp(",") {
				p.next()
				if p.isOp("]") {
					break
				}
				e, err := p.starOrNamed()
				if err != nil {
					return nil, err
				}
				elts = append(elts, e)
			}
			return &List{pos, elts}, p.expectOp("]")
		case "{":
			return p.braces()
		}
	}
	return nil, p.errf("invalid syntax")
}

type ellipsisMarker struct{}

func (p *parser) starOrNamed() (Expr, error) {
	if p.isOp("*") {
		pos := p.pos0()
		p.next()
		v, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		return &Starred{pos, v}, nil
	}
	return p.namedExprTest()
}

func (p *parser) braces() (Expr, error) {
	pos := p.pos0()
	p.next()
	if p.isOp("}") {
		p.next()
		return &Dict{Pos: pos}, nil
	}
	// Dict or set?
	if p.isOp("**") {
		return p.dictRest(pos, nil, nil)
	}
	first, err := p.starOrNamed()
	if err != nil {
		return nil, err
	}
	if p.isOp(":") {
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		if p.isKw("for") {
			gens, err := p.compFor()
			if err != nil {
				return nil, err
			}
			return &DictComp{pos, first, v, gens}, p.expectOp("}")
		}
		return p.dictRest(pos, []Expr{first}, []Expr{v})
	}
	if p.isKw("for") {
		gens, err := p.compFor()
		if err != nil {
			return nil, err
		}
		return &SetComp{pos, first, gens}, p.expectOp("}")
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.next()
		if p.isOp("}") {
			break
		}
		e, err := p.starOrNamed()
		if err != nil {
			return nil, err
		}
		elts = append(elts, e)
	}
	return &Set{pos, elts}, p.expectOp("}")
}

func (p *parser) dictRest(pos Pos, keys, vals []Expr) (Expr, error) {
	if len(keys) > 0 {
		if !p.isOp(",") {
			return &Dict{pos, keys, vals}, p.expectOp("}")
		}
		p.next()
	}
	for !p.isOp("}") {
		if p.isOp("**") {
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			keys = append(keys, nil)
			vals = append(vals, v)
		} else {
			k, err := p.test()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp(":"); err != nil {
				return nil, err
			}
			v, err := p.test()
			if err != nil {
				return nil, err
			}
			keys = append(keys, k)
			vals = append(vals, v)
		}
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	return &Dict{pos, keys, vals}, p.expectOp("}")
}

// strings parses adjacent string literals into one Constant or JoinedStr.
func (p *parser) strings() (Expr, error) {
	pos := p.pos0()
	var parts []Expr
	var buf strings.Builder
	isBytes, anyF, first := false, false, true
	flush := func() {
		if buf.Len() > 0 {
			parts = append(parts, &Constant{Pos: pos, Value: buf.String()})
			buf.Reset()
		}
	}
	for p.tok().kind == tString {
		t := p.next()
		if !first && t.isBytes != isBytes {
			return nil, &Error{Ln: t.line, Msg: "cannot mix bytes and nonbytes literals"}
		}
		isBytes, first = t.isBytes, false
		if !t.isF {
			buf.WriteString(t.str)
			continue
		}
		anyF = true
		vals, err := p.fstring(t)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			if c, ok := v.(*Constant); ok {
				buf.WriteString(c.Value.(string))
				continue
			}
			flush()
			parts = append(parts, v)
		}
	}
	if !anyF {
		kind := StrConst
		if isBytes {
			kind = BytesConst
		}
		return &Constant{Pos: pos, Value: buf.String(), Kind: kind}, nil
	}
	flush()
	return &JoinedStr{pos, parts}, nil
}

// fstring splits an f-string body into literal Constants and
// FormattedValues, parsing each replacement field as an expression.
func (p *parser) fstring(t token) ([]Expr, error) {
	return p.fstringBody(t.val, t.isRaw, t.line, 0)
}

func (p *parser) fstringBody(s string, raw bool, line, depth int) ([]Expr, error) {
	if depth > 2 {
		return nil, &Error{Ln: line, Msg: "f-string: expressions nested too deeply"}
	}
	var out []Expr
	var lit strings.Builder
	flushLit := func() error {
		if lit.Len() == 0 {
			return nil
		}
		v, err := decodeEscapes(lit.String(), raw, false)
		if err != nil {
			return &Error{Ln: line, Msg: err.Error()}
		}
		out = append(out, &Constant{Pos: Pos{Line: line}, Value: v})
		lit.Reset()
		return nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && !raw && i+1 < len(s) {
			lit.WriteByte(c)
			lit.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			return nil, &Error{Ln: line, Msg: "f-string: single '}' is not allowed"}
		}
		if c != '{' {
			lit.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			lit.WriteByte('{')
			i++
			continue
		}
		if err := flushLit(); err != nil {
			return nil, err
		}
		// Find the end of the expression: a top-level '!', ':' or '}'.
		j := i + 1
		level := 0
		var quote byte
		for ; j < len(s); j++ {
			ch := s[j]
			if quote != 0 {
				if ch == quote {
					quote = 0
				}
				continue
			}
			switch ch {
			case '\'', '"':
				quote = ch
			case '(', '[', '{':
				level++
			case ')', ']', '}':
				if level == 0 && ch == '}' {
					goto exprEnd
				}
				level--
			case '!':
				if level == 0 && j+1 < len(s) && s[j+1] != '=' {
					goto exprEnd
				}
			case ':':
				if level == 0 {
					goto exprEnd
				}
			case '=':
				if level == 0 && j+1 < len(s) && (s[j+1] == '}' || s[j+1] == '!' || s[j+1] == ':') && s[j-1] != '=' && s[j-1] != '!' && s[j-1] != '<' && s[j-1] != '>' {
					goto exprEnd
				}
			}
		}
		return nil, &Error{Ln: line, Msg: "f-string: expecting '}'"}
	exprEnd:
		exprSrc := s[i+1 : j]
		selfDoc := false
		if s[j] == '=' {
			selfDoc = true
			j++
		}
		if strings.TrimSpace(exprSrc) == "" {
			return nil, &Error{Ln: line, Msg: "f-string: empty expression not allowed"}
		}
		expr, err := parseSubExpr(exprSrc, line)
		if err != nil {
			return nil, err
		}
		fv := &FormattedValue{Pos: Pos{Line: line}, Value: expr, Conversion: -1}
		if selfDoc {
			out = append(out, &Constant{Pos: Pos{Line: line}, Value: exprSrc + "="})
			if j < len(s) && s[j] == '}' {
				fv.Conversion = 'r'
			}
		}
		if j < len(s) && s[j] == '!' {
			if j+1 >= len(s) {
				return nil, &Error{Ln: line, Msg: "f-string: expecting '}'"}
			}
			conv := s[j+1]
			if conv != 's' && conv != 'r' && conv != 'a' {
				return nil, &Error{Ln: line, Msg: "f-string: invalid conversion character: expected 's', 'r', or 'a'"}
			}
			fv.Conversion = int(conv)
			j += 2
		}
		if j < len(s) && s[j] == ':' {
			// Format spec up to the matching '}', may contain {fields}.
			k := j + 1
			lvl := 0
			for ; k < len(s); k++ {
				if s[k] == '{' {
					lvl++
				} else if s[k] == '}' {
					if lvl == 0 {
						break
					}
					lvl--
				}
			}
			if k >= len(s) {
				return nil, &Error{Ln: line, Msg: "f-string: expecting '}'"}
			}
			specParts, err := p.fstringBody(s[j+1:k], raw, line, depth+1)
			if err != nil {
				return nil, err
			}
			fv.FormatSpec = &JoinedStr{Pos{Line: line}, specParts}
			j = k
		}
		if j >= len(s) || s[j] != '}' {
			return nil, &Error{Ln: line, Msg: "f-string: expecting '}'"}
		}
		out = append(out, fv)
		i = j
	}
	if err := flushLit(); err != nil {
		return nil, err
	}
	return out, nil
}

func parseSubExpr(src string, line int) (Expr, error) {
	toks, err := tokenize("(" + src + ")")
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Ln = line
		}
		return nil, err
	}
	for i := range toks {
		toks[i].line = line
	}
	sub := &parser{toks: toks}
	e, err := sub.starExprs()
	if err != nil {
		return nil, err
	}
	if sub.tok().kind != tNewline && sub.tok().kind != tEOF {
		return nil, &Error{Ln: line, Msg: "f-string: invalid syntax"}
	}
	return e, nil
}
