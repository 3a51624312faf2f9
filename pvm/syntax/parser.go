package syntax

import (
	"bytes"
	"fmt"
	"strings"
)

// ParseFile parses a Python 3.11 source file (the grammar of Language
// Reference §10) into a Module. filename is not used: errors carry a
// line, and the caller adds the file.
func ParseFile(filename string, src []byte) (*Module, error) {
	m, _, err := parse(src)
	return m, err
}

// universalNewlines is the source as CPython 3.11 reads a file: "\r\n"
// and a lone "\r" (the line ends of §2.1.2) become "\n" before
// tokenizing, so a CRLF file's triple-quoted strings hold "\n" and a lone
// "\r" ends a line. A source without "\r" is used as it is.
func universalNewlines(src []byte) string {
	if bytes.IndexByte(src, '\r') < 0 {
		return string(src)
	}
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			c = '\n'
		}
		out = append(out, c)
	}
	return string(out)
}

// parse is ParseFile that also reports its work: the statement,
// expression and pattern levels it entered, f-string fields and
// backtracking included. The fuzz test bounds work per source byte, which
// catches a parser that goes superlinear without timing anything.
func parse(src []byte) (m *Module, levels int, err error) {
	toks, err := tokenize(universalNewlines(src))
	if err != nil {
		return nil, 0, err
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
			return nil, p.levels, err
		}
		body = append(body, s...)
	}
	return &Module{Body: body}, p.levels, nil
}

// parser is a recursive-descent parser over the whole token list, one
// method per grammar rule, in the shape of CPython's PEG grammar
// (Grammar/python.gram) but hand-written: it looks ahead a few tokens
// where the grammar needs it and backtracks (by resetting pos) in two
// places only, a with statement's parenthesized items and the soft
// keyword match. The AST it builds is CPython's node for node (ast.go).
type parser struct {
	toks []token
	// pos is the index of the current token; it never moves past the
	// final EOF token, so tok() always has a token to return.
	pos    int
	depth  int
	levels int // enter calls so far: the parser's work, for the fuzz test
}

// tok is the current token.
func (p *parser) tok() token { return p.toks[p.pos] }

// peek is the token n places ahead, or EOF past the end.
func (p *parser) peek(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}

// next consumes the current token and returns it.
func (p *parser) next() token {
	t := p.toks[p.pos]
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

// startsExpr reports whether the current token can begin an expression.
// Only the "Missing parentheses in call to 'print'" hint uses it, after
// the bare name print or exec was parsed as a whole expression: a token
// that could begin an expression then means a Python 2 statement.
func (p *parser) startsExpr() bool {
	t := p.tok()
	switch t.kind {
	case tNumber, tString:
		return true
	case tName:
		return !keywords[t.val] || t.val == "None" || t.val == "True" || t.val == "False" || t.val == "not" || t.val == "lambda"
	case tOp:
		return strings.Contains("[{-+~", t.val) && len(t.val) == 1
	}
	return false
}

// atEnd reports whether only dedents and the end of input remain.
func (p *parser) atEnd() bool {
	for k := p.pos; k < len(p.toks); k++ {
		if p.toks[k].kind != tDedent && p.toks[k].kind != tEOF {
			return false
		}
	}
	return true
}

// isOp and isKw report whether the current token is the operator or the
// (hard or soft) keyword v, without consuming it.
func (p *parser) isOp(v string) bool { t := p.tok(); return t.kind == tOp && t.val == v }
func (p *parser) isKw(v string) bool { t := p.tok(); return t.kind == tName && t.val == v }

// isAsyncFor reports whether the next tokens are `async for` (an
// asynchronous comprehension, which the PVM refuses with its own message).
func (p *parser) isAsyncFor() bool {
	n := p.peek(1)
	return p.isKw("async") && n.kind == tName && n.val == "for"
}

// start is where the current token begins.
func (p *parser) start() Pos { t := p.tok(); return Pos{Line: t.line, Col: t.col} }

// span completes s with the end of the last token consumed (layout tokens
// aside), as CPython's EXTRA does for the rule that began at s.
func (p *parser) span(s Pos) Pos {
	for k := p.pos - 1; k >= 0; k-- {
		t := p.toks[k]
		if t.kind == tNewline || t.kind == tIndent || t.kind == tDedent || t.kind == tEOF {
			continue
		}
		s.EndLine, s.EndCol = t.endLine, t.endCol
		break
	}
	return s
}

// spanned is a node with a position; every node type embeds Pos.
type spanned interface{ pos() *Pos }

// pos gives the parser write access to an embedded Pos.
func (p *Pos) pos() *Pos { return p }

// finish gives n the span from s to the last token consumed.
func (p *parser) finish(n spanned, s Pos) { *n.pos() = p.span(s) }

// errf is a SyntaxError at the current token's line. Most messages are
// CPython 3.11's exact words for the same input (TestSyntaxErrors); the
// generic one is "invalid syntax".
func (p *parser) errf(format string, a ...any) error {
	return &Error{Ln: p.tok().line, Msg: fmt.Sprintf(format, a...)}
}

// expectOp consumes the operator v or fails.
func (p *parser) expectOp(v string) error {
	if !p.isOp(v) {
		return p.errf("expected '%s'", v)
	}
	p.next()
	return nil
}

// expectKw consumes the keyword v or fails.
func (p *parser) expectKw(v string) error {
	if !p.isKw(v) {
		return p.errf("expected '%s'", v)
	}
	p.next()
	return nil
}

// keywords are the 35 hard keywords of Language Reference §2.3.1, which
// can never be names. The soft keywords match, case and _ (§2.3.2) are
// names everywhere except where a match statement parses.
var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// name consumes an identifier (not a hard keyword).
func (p *parser) name() (string, error) {
	t := p.tok()
	if t.kind != tName || keywords[t.val] {
		return "", p.errf("invalid syntax")
	}
	p.next()
	return t.val, nil
}

// maxParseDepth bounds the parser's recursion (statements, expressions
// and patterns each count one level), so hostile source cannot exhaust the
// Go stack: 200 nested brackets need about 400, and CPython gives up on
// deeper operator chains ("too complex") too.
const maxParseDepth = 1000

// enter counts one level of recursion into a statement, expression or
// pattern rule; the caller decrements p.depth when it returns.
func (p *parser) enter() error {
	p.depth++
	p.levels++
	if p.depth > maxParseDepth {
		return p.errf("too many nested expressions")
	}
	return nil
}

// statement parses one statement line or compound statement (the rule
// statement: compound_stmt | simple_stmts). A line of simple statements
// separated by ';' gives several statements, hence the slice. A line
// starting with the soft keyword match is a match statement only if it
// parses as one; otherwise it is an ordinary line that uses the name
// match.
func (p *parser) statement() ([]Stmt, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.tok()
	if t.kind == tIndent {
		return nil, &Error{Ln: t.line, Msg: "unexpected indent", Kind: IndentationErr}
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
			s, err := p.asyncStmt(nil)
			return []Stmt{s}, err
		case "match":
			if s, ok, err := p.tryMatch(); ok || err != nil {
				return []Stmt{s}, err
			}
		}
	}
	return p.simpleStmts()
}

// simpleStmts parses simple_stmt (';' simple_stmt)* [';'] NEWLINE
// (Language Reference §7).
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

// prevLine is the line of the token just consumed.
func (p *parser) prevLine() int { return p.toks[max(p.pos-1, 0)].line }

// block parses ':' and a suite; what and line name the statement it
// belongs to, for CPython's "expected an indented block after ..." error.
func (p *parser) block(what string, line int) ([]Stmt, error) {
	if err := p.expectOp(":"); err != nil {
		return nil, err
	}
	if p.tok().kind != tNewline {
		return p.simpleStmts()
	}
	p.next()
	if p.tok().kind != tIndent {
		// CPython reports the line of the token that should have been
		// indented, or, when the file ends instead, the line of the
		// last token before the end.
		at := p.tok().line
		if p.atEnd() {
			at = p.prevLine()
		}
		return nil, &Error{Ln: at, Msg: fmt.Sprintf("expected an indented block after %s on line %d", what, line), Kind: IndentationErr}
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

// smallStmt parses one simple statement and gives it its span.
func (p *parser) smallStmt() (Stmt, error) {
	start := p.start()
	s, err := p.smallStmt1()
	if err != nil {
		return nil, err
	}
	p.finish(s.(spanned), start)
	return s, nil
}

// smallStmt1 parses one simple statement: those introduced by a keyword
// (pass, break, continue, return, raise, global, nonlocal, del, assert,
// import, from) by that keyword, and otherwise an expression statement
// or an assignment (exprOrAssignStmt).
func (p *parser) smallStmt1() (Stmt, error) {
	pos := p.start()
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
			// `return a, *rest` returns a tuple, starred items allowed
			// (star_expressions).
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
			// A bare raise re-raises; `raise E from C` sets the cause.
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
			// Each target must be deletable: a name, attribute,
			// subscript or tuple/list of those; `del *a` is CPython's
			// "cannot delete starred".
			p.next()
			targets, err := p.exprList()
			if err != nil {
				return nil, err
			}
			for _, t := range targets {
				if bad := invalidTarget(t, true); bad != nil {
					return nil, &Error{Ln: bad.Lineno(), Msg: "cannot delete " + exprName(bad)}
				}
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
			return p.importStmt(pos)
		case "from":
			return p.importFromStmt(pos)
		}
	}
	return p.exprOrAssignStmt(pos, t)
}

// importStmt parses `import a.b [as c], ...` (§7.11); pos is the
// import keyword, not yet consumed.
func (p *parser) importStmt(pos Pos) (Stmt, error) {
	p.next()
	imp := &Import{Pos: pos}
	for {
		ap := p.start()
		name, err := p.dottedName()
		if err != nil {
			return nil, err
		}
		a := &Alias{Pos: ap, Name: name}
		if p.isKw("as") {
			p.next()
			if a.Asname, err = p.name(); err != nil {
				return nil, err
			}
		}
		p.finish(a, ap)
		imp.Names = append(imp.Names, a)
		if !p.isOp(",") {
			break
		}
		p.next()
	}
	return imp, nil
}

// importFromStmt parses `from [.]*module import names` (§7.11); pos is
// the from keyword, not yet consumed.
func (p *parser) importFromStmt(pos Pos) (Stmt, error) {
	p.next()
	f := &ImportFrom{Pos: pos}
	// The tokenizer reads "..." as one token: three levels.
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
		ap := p.start()
		p.next()
		f.Names = []*Alias{{Pos: p.span(ap), Name: "*"}}
		return f, nil
	}
	// `from m import (a, b,)`: parentheses allow a trailing
	// comma and line breaks.
	paren := p.isOp("(")
	if paren {
		p.next()
	}
	for {
		ap := p.start()
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		a := &Alias{Pos: ap, Name: n}
		if p.isKw("as") {
			p.next()
			if a.Asname, err = p.name(); err != nil {
				return nil, err
			}
		}
		p.finish(a, ap)
		f.Names = append(f.Names, a)
		if !p.isOp(",") {
			break
		}
		p.next()
		// Only the parenthesized form may end in a comma: CPython's import_from_as_names
		// rule allows it there alone, and says "trailing comma not allowed
		// without surrounding parentheses" for `from m import a,` (here the
		// generic "invalid syntax").
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

// exprOrAssignStmt parses an expression statement or one of the
// assignments (§7.1, §7.2), told apart by what follows the first
// expression list: ':' annotates, an augmented operator such as '+='
// updates, '=' assigns, anything else ends an expression statement.
// t is the statement's first token: a parenthesized name is not a
// simple annotation target.
func (p *parser) exprOrAssignStmt(pos Pos, t token) (Stmt, error) {
	// The statement's first expression list is parsed before anything
	// says what it is: Python's grammar decides between an expression
	// statement and the assignments only by the token after it, which is
	// why targets are checked afterwards (checkTarget, checkAssign) rather
	// than parsed by a target rule, and why CPython reports an invalid
	// target at the target, after seeing the '='.
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
		switch first.(type) {
		case *Name, *Attribute, *Subscript:
		// CPython's invalid_ann_assign_target names the kind of the bad
		// target; a parenthesized single name is allowed (it is an expression
		// target, not simple).
		case *Tuple:
			return nil, &Error{Ln: first.Lineno(), Msg: "only single target (not tuple) can be annotated"}
		case *List:
			return nil, &Error{Ln: first.Lineno(), Msg: "only single target (not list) can be annotated"}
		default:
			return nil, &Error{Ln: first.Lineno(), Msg: "illegal target for annotation"}
		}
		// `(x): int` is not simple: the parentheses make it an
		// expression target, whose annotation CPython does not store.
		_, isName := first.(*Name)
		a := &AnnAssign{Pos: pos, Target: first, Annotation: ann, Simple: isName && !(t.kind == tOp && t.val == "(")}
		if p.isOp("=") {
			p.next()
			if a.Value, err = p.starExprsOrYield(); err != nil {
				return nil, err
			}
		}
		return a, nil
	}
	// Every operator token ending in '=' that is not a comparison is an
	// augmented assignment operator or a tokenizer artifact; an unknown one
	// (there are none today) would be a plain syntax error.
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
	// `a = b = value`: every expression but the last is a target.
	if p.isOp("=") {
		// What CPython's invalid_named_expression sees (hintError): a
		// trailing comma after the first target, a bare yield after
		// the first '='.
		var shape assignShape
		shape.trailingComma = p.toks[max(p.pos-1, 0)].kind == tOp && p.toks[max(p.pos-1, 0)].val == ","
		shape.bare = []bool{t.kind == tName && t.val == "yield"}
		targets := []Expr{first}
		var value Expr
		for p.isOp("=") {
			p.next()
			if len(targets) == 1 {
				shape.bareYield = p.isKw("yield")
			}
			shape.bare = append(shape.bare, p.isKw("yield"))
			v, err := p.starExprsOrYield()
			if err != nil {
				return nil, err
			}
			targets = append(targets, v)
		}
		// The value may itself be a yield (`x = yield y`), as CPython's
		// assignment rule allows (yield_expr | star_expressions).
		value = targets[len(targets)-1]
		targets = targets[:len(targets)-1]
		if err := checkAssign(targets, value, shape); err != nil {
			return nil, err
		}
		return &Assign{Pos: pos, Targets: targets, Value: value}, nil
	}
	// A Python 2 print or exec statement gets CPython's hint.
	// This is CPython's invalid_legacy_expression: the hint is given only
	// when the name is followed by something that starts an expression, so
	// `print` alone and `print -1` (a subtraction) stay valid statements.
	if n, ok := first.(*Name); ok && (n.Id == "print" || n.Id == "exec") && p.startsExpr() {
		return nil, &Error{Ln: n.Line, Msg: fmt.Sprintf("Missing parentheses in call to '%s'. Did you mean %s(...)?", n.Id, n.Id)}
	}
	return &ExprStmt{pos, first}, nil
}

// augOps are the augmented assignment operators of §7.2.1 and the binary
// operator each applies.
var augOps = map[string]Operator{"+=": Add, "-=": Sub, "*=": Mult, "@=": MatMult, "/=": Div, "%=": Mod,
	"**=": Pow, "<<=": LShift, ">>=": RShift, "|=": BitOr, "^=": BitXor, "&=": BitAnd, "//=": FloorDiv}

// checkTarget reports e as an assignment target (aug: of an augmented
// assignment) that cannot be assigned, in CPython's words.
func checkTarget(e Expr, aug bool) error {
	if aug {
		switch e.(type) {
		case *Name, *Attribute, *Subscript:
			return nil
		}
		return &Error{Ln: e.Lineno(), Msg: fmt.Sprintf("'%s' is an illegal expression for augmented assignment", exprName(e))}
	}
	if bad := invalidTarget(e, false); bad != nil {
		return &Error{Ln: bad.Lineno(), Msg: "cannot assign to " + exprName(bad)}
	}
	return nil
}

// assignShape is what the tree of an assignment does not keep and
// hintError needs: whether the first target ends in a comma, and whether
// what follows the first '=' is a yield without parentheses; and which
// parts (targets, then the value) are yields without parentheses.
type assignShape struct {
	trailingComma, bareYield bool
	bare                     []bool
}

// checkAssign checks the targets of an assignment statement; value is
// what is assigned.
func checkAssign(targets []Expr, value Expr, shape assignShape) error {
	invalid := false
	for _, t := range targets {
		switch t.(type) {
		case *Yield, *YieldFrom:
			invalid = true
		}
		if invalidTarget(t, false) != nil {
			invalid = true
		}
	}
	if !invalid {
		return nil
	}
	if err := hintError(targets, value, shape); err != nil {
		return err
	}
	// The first invalid target decides, as CPython's invalid_assignment
	// tries its alternatives: a yield without parentheses has its own
	// message, anything else (a parenthesized `(yield)` too) is "cannot
	// assign to" its first invalid part.
	for i, t := range targets {
		switch t.(type) {
		case *Yield, *YieldFrom:
			if i < len(shape.bare) && shape.bare[i] {
				return &Error{Ln: t.Lineno(), Msg: "assignment to yield expression not possible"}
			}
		}
		if bad := invalidTarget(t, false); bad != nil {
			return &Error{Ln: bad.Lineno(), Msg: "cannot assign to " + exprName(bad)}
		}
	}
	return nil
}

// hintError is the error CPython 3.11 reports for an invalid assignment
// when its rule invalid_named_expression matches first, or nil. CPython
// reparses a failed statement as a comma list of named expressions
// (invalid_assignment), and the element just before the first '=' (the
// last element of the first target when that is a tuple without
// parentheses and without a trailing comma) is `x = y` misread as an
// expression when what follows '=' starts with a bitwise_or-level
// expression that is not followed by another '=': a plain name gets
// "invalid syntax. Maybe you meant '==' or ':=' instead of '='?" (even
// when another element is the invalid one: `f(), a = 1`), any other
// bitwise_or-level expression not starting with a list or tuple display,
// a generator expression, True, None or False gets "cannot assign to %s
// here. Maybe you meant '==' instead of '='?" (`a, f() = 1`, and even
// `f(), a.b = 1`).
func hintError(targets []Expr, value Expr, shape assignShape) error {
	if shape.trailingComma || shape.bareYield || len(shape.bare) > 0 && shape.bare[0] {
		// No element is followed by '=', no bitwise_or follows it, or
		// the statement starts with a yield, which is no element.
		return nil
	}
	e := targets[0]
	if tu, ok := e.(*Tuple); ok && bareTuple(tu) {
		e = tu.Elts[len(tu.Elts)-1]
	}
	next := value
	if len(targets) > 1 {
		next = targets[1]
	}
	if !startsBitwiseOr(next, len(targets) == 1) {
		return nil
	}
	if n, ok := e.(*Name); ok {
		return &Error{Ln: n.Line, Msg: "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"}
	}
	switch n := e.(type) {
	case *Starred, *Compare, *BoolOp, *IfExp, *Lambda:
		return nil
	case *UnaryOp:
		if n.Op == Not {
			return nil
		}
	}
	if startsWithDisplay(e) {
		return nil
	}
	return &Error{Ln: e.Lineno(), Msg: fmt.Sprintf("cannot assign to %s here. Maybe you meant '==' instead of '='?", exprName(e))}
}

// bareTuple reports whether tu was written without parentheses (`a, b`:
// it starts where its first element does).
func bareTuple(tu *Tuple) bool {
	return len(tu.Elts) > 0 && tu.Line == tu.Elts[0].(spanned).pos().Line && tu.Col == tu.Elts[0].(spanned).pos().Col
}

// startsBitwiseOr reports whether v, what follows an assignment's first
// '=', starts with a bitwise_or-level expression that is not followed by
// another '=': last is whether v is the assigned value (nothing follows
// it) rather than a further target (an '=' follows it).
func startsBitwiseOr(v Expr, last bool) bool {
	whole := true
	for {
		switch n := v.(type) {
		case *Tuple:
			if bareTuple(n) {
				v, whole = n.Elts[0], false
				continue
			}
		case *BoolOp:
			v, whole = n.Values[0], false
			continue
		case *Compare:
			v, whole = n.Left, false
			continue
		case *IfExp:
			v, whole = n.Body, false
			continue
		case *Lambda, *Starred:
			return false
		case *UnaryOp:
			if n.Op == Not {
				return false
			}
		}
		// A yield here is in parentheses (an atom): a bare one is
		// assignShape.bareYield.
		return last || !whole
	}
}

// startsWithDisplay reports whether e starts with a list display, a
// parenthesized tuple, a generator expression, True, None or False:
// CPython's invalid_named_expression leaves those out.
func startsWithDisplay(e Expr) bool {
	for {
		switch n := e.(type) {
		case *BinOp:
			e = n.Left
		case *Attribute:
			e = n.Value
		case *Subscript:
			e = n.Value
		case *Call:
			e = n.Func
		case *List, *GeneratorExp:
			return true
		case *Tuple:
			return !bareTuple(n)
		case *Constant:
			switch n.Value.(type) {
			case nil, bool:
				return true
			}
			return false
		default:
			return false
		}
	}
}

// invalidTarget is the first part of e that cannot be assigned to (or
// deleted), or nil. Targets are names, attributes, subscripts and
// (nested) tuples and lists of targets; a starred target may be assigned
// but not deleted (§7.2, §7.5).
func invalidTarget(e Expr, del bool) Expr {
	switch n := e.(type) {
	case *Name, *Attribute, *Subscript:
		return nil
	case *Tuple:
		for _, x := range n.Elts {
			if bad := invalidTarget(x, del); bad != nil {
				return bad
			}
		}
		return nil
	case *List:
		for _, x := range n.Elts {
			if bad := invalidTarget(x, del); bad != nil {
				return bad
			}
		}
		return nil
	case *Starred:
		if !del {
			return invalidTarget(n.Value, del)
		}
	}
	return e
}

// exprName is how CPython's messages name an expression
// (_PyPegen_get_expr_name).
func exprName(e Expr) string {
	switch n := e.(type) {
	case *Attribute:
		return "attribute"
	case *Subscript:
		return "subscript"
	case *Starred:
		return "starred"
	case *Name:
		return "name"
	case *List:
		return "list"
	case *Tuple:
		return "tuple"
	case *Lambda:
		return "lambda"
	case *Call:
		return "function call"
	case *BoolOp, *BinOp, *UnaryOp:
		return "expression"
	case *GeneratorExp:
		return "generator expression"
	case *Yield, *YieldFrom:
		return "yield expression"
	case *Await:
		return "await expression"
	case *ListComp:
		return "list comprehension"
	case *SetComp:
		return "set comprehension"
	case *DictComp:
		return "dict comprehension"
	case *Dict:
		return "dict literal"
	case *Set:
		return "set display"
	case *JoinedStr, *FormattedValue:
		return "f-string expression"
	case *Constant:
		switch v := n.Value.(type) {
		case nil:
			return "None"
		case bool:
			if v {
				return "True"
			}
			return "False"
		}
		if n.Kind == EllipsisConst {
			return "ellipsis"
		}
		return "literal"
	case *Compare:
		return "comparison"
	case *IfExp:
		return "conditional expression"
	case *NamedExpr:
		return "named expression"
	}
	return "expression"
}

// endOfSimple reports whether the current simple statement ends here
// (a bare return or raise).
func (p *parser) endOfSimple() bool {
	t := p.tok()
	return t.kind == tNewline || t.kind == tEOF || (t.kind == tOp && t.val == ";")
}

// dottedName parses a.b.c in an import.
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

// decorated parses decorators and the def, async def or class they
// decorate (§8.7). Since 3.9 a decorator is any expression
// (named_expression, PEP 614), each on its own line.
func (p *parser) decorated() (Stmt, error) {
	var decos []Expr
	for p.isOp("@") {
		p.next()
		d, err := p.namedExprTest()
		if err != nil {
			return nil, err
		}
		decos = append(decos, d)
		// Each decorator ends its own line.
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
	case p.isKw("async"):
		return p.asyncStmt(decos)
	}
	return nil, p.errf("invalid syntax")
}

// asyncStmt parses async def, async for and async with (PEP 492; CIP-3
// §2.2 allows single-threaded coroutines). The node starts at `async`, as
// CPython's AsyncFunctionDef, AsyncFor and AsyncWith do.
func (p *parser) asyncStmt(decos []Expr) (Stmt, error) {
	pos := p.start()
	p.next()
	var s Stmt
	var err error
	switch {
	case p.isKw("def"):
		s, err = p.funcDef(decos)
		if f, ok := s.(*FunctionDef); ok {
			f.IsAsync, f.Line, f.Col = true, pos.Line, pos.Col
		}
	// Only a def may be decorated.
	case p.isKw("for") && decos == nil:
		s, err = p.forStmt()
		if f, ok := s.(*For); ok {
			f.IsAsync, f.Line, f.Col = true, pos.Line, pos.Col
		}
	case p.isKw("with") && decos == nil:
		s, err = p.withStmt()
		if w, ok := s.(*With); ok {
			w.IsAsync, w.Line, w.Col = true, pos.Line, pos.Col
		}
	default:
		return nil, p.errf("invalid syntax")
	}
	return s, err
}

// funcDef parses `def name(params) [-> expr]: block` (§8.7).
func (p *parser) funcDef(decos []Expr) (Stmt, error) {
	pos := p.start()
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
	if f.Body, err = p.block("function definition", pos.Line); err != nil {
		return nil, err
	}
	p.finish(f, pos)
	return f, nil
}

// params parses a parameter list up to (not including) end: ')' for a
// def, ':' for a lambda, whose parameters take no annotations (§8.7,
// §6.14). The order is positional parameters, an optional '/' that makes
// those before it positional-only (PEP 570), '*' or *args, keyword-only
// parameters, then **kwargs last. A positional parameter without a
// default may not follow one with a default; keyword-only ones may mix.
func (p *parser) params(end string, annotations bool) (*Arguments, error) {
	a := &Arguments{}
	seenDefault, kwOnly := false, false
	for !p.isOp(end) {
		if a.KwArg != nil {
			return nil, p.errf("arguments cannot follow var-keyword argument")
		}
		switch {
		case p.isOp("/"):
			// '/' turns the parameters so far into positional-only
			// ones; it may appear once, after at least one parameter
			// and before any '*'.
			p.next()
			// CPython's messages for these three cases ("/ may appear only once",
			// "at least one argument must precede /", "/ must be ahead of *") are
			// "invalid syntax" here.
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
			// '*' alone or *args: what follows is keyword-only.
			p.next()
			if kwOnly {
				return nil, p.errf("* argument may appear only once")
			}
			kwOnly = true
			// A name after '*' is *args (VarArg); '*' followed by ',' or the end is
			// the bare separator, which must then be followed by keyword-only
			// parameters (checked after the loop).
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
			// Keyword-only parameters keep one default slot each (nil for none),
			// aligned with KwOnlyArgs as in CPython's ast.arguments.kw_defaults;
			// positional defaults are right-aligned with Args instead.
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
	// A bare '*' must be followed by at least one keyword-only parameter.
	if kwOnly && a.VarArg == nil && len(a.KwOnlyArgs) == 0 {
		return nil, p.errf("named arguments must follow bare *")
	}
	return a, nil
}

// param parses one parameter name and, in a def, its annotation.
func (p *parser) param(annotations bool) (*Arg, error) {
	pos := p.start()
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
	p.finish(arg, pos)
	return arg, nil
}

// classDef parses `class name[(arguments)]: block` (§8.8); the
// arguments are parsed as a call's.
func (p *parser) classDef(decos []Expr) (Stmt, error) {
	pos := p.start()
	p.next()
	name, err := p.name()
	if err != nil {
		return nil, err
	}
	// `class C():` with empty parentheses is allowed and gives no bases,
	// as in CPython.
	c := &ClassDef{Pos: pos, Name: name, DecoratorList: decos}
	if p.isOp("(") {
		p.next()
		args, kws, err := p.callArgs()
		if err != nil {
			return nil, err
		}
		c.Bases, c.Keywords = args, kws
	}
	if c.Body, err = p.block("class definition", pos.Line); err != nil {
		return nil, err
	}
	p.finish(c, pos)
	return c, nil
}

// ifStmt parses an if or elif clause and the rest of its chain (§8.1):
// an elif is a nested If in Orelse.
func (p *parser) ifStmt() (Stmt, error) {
	pos := p.start()
	kw := p.next().val // if or elif
	test, err := p.namedExprTest()
	if err != nil {
		return nil, err
	}
	if p.isOp("=") {
		return nil, p.errf("invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
	}
	body, err := p.block("'"+kw+"' statement", pos.Line)
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
		if s.Orelse, err = p.block("'else' statement", p.prevLine()); err != nil {
			return nil, err
		}
	}
	p.finish(s, pos)
	return s, nil
}

// whileStmt parses `while test: block [else: block]` (§8.2).
func (p *parser) whileStmt() (Stmt, error) {
	pos := p.start()
	p.next()
	test, err := p.namedExprTest()
	if err != nil {
		return nil, err
	}
	if p.isOp("=") {
		return nil, p.errf("invalid syntax. Maybe you meant '==' or ':=' instead of '='?")
	}
	body, err := p.block("'while' statement", pos.Line)
	if err != nil {
		return nil, err
	}
	s := &While{Pos: pos, Test: test, Body: body}
	if p.isKw("else") {
		p.next()
		if s.Orelse, err = p.block("'else' statement", p.prevLine()); err != nil {
			return nil, err
		}
	}
	p.finish(s, pos)
	return s, nil
}

// forStmt parses `for targets in exprs: block [else: block]` (§8.3).
func (p *parser) forStmt() (Stmt, error) {
	pos := p.start()
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
	body, err := p.block("'for' statement", pos.Line)
	if err != nil {
		return nil, err
	}
	s := &For{Pos: pos, Target: target, Iter: iter, Body: body}
	if p.isKw("else") {
		p.next()
		if s.Orelse, err = p.block("'else' statement", p.prevLine()); err != nil {
			return nil, err
		}
	}
	p.finish(s, pos)
	return s, nil
}

// targetList parses for-loop and comprehension targets (stops before "in").
// Each target is parsed at bitwise_or level, below comparisons, so the
// `in` that follows is not taken for a membership test.
func (p *parser) targetList() (Expr, error) {
	pos := p.start()
	var elts []Expr
	trailing := false
	for {
		var e Expr
		var err error
		if p.isOp("*") {
			// A starred target is allowed in a for target list (`for a, *b in
			// x`); the compiler checks that there is at most one per list.
			sp := p.start()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			e = &Starred{p.span(sp), v}
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
		// `for x, in y` is the trailing comma of a one-element tuple target.
		if p.isKw("in") {
			break
		}
	}
	// `for x in` binds x itself; `for x, in` binds a one-element tuple.
	if len(elts) == 1 && !trailing {
		return elts[0], nil
	}
	return &Tuple{p.span(pos), elts}, nil
}

// tryStmt parses a try statement (§8.4): except clauses, then else (only
// after an except), then finally; a try needs at least one except or a
// finally. except* (PEP 654, exception groups) is refused.
func (p *parser) tryStmt() (Stmt, error) {
	pos := p.start()
	p.next()
	body, err := p.block("'try' statement", pos.Line)
	if err != nil {
		return nil, err
	}
	t := &Try{Pos: pos, Body: body}
	// Handlers are kept in source order: the compiler tries them in that
	// order, and a bare except that is not last is refused by the compiler
	// ("default 'except:' must be last"), as CPython's compiler does.
	for p.isKw("except") {
		hp := p.start()
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
				// `except A, B:` was Python 2's `except A as B`.
				return nil, &Error{Ln: h.Type.Lineno(), Msg: "multiple exception types must be parenthesized"}
			}
			if p.isKw("as") {
				p.next()
				if h.Name, err = p.name(); err != nil {
					return nil, err
				}
			}
		}
		if h.Body, err = p.block("'except' statement", hp.Line); err != nil {
			return nil, err
		}
		p.finish(h, hp)
		t.Handlers = append(t.Handlers, h)
	}
	if p.isKw("else") {
		if len(t.Handlers) == 0 {
			return nil, p.errf("invalid syntax")
		}
		p.next()
		if t.Orelse, err = p.block("'else' statement", p.prevLine()); err != nil {
			return nil, err
		}
	}
	if p.isKw("finally") {
		p.next()
		if t.Finalbody, err = p.block("'finally' statement", p.prevLine()); err != nil {
			return nil, err
		}
	}
	if len(t.Handlers) == 0 && t.Finalbody == nil {
		return nil, p.errf("expected 'except' or 'finally' block")
	}
	p.finish(t, pos)
	return t, nil
}

// withStmt parses a with statement (§8.5). `with (a, b):` is ambiguous:
// since 3.10 it can be a parenthesized list of items, or one item whose
// context expression is a tuple. CPython's grammar tries the item list
// first; so does this, keeping it only when the ')' is followed by ':'.
func (p *parser) withStmt() (Stmt, error) {
	pos := p.start()
	p.next()
	w := &With{Pos: pos}
	paren := false
	if p.isOp("(") {
		// Parenthesized with-items (3.10+) or a parenthesized expression:
		// try the item form and fall back.
		// One of the parser's two backtracking points: the items are parsed
		// speculatively and, if the ')' is not followed by ':', the position is
		// reset and the whole parenthesized expression is parsed as the first
		// item's context expression.
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
	if w.Body, err = p.block("'with' statement", pos.Line); err != nil {
		return nil, err
	}
	p.finish(w, pos)
	return w, nil
}

// withItems parses `expr [as target]` items up to end, a trailing comma
// allowed.
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
		// A trailing comma is allowed before end in both forms. CPython allows
		// it only inside the parentheses: `with a, :` is "invalid syntax" there
		// and accepted here.
		if p.isOp(end) {
			break
		}
	}
	return items, nil
}

// targetAtom parses the target of a with item's `as`.
func (p *parser) targetAtom() (Expr, error) {
	// The target is parsed at bitwise_or level (CPython's star_target
	// without the star), so `as` takes a name, attribute, subscript or a
	// parenthesized tuple or list of those.
	e, err := p.bitOr()
	if err != nil {
		return nil, err
	}
	return e, checkTarget(e, false)
}

// Expressions. The methods below descend the precedence table of
// Language Reference §6.17, loosest first: starExprs (tuples without
// brackets), namedExprTest (:=), test (lambda, if-else), orTest, andTest,
// notTest, comparison, bitOr, bitXor, bitAnd, shift, arith, term, factor
// (unary - + ~), power (** and await), primary (calls, subscripts,
// attributes) and atom.

// starExprs parses a comma-separated list that may contain *x and makes a
// tuple when there is a comma (star_expressions, §6.15): `return 1, 2`,
// `for x in a, b:`, the right side of an assignment. A lone *x is not
// allowed without a comma.
//
// Each element may be an unparenthesized walrus here (namedExprTest).
// CPython's star_expressions (statements, return, yield, for, the right
// side of an assignment) take `expression`, which has no ':='; only
// displays and call arguments take named_expression. So `x := 1` as a
// statement, `return x := 1` and `a = x := 1` are accepted here and
// refused by CPython ("invalid syntax").
func (p *parser) starExprs() (Expr, error) {
	pos := p.start()
	var elts []Expr
	trailing := false
	for {
		var e Expr
		var err error
		if p.isOp("*") {
			// A starred element is parsed at bitwise_or level, as CPython's
			// star_named_expression is '*' bitwise_or: `*a or b` is not a starred
			// boolean.
			sp := p.start()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			e = &Starred{p.span(sp), v}
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
	return &Tuple{p.span(pos), elts}, nil
}

// starExprsOrYield is starExprs or a yield expression, the right-hand
// side of an assignment or an expression statement.
func (p *parser) starExprsOrYield() (Expr, error) {
	if p.isKw("yield") {
		return p.yieldExpr()
	}
	return p.starExprs()
}

// exprEnd reports whether the current token ends an expression list, so
// that a trailing comma before it is allowed: a closing bracket, '=',
// ':', ';', an augmented assignment operator, `in` (a for target) or the
// end of the line.
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
		// Operator 0 is not a valid augOps value (the Operator constants start
		// at 1), so the map's zero answer means "not an augmented operator".
		return augOps[t.val] != 0
	}
	return t.kind == tName && (t.val == "in")
}

// exprList parses the targets of a del statement (del_targets), at
// bitwise_or level.
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

// yieldExpr parses `yield [exprs]` or `yield from expr` (§6.2.9).
func (p *parser) yieldExpr() (Expr, error) {
	pos := p.start()
	p.next()
	if p.isKw("from") {
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		return &YieldFrom{p.span(pos), v}, nil
	}
	// `yield` alone yields None; `yield a, *b` yields a tuple, while
	// `yield from` takes a single expression.
	y := &Yield{Pos: pos}
	if !p.exprEnd() {
		v, err := p.starExprs()
		if err != nil {
			return nil, err
		}
		y.Value = v
	}
	p.finish(y, pos)
	return y, nil
}

// namedExprTest parses named_expression: `name := test` or a test
// (§6.12). The target must be a bare name; anything else before ':=' is
// CPython's "cannot use assignment expressions with ..." error.
func (p *parser) namedExprTest() (Expr, error) {
	// Two tokens of lookahead decide the walrus without backtracking: only
	// NAME ':=' starts one.
	if p.tok().kind == tName && p.peek(1).kind == tOp && p.peek(1).val == ":=" {
		pos := p.start()
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		target := &Name{p.span(pos), n}
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		return &NamedExpr{p.span(pos), target, v}, nil
	}
	// Anything but a bare name before ':=' (a.b := 1, (x) := 1) is an
	// error naming what it is.
	e, err := p.test()
	if err == nil && p.isOp(":=") {
		return nil, &Error{Ln: e.Lineno(), Msg: "cannot use assignment expressions with " + exprName(e)}
	}
	return e, err
}

// test parses expression: a lambda, or `a if cond else b` (§6.13), whose
// else branch may itself be a conditional (right-associative).
func (p *parser) test() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	// A lambda is a test but not an orTest, so `lambda: x if c else y`
	// parses the whole conditional as the lambda's body, as CPython does.
	if p.isKw("lambda") {
		return p.lambda()
	}
	pos := p.start()
	e, err := p.orTest()
	if err != nil {
		return nil, err
	}
	if p.isKw("if") {
		p.next()
		// The condition is a disjunction, not a test: `a if b if c else d else
		// e` is invalid, as in CPython's grammar.
		cond, err := p.orTest()
		if err != nil {
			return nil, err
		}
		if !p.isKw("else") {
			return nil, p.errf("expected 'else' after 'if' expression")
		}
		p.next()
		orelse, err := p.test()
		if err != nil {
			return nil, err
		}
		return &IfExp{p.span(pos), cond, e, orelse}, nil
	}
	return e, nil
}

// lambda parses `lambda params: test` (§6.14).
func (p *parser) lambda() (Expr, error) {
	pos := p.start()
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
	return &Lambda{p.span(pos), args, body}, nil
}

// orTest and andTest parse disjunction and conjunction (§6.11): and
// binds tighter than or.
func (p *parser) orTest() (Expr, error) { return p.boolChain("or", Or, p.andTest) }

// andTest is the conjunction level, below orTest.
func (p *parser) andTest() (Expr, error) { return p.boolChain("and", And, p.notTest) }

// boolChain parses operand (kw operand)* into one BoolOp, as CPython does
// (a or b or c is a single node with three values).
// The operand levels nest: orTest's operands are andTests, so `a or b
// and c` is BoolOp(or, [a, BoolOp(and, [b, c])]).
func (p *parser) boolChain(kw string, op BoolOperator, operand func() (Expr, error)) (Expr, error) {
	pos := p.start()
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
	return &BoolOp{p.span(pos), op, vals}, nil
}

// notTest parses inversion: `not` binds looser than comparisons, so
// `not a == b` is `not (a == b)` (§6.11).
func (p *parser) notTest() (Expr, error) {
	if p.isKw("not") {
		pos := p.start()
		p.next()
		// `not not not ... x` recurses once per not, so each counts toward
		// maxParseDepth like a nested bracket.
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		e, err := p.notTest()
		if err != nil {
			return nil, err
		}
		return &UnaryOp{p.span(pos), Not, e}, nil
	}
	return p.comparison()
}

// compOp reports the comparison operator at the current token without
// consuming it; `not in` and `is not` are two tokens each (§6.10).
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
		// `is not` is recognised by comparison after it consumes is, since
		// `is` alone is a complete operator.
		case "is":
			return Is, true
		}
	}
	return 0, false
}

// comparison parses a chain of comparisons into one Compare (§6.10: all
// comparison operators share one precedence and chain).
func (p *parser) comparison() (Expr, error) {
	pos := p.start()
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
		// compOp only looked: consume the operator, two tokens for
		// `not in` and `is not`.
		p.next()
		if op == NotIn {
			p.next()
		}
		if op == Is && p.isKw("not") {
			p.next()
			op = IsNot
		}
		// Each comparand is a bitwise_or: comparison operators do not nest, so
		// `a < b < c` is one Compare with two operators (evaluated as a < b and
		// b < c with b computed once).
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
	return &Compare{p.span(pos), e, ops, comps}, nil
}

// binary parses one left-associative level of binary operators: operands
// from next joined by any operator in ops, `a - b - c` as `(a - b) - c`.
func (p *parser) binary(ops map[string]Operator, next func() (Expr, error)) (Expr, error) {
	start := p.start()
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
		// Looping instead of recursing makes the level left-associative and
		// keeps deep chains (a + b + c + ...) off the Go stack: only nesting
		// (brackets, unary operators, **) counts toward maxParseDepth.
		e = &BinOp{p.span(start), e, op, r}
	}
}

// The binary operator levels, loosest first (§6.7–§6.9).
var (
	opsOr    = map[string]Operator{"|": BitOr}
	opsXor   = map[string]Operator{"^": BitXor}
	opsAnd   = map[string]Operator{"&": BitAnd}
	opsShift = map[string]Operator{"<<": LShift, ">>": RShift}
	opsArith = map[string]Operator{"+": Add, "-": Sub}
	opsTerm  = map[string]Operator{"*": Mult, "/": Div, "//": FloorDiv, "%": Mod, "@": MatMult}
)

// bitOr down to term parse one binary level each, calling the next
// tighter one for their operands: | ^ & (<< >>) (+ -) (* / // % @).
func (p *parser) bitOr() (Expr, error)  { return p.binary(opsOr, p.bitXor) }
func (p *parser) bitXor() (Expr, error) { return p.binary(opsXor, p.bitAnd) }
func (p *parser) bitAnd() (Expr, error) { return p.binary(opsAnd, p.shift) }
func (p *parser) shift() (Expr, error)  { return p.binary(opsShift, p.arith) }
func (p *parser) arith() (Expr, error)  { return p.binary(opsArith, p.term) }
func (p *parser) term() (Expr, error)   { return p.binary(opsTerm, p.factor) }

// factor parses unary -, + and ~ (§6.6). They bind looser than ** on
// their right, so -2**2 is -(2**2).
func (p *parser) factor() (Expr, error) {
	t := p.tok()
	if t.kind == tOp && (t.val == "-" || t.val == "+" || t.val == "~") {
		pos := p.start()
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		e, err := p.factor()
		if err != nil {
			return nil, err
		}
		// A negative number literal stays UnaryOp(USub, Constant) as in
		// CPython's AST; folding it into a constant is the compiler's business.
		op := map[string]UnaryOperator{"-": USub, "+": UAdd, "~": Invert}[t.val]
		return &UnaryOp{p.span(pos), op, e}, nil
	}
	return p.power()
}

// power parses `[await] primary [** factor]` (§6.4, §6.5). The right
// operand is a factor, so 2**-1 parses and a**b**c is a**(b**c).
func (p *parser) power() (Expr, error) {
	pos := p.start()
	var e Expr
	// await binds tighter than ** on its left (`await x ** 2` is
	// (await x) ** 2) and takes a primary, as CPython's await_primary does;
	// whether await is allowed here is decided by the compiler (inside an
	// async def only).
	if p.isKw("await") {
		p.next()
		v, err := p.primary()
		if err != nil {
			return nil, err
		}
		e = &Await{p.span(pos), v}
	} else {
		v, err := p.primary()
		if err != nil {
			return nil, err
		}
		e = v
	}
	if p.isOp("**") {
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		// The right operand is a factor, so ** is right-associative through
		// factor -> power -> factor, and `2 ** -1` needs no parentheses.
		r, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &BinOp{p.span(pos), e, Pow, r}, nil
	}
	return e, nil
}

// primary parses an atom followed by any number of trailers: .name,
// (arguments) and [subscript] (§6.3).
func (p *parser) primary() (Expr, error) {
	start := p.start()
	e, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.isOp("."):
			p.next()
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			e = &Attribute{p.span(start), e, n}
		// A call's arguments, a subscript and an attribute all extend the same
		// primary, so a.b(c)[d].e is one left-to-right chain whose span starts
		// at the atom.
		case p.isOp("("):
			p.next()
			args, kws, err := p.callArgs()
			if err != nil {
				return nil, err
			}
			e = &Call{p.span(start), e, args, kws}
		case p.isOp("["):
			p.next()
			s, err := p.subscript()
			if err != nil {
				return nil, err
			}
			if err := p.expectOp("]"); err != nil {
				return nil, err
			}
			e = &Subscript{p.span(start), e, s}
		default:
			return e, nil
		}
	}
}

// callArgs parses arguments after "(" through ")" (§6.3.4): positional
// arguments and *x, then keyword arguments and **m, with CPython's errors
// for the orders it refuses (a positional after a keyword, *x after **m).
// `name=` is recognized by one token of lookahead. A generator
// expression may be the sole argument without its own parentheses.
func (p *parser) callArgs() ([]Expr, []*Keyword, error) {
	// The checks below are CPython's invalid_arguments and invalid_kwarg
	// rules: the order of positional, keyword, *x and **m arguments is free
	// except that a positional (or *x) may not follow **m and a positional
	// may not follow a keyword argument.
	open := p.toks[p.pos-1] // the '(' just consumed
	var genexp *GeneratorExp
	var args []Expr
	var kws []*Keyword
	for !p.isOp(")") {
		switch {
		case p.isOp("*"):
			// *x may follow keyword arguments (f(k=1, *a) is valid) but
			// not a **m.
			pos := p.start()
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			for _, k := range kws {
				if k.Arg == "" {
					return nil, nil, &Error{Ln: pos.Line, Msg: "iterable argument unpacking follows keyword argument unpacking"}
				}
			}
			args = append(args, &Starred{p.span(pos), v})
		case p.isOp("**"):
			// **m is a Keyword without a name; positional arguments may
			// not follow it, keywords may.
			pos := p.start()
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			kws = append(kws, &Keyword{Pos: p.span(pos), Value: v})
		case p.tok().kind == tName && p.peek(1).kind == tOp && p.peek(1).val == "=":
			// name=value: a keyword argument, told from an expression by
			// one token of lookahead ("==" is a different token).
			pos := p.start()
			n, err := p.name()
			if err != nil {
				return nil, nil, err
			}
			p.next()
			v, err := p.test()
			if err != nil {
				return nil, nil, err
			}
			kws = append(kws, &Keyword{Pos: p.span(pos), Arg: n, Value: v})
		default:
			v, err := p.namedExprTest()
			if err != nil {
				return nil, nil, err
			}
			// f(a.b=1): '=' after an expression that is not a bare
			// name is CPython's hint, not a keyword argument.
			if p.isOp("=") {
				return nil, nil, p.errf(`expression cannot contain assignment, perhaps you meant "=="?`)
			}
			if p.isKw("for") || p.isAsyncFor() {
				// f(x for x in y): the generator expression starts at
				// the call's '(' (its end is set once the ')' is seen).
				gens, err := p.compFor()
				if err != nil {
					return nil, nil, err
				}
				genexp = &GeneratorExp{Pos{Line: open.line, Col: open.col}, v, gens}
				v = genexp
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
	if genexp != nil {
		// A generator expression as the sole argument takes the call's
		// parentheses as its own.
		// The count misses one case: `f(x for x in y,)`, a sole generator
		// expression followed by a comma, is accepted here and refused by CPython
		// ("Generator expression must be parenthesized"). Class bases are
		// parsed by this function too, so `class A(x for x in y):` is accepted
		// here as well (CPython: "invalid syntax").
		if len(args)+len(kws) > 1 {
			return nil, nil, &Error{Ln: genexp.Line, Msg: "Generator expression must be parenthesized"}
		}
		genexp.Pos = p.span(genexp.Pos)
	}
	return args, kws, nil
}

// subscript parses the inside of [...] (§6.3.2, §6.3.3): one index or
// slice, or several separated by commas as a Tuple (a[1:2, 3]); *x is
// allowed among them (PEP 646, new in 3.11).
func (p *parser) subscript() (Expr, error) {
	pos := p.start()
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
	// a[i] has i itself as its slice; a[i,] and a[*i] have a tuple.
	if _, star := elts[0].(*Starred); len(elts) == 1 && !trailing && !star {
		return elts[0], nil
	}
	return &Tuple{p.span(pos), elts}, nil
}

// sliceItem parses one index, *x, or [lower]:[upper][:[step]].
func (p *parser) sliceItem() (Expr, error) {
	pos := p.start()
	var lower Expr
	var err error
	if !p.isOp(":") {
		if p.isOp("*") {
			sp := p.start()
			p.next()
			v, err := p.bitOr()
			if err != nil {
				return nil, err
			}
			return &Starred{p.span(sp), v}, nil
		}
		// An index may be a walrus (a[i := 0]), a slice bound may not: CPython's
		// slice rule takes `expression` for the bounds and named_expression for
		// a plain index.
		if lower, err = p.namedExprTest(); err != nil {
			return nil, err
		}
		if !p.isOp(":") {
			return lower, nil
		}
	}
	p.next()
	s := &Slice{Pos: pos, Lower: lower}
	// Each bound is optional: a[:], a[::2] and a[1:] leave Lower, Upper or
	// Step nil, which the compiler loads as None.
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
	p.finish(s, pos)
	return s, nil
}

// compFor parses the `for ... in ... [if ...]` clauses of a comprehension
// (§6.2.4). The iterable is an or_test (disjunction), so `x for x in a if
// b else c` reads the if as a filter. `async for` clauses are refused.
func (p *parser) compFor() ([]*Comprehension, error) {
	var gens []*Comprehension
	for p.isKw("for") || p.isAsyncFor() {
		if p.isAsyncFor() {
			return nil, p.errf("PVM: asynchronous comprehensions (async for in a comprehension) are not supported")
		}
		p.next()
		target, err := p.targetList()
		if err != nil {
			return nil, err
		}
		if err := p.expectKw("in"); err != nil {
			return nil, err
		}
		// The iterable is a disjunction, not a test: in `[x for x in a if b]`
		// the `if` is a filter, never the start of a conditional expression.
		iter, err := p.orTest()
		if err != nil {
			return nil, err
		}
		g := &Comprehension{Target: target, Iter: iter}
		for p.isKw("if") {
			p.next()
			// A filter is a disjunction (CPython 3.11's grammar): no
			// conditional expression, whose `if` would be ambiguous
			// with the next filter's, and no lambda.
			c, err := p.orTest()
			if err != nil {
				return nil, err
			}
			g.Ifs = append(g.Ifs, c)
		}
		gens = append(gens, g)
	}
	return gens, nil
}

// atom parses names, literals and the bracketed forms (§6.2): () is the
// empty tuple, (x) is x itself (a group makes no node), (x,) a tuple,
// (x for ...) a generator expression and (yield x) a yield; [...] is a
// list or list comprehension and {...} goes to braces.
func (p *parser) atom() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	t := p.tok()
	pos := p.start()
	switch t.kind {
	case tNumber:
		p.next()
		return &Constant{Pos: p.span(pos), Value: t.num}, nil
	case tString:
		return p.strings()
	case tName:
		// None, True and False are keywords that make constants.
		switch t.val {
		case "None":
			p.next()
			return &Constant{Pos: p.span(pos), Value: nil}, nil
		case "True":
			p.next()
			return &Constant{Pos: p.span(pos), Value: true}, nil
		case "False":
			p.next()
			return &Constant{Pos: p.span(pos), Value: false}, nil
		}
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		return &Name{p.span(pos), n}, nil
	case tOp:
		switch t.val {
		case "...":
			p.next()
			return &Constant{Pos: p.span(pos), Kind: EllipsisConst, Value: ellipsisMarker{}}, nil
		case "(":
			p.next()
			if p.isOp(")") {
				p.next()
				return &Tuple{p.span(pos), nil}, nil
			}
			// `(yield x)` is the one place a yield expression appears inside
			// another expression; the parentheses are required there and make no
			// node of their own.
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
			if p.isKw("for") || p.isAsyncFor() {
				gens, err := p.compFor()
				if err != nil {
					return nil, err
				}
				return p.closeWith(")", &GeneratorExp{pos, first, gens})
			}
			// (x) is x itself, its span without the parentheses, as
			// in CPython's ast; a tuple's span includes them.
			if p.isOp(")") {
				p.next()
				if _, ok := first.(*Starred); ok {
					return nil, &Error{Ln: pos.Line, Msg: "can't use starred expression here"}
				}
				return first, nil
			}
			// Elements of a display are star_named_expressions: `(a, *b, c := 1)`
			// and `[*a, *b]` are allowed; whether a starred element is allowed at
			// all is left to the compiler, which refuses it outside displays,
			// calls and assignment targets.
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
			return p.closeWith(")", &Tuple{pos, elts})
		case "[":
			p.next()
			if p.isOp("]") {
				p.next()
				return &List{p.span(pos), nil}, nil
			}
			first, err := p.starOrNamed()
			if err != nil {
				return nil, err
			}
			if p.isKw("for") || p.isAsyncFor() {
				gens, err := p.compFor()
				if err != nil {
					return nil, err
				}
				return p.closeWith("]", &ListComp{pos, first, gens})
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
			return p.closeWith("]", &List{pos, elts})
		case "{":
			return p.braces()
		}
	}
	return nil, p.errf("invalid syntax")
}

// ellipsisMarker is the Value of the ... constant, which has no Go value
// of its own; Kind EllipsisConst tells it apart.
type ellipsisMarker struct{}

// closeWith consumes the closing bracket of n and gives n its span from
// its start through the bracket.
func (p *parser) closeWith(closer string, n interface {
	Expr
	spanned
}) (Expr, error) {
	if err := p.expectOp(closer); err != nil {
		return nil, err
	}
	p.finish(n, *n.pos())
	return n, nil
}

// starOrNamed parses one element of a display: *x or a named expression.
// The star takes a bitwise_or, so `[*a or b]` is not a starred
// disjunction but a syntax error after `*a`.
func (p *parser) starOrNamed() (Expr, error) {
	if p.isOp("*") {
		pos := p.start()
		p.next()
		v, err := p.bitOr()
		if err != nil {
			return nil, err
		}
		return &Starred{p.span(pos), v}, nil
	}
	return p.namedExprTest()
}

// braces parses what starts with '{' (§6.2.6, §6.2.7): {} is an empty
// dict; the first element decides between a dict (k: v or **m), a dict
// comprehension, a set comprehension and a set.
func (p *parser) braces() (Expr, error) {
	pos := p.start()
	p.next()
	if p.isOp("}") {
		p.next()
		return &Dict{Pos: p.span(pos)}, nil
	}
	// Dict or set? {**m, ...} can only be a dict; otherwise the first
	// element decides: `k: v` a dict (or dict comprehension), else a set
	// (or set comprehension).
	//
	// A leading **m makes a dict: CPython's grammar has no set unpacking
	// with **. A later **m is handled by dictRest, and `{**a for a in b}`
	// reaches closeWith, whose error is "expected '}'" where CPython says
	// "dict unpacking cannot be used in dict comprehension".
	if p.isOp("**") {
		return p.dictRest(pos, nil, nil)
	}
	first, err := p.starOrNamed()
	if err != nil {
		return nil, err
	}
	// The first key was parsed as a display element (starOrNamed), so a
	// starred or walrus first key gets here and is refused later or, for
	// `{a := 1: 2}`, accepted (CPython: invalid syntax; keys are
	// `expression`).
	if p.isOp(":") {
		p.next()
		v, err := p.test()
		if err != nil {
			return nil, err
		}
		if p.isKw("for") || p.isAsyncFor() {
			gens, err := p.compFor()
			if err != nil {
				return nil, err
			}
			return p.closeWith("}", &DictComp{pos, first, v, gens})
		}
		return p.dictRest(pos, []Expr{first}, []Expr{v})
	}
	if p.isKw("for") || p.isAsyncFor() {
		gens, err := p.compFor()
		if err != nil {
			return nil, err
		}
		return p.closeWith("}", &SetComp{pos, first, gens})
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
	return p.closeWith("}", &Set{pos, elts})
}

// dictRest parses the remaining `k: v` and `**m` items of a dict display
// through the '}'; a **m operand is a bitwise_or, as in CPython's
// grammar.
func (p *parser) dictRest(pos Pos, keys, vals []Expr) (Expr, error) {
	if len(keys) > 0 {
		if !p.isOp(",") {
			return p.closeWith("}", &Dict{pos, keys, vals})
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
			// Keys after the first are plain expressions (CPython's kvpair is
			// expression ':' expression), and a value may not be starred.
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
	return p.closeWith("}", &Dict{pos, keys, vals})
}

// strings parses adjacent string literals into one Constant or JoinedStr
// (§2.4.2: adjacent literals concatenate at compile time; str and bytes
// may not mix). If any part is an f-string the result is a JoinedStr in
// which neighbouring literal text, from plain and f-string parts alike,
// is merged into one Constant, as CPython does.
// The parts of a JoinedStr carry the positions CPython 3.11 gives them:
// literal parts and replacement fields span the whole concatenation, a
// format spec spans the literal it is written in (its literal parts run on
// to the end of the concatenation), and the expressions inside fields have
// their true positions.
func (p *parser) strings() (Expr, error) {
	first := p.pos
	for p.tok().kind == tString {
		p.next()
	}
	toks := p.toks[first:p.pos]
	whole := p.span(Pos{Line: toks[0].line, Col: toks[0].col})
	var parts []Expr
	var buf strings.Builder
	// Adjacent literals are joined here, in the parser, as CPython's
	// concatenation is in the parser too (_PyPegen_concatenate_strings):
	// the compiler sees one Constant or one JoinedStr, so "a" "b" costs the
	// same as "ab" at run time.
	isBytes, anyF := toks[0].isBytes, false
	flush := func() {
		if buf.Len() > 0 {
			parts = append(parts, &Constant{Pos: whole, Value: buf.String()})
			buf.Reset()
		}
	}
	// Plain parts are already decoded (token.str) and go straight into
	// buf; an f-string's fields interrupt it.
	for _, t := range toks {
		if t.isBytes != isBytes {
			return nil, &Error{Ln: toks[0].line, Msg: "cannot mix bytes and nonbytes literals"}
		}
		if !t.isF {
			buf.WriteString(t.str)
			continue
		}
		anyF = true
		vals, _, err := p.fstringBody(t, t.val, t.bodyOff, whole, 0)
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
	// No f-string: one Constant, with the u prefix of the first part
	// recorded as CPython's ast records it (kind='u').
	if !anyF {
		kind := StrConst
		if isBytes {
			kind = BytesConst
		}
		return &Constant{Pos: whole, Value: buf.String(), Kind: kind, U: toks[0].isU}, nil
	}
	flush()
	return &JoinedStr{whole, parts}, nil
}

// fstringBody splits the f-string text s, found at offset base of token
// t's text, into literal Constants and FormattedValues, parsing each
// replacement field as an expression. depth is 0 for the string itself and
// one more for each format spec around s.
//
// CPython 3.11 parses f-strings outside its grammar (Parser/string_parser.c)
// and this follows its rules (§2.4.3): {{ and }} are literal braces; a
// field is {expr[=][!conv][:spec]}; the expression may not contain a
// backslash or '#', and may not reuse the f-string's own quote (the
// tokenizer already ended the string there); `=` writes the expression's
// text and selects !r unless a conversion or spec is given; a spec may
// contain fields itself, but only one level deep. Escapes are decoded
// in the literal parts only.
func (p *parser) fstringBody(t token, s string, base int, whole Pos, depth int) (parts []Expr, end int, err error) {
	line := t.line
	// Literal text before a field spans the whole concatenation; in a
	// format spec, the text after the last field spans token t only.
	litPos := whole
	tokPos := Pos{t.line, t.col, t.endLine, t.endCol}
	var out []Expr
	var lit strings.Builder
	flushLit := func(final bool) error {
		if lit.Len() == 0 {
			return nil
		}
		v, err := decodeEscapes(lit.String(), t.isRaw, false)
		if err != nil {
			return &Error{Ln: line, Msg: err.Error()}
		}
		pos := litPos
		if final && depth > 0 {
			pos = tokPos
		}
		out = append(out, &Constant{Pos: pos, Value: v})
		lit.Reset()
		return nil
	}
	// Walk s: literal text accumulates in lit (escapes still encoded,
	// decoded by flushLit), each '{' that opens a field flushes it and
	// parses the field, and in a format spec the '}' that closes the
	// enclosing field ends the walk (end reports where).
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && !t.isRaw && i+2 < len(s) && s[i+1] == 'N' && s[i+2] == '{' {
			// \N{NAME}: its braces are not a field.
			if end := strings.IndexByte(s[i:], '}'); end > 0 {
				lit.WriteString(s[i : i+end+1])
				i += end
				continue
			}
		}
		// Any other escape is kept for flushLit, its second character
		// included, so an escaped brace is not taken for a field.
		if c == '\\' && !t.isRaw && i+1 < len(s) {
			lit.WriteByte(c)
			lit.WriteByte(s[i+1])
			i++
			continue
		}
		if c == '}' && depth > 0 {
			end = i // the end of this format spec
			break
		}
		// Doubled braces are literal braces in the string itself, but
		// not in a format spec, where every '{' opens a field.
		if c == '{' && depth > 0 {
			// In a format spec every '{' opens a field.
		} else if c == '}' {
			if i+1 < len(s) && s[i+1] == '}' {
				lit.WriteByte('}')
				i++
				continue
			}
			return nil, 0, &Error{Ln: line, Msg: "f-string: single '}' is not allowed"}
		}
		if c != '{' {
			lit.WriteByte(c)
			continue
		}
		if depth == 0 && i+1 < len(s) && s[i+1] == '{' {
			lit.WriteByte('{')
			i++
			continue
		}
		if depth > 1 {
			return nil, 0, &Error{Ln: line, Msg: "f-string: expressions nested too deeply"}
		}
		if err := flushLit(false); err != nil {
			return nil, 0, err
		}
		// Find the end of the expression: a top-level '!', ':', '=' or '}'.
		// Brackets and quoted strings inside the expression are skipped,
		// and ==, !=, <= and >= are operators, not ends.
		j := i + 1
		level := 0
		quote := ""
		for ; j < len(s); j++ {
			ch := s[j]
			if ch == '\\' {
				return nil, 0, &Error{Ln: line, Msg: "f-string expression part cannot include a backslash"}
			}
			if quote != "" {
				if strings.HasPrefix(s[j:], quote) {
					j += len(quote) - 1
					quote = ""
				}
				continue
			}
			switch ch {
			case '#':
				return nil, 0, &Error{Ln: line, Msg: "f-string expression part cannot include '#'"}
			case '\'', '"':
				quote = s[j : j+1]
				if strings.HasPrefix(s[j:], strings.Repeat(quote, 3)) {
					quote = s[j : j+3]
					j += 2
				}
			case '(', '[', '{':
				level++
			case ')', ']', '}':
				if level == 0 && ch == '}' {
					goto exprEnd
				}
				level--
			case '=', '!', '<', '>':
				if j+1 < len(s) && s[j+1] == '=' {
					j++ // ==, !=, <=, >=
					continue
				}
				if level == 0 && (ch == '=' || ch == '!') {
					goto exprEnd
				}
			case ':':
				if level == 0 {
					goto exprEnd
				}
			}
		}
		if quote != "" {
			return nil, 0, &Error{Ln: line, Msg: "f-string: unterminated string"}
		}
		return nil, 0, &Error{Ln: line, Msg: "f-string: expecting '}'"}
	exprEnd:
		exprSrc := s[i+1 : j]
		if strings.TrimSpace(exprSrc) == "" {
			return nil, 0, &Error{Ln: line, Msg: "f-string: empty expression not allowed"}
		}
		// The field's expression is parsed on its own, with positions
		// moved to where CPython 3.11 puts them.
		lines, col := fieldStart(t, base+i)
		expr, err := p.parseSubExpr(exprSrc, line+lines, col)
		if err != nil {
			return nil, 0, err
		}
		fv := &FormattedValue{Pos: whole, Value: expr, Conversion: -1}
		selfDoc := false
		// {expr=}: the expression's source text, the '=' and the
		// whitespace after it become literal text before the value.
		if s[j] == '=' {
			selfDoc = true
			j++
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' || s[j] == '\f' || s[j] == '\v') {
				j++
			}
			out = append(out, &Constant{Pos: litPos, Value: s[i+1 : j]})
		}
		if j < len(s) && s[j] == '!' {
			if j+1 >= len(s) {
				return nil, 0, &Error{Ln: line, Msg: "f-string: expecting '}'"}
			}
			conv := s[j+1]
			if conv != 's' && conv != 'r' && conv != 'a' {
				return nil, 0, &Error{Ln: line, Msg: "f-string: invalid conversion character: expected 's', 'r', or 'a'"}
			}
			fv.Conversion = int(conv)
			j += 2
			if j < len(s) && s[j] != ':' && s[j] != '}' {
				return nil, 0, &Error{Ln: line, Msg: "f-string: expecting '}'"}
			}
		}
		if j < len(s) && s[j] == ':' {
			// The format spec runs to the '}' closing this field and may
			// hold fields of its own.
			specParts, n, err := p.fstringBody(t, s[j+1:], base+j+1, whole, depth+1)
			if err != nil {
				return nil, 0, err
			}
			fv.FormatSpec = &JoinedStr{tokPos, specParts}
			j += 1 + n
		} else if selfDoc && fv.Conversion == -1 {
			fv.Conversion = 'r'
		}
		if j >= len(s) || s[j] != '}' {
			return nil, 0, &Error{Ln: line, Msg: "f-string: expecting '}'"}
		}
		out = append(out, fv)
		i = j
	}
	if depth > 0 && end == 0 && (len(s) == 0 || s[0] != '}') {
		end = len(s) // no closing '}': the caller reports it
	}
	if err := flushLit(true); err != nil {
		return nil, 0, err
	}
	return out, end, nil
}

// fieldStart finds where CPython 3.11 places the '{' at offset off of the
// f-string token t: lines below t's first line, and the column that the
// field's expression positions count from (CPython's
// fstring_find_expr_location, quirks included).
func fieldStart(t token, off int) (lines, col int) {
	text := t.text
	lines = strings.Count(text[:off], "\n")
	// When only blanks follow the '{' on its line, CPython does not
	// count from the brace: the field's columns start at 0 (at the
	// token's own column on the token's first line).
	newlineAfterBrace := true
	for k := off + 1; k < len(text) && text[k] != '}' && text[k] != '\n'; k++ {
		if text[k] != ' ' && text[k] != '\t' && text[k] != '\f' {
			newlineAfterBrace = false
			break
		}
	}
	if !newlineAfterBrace {
		col = off - (strings.LastIndexByte(text[:off], '\n') + 1)
	}
	// On the token's first line, columns are relative to the line, so
	// the token's own column is added.
	if lines == 0 {
		col += t.col
	}
	return lines, col
}

// parseSubExpr parses the expression of an f-string field, whose '{' is
// at line, col: CPython parses "(" + src + ")" with its first line shifted
// to col. The sub-parser starts at depth 0; nesting stays bounded because
// an f-string inside a field must use a quote different from every
// enclosing one, and there are four kinds of quote.
func (p *parser) parseSubExpr(src string, line, col int) (Expr, error) {
	toks, err := tokenize("(" + src + ")")
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Ln = line
			e.Msg = "f-string: " + e.Msg
		}
		return nil, err
	}
	for i := range toks {
		t := &toks[i]
		if t.line == 1 {
			t.col += col
		}
		if t.endLine == 1 {
			t.endCol += col
		}
		t.line += line - 1
		t.endLine += line - 1
	}
	sub := &parser{toks: toks}
	e, err := sub.starExprs()
	p.levels += sub.levels
	if err == nil && sub.tok().kind != tNewline && sub.tok().kind != tEOF {
		err = sub.errf("f-string: invalid syntax")
	}
	if err != nil {
		return nil, err
	}
	return e, nil
}
