package syntax

// tryMatch parses a match statement when the line starting with the soft
// keyword "match" is one; ok is false (and nothing consumed) otherwise.
// match is a soft keyword (Language Reference §2.3.2): `match = 1`,
// `match.x`, `match(x)` and the like are ordinary statements using a
// variable named match, so the statement is tried and abandoned unless
// it has the shape `match subject: NEWLINE INDENT case` (§8.6).
func (p *parser) tryMatch() (Stmt, bool, error) {
	save := p.pos
	pos := p.start()
	p.next()
	// A match statement needs a subject expression followed by ':' NEWLINE
	// INDENT 'case'.
	// A quick refusal for the common uses of a variable named match
	// (`match = 1`, `match.group(1)`, `match += 1`) before any expression is
	// parsed: no match statement's subject starts with these tokens.
	if p.tok().kind == tNewline || (p.tok().kind == tOp && (p.isOp("=") || p.isOp(".") || p.isOp(":") || augOps[p.tok().val] != 0)) {
		p.pos = save
		return nil, false, nil
	}
	// The subject is CPython's subject_expr: a star_named_expression list or
	// a named_expression, so `match x, *y:` and `match (n := f()):` parse;
	// starExprs accepts both, and also an unparenthesized `match n := f():`,
	// which CPython accepts as well.
	subject, err := p.starExprs()
	if err != nil || !p.isOp(":") || p.peek(1).kind != tNewline || p.peek(2).kind != tIndent || p.peek(3).kind != tName || p.peek(3).val != "case" {
		p.pos = save
		return nil, false, nil
	}
	p.next() // :
	p.next() // NEWLINE
	p.next() // INDENT
	m := &Match{Pos: pos, Subject: subject}
	// From here on this is a match statement: errors are reported, not
	// backtracked. case, like match, is a soft keyword, recognized only
	// at the start of a line in the match block.
	for p.isKw("case") {
		caseLine := p.next().line
		pat, err := p.openPattern()
		if err != nil {
			return nil, true, err
		}
		mc := &MatchCase{Pattern: pat}
		if p.isKw("if") {
			p.next()
			// A guard is a named_expression: `case x if (y := f(x)):` binds y for
			// the case body, as in CPython.
			if mc.Guard, err = p.namedExprTest(); err != nil {
				return nil, true, err
			}
		}
		if mc.Body, err = p.block("'case' statement", caseLine); err != nil {
			return nil, true, err
		}
		m.Cases = append(m.Cases, mc)
	}
	// Anything in the match block that is not a case ends it with this
	// message; CPython's is "invalid syntax" at the same line.
	if p.tok().kind != tDedent {
		return nil, true, p.errf("expected 'case'")
	}
	p.next()
	p.finish(m, pos)
	return m, true, nil
}

// openPattern parses a case's patterns (CPython's patterns rule); it
// allows a top-level sequence without brackets: case a, b:
func (p *parser) openPattern() (Pattern, error) {
	pos := p.start()
	first, err := p.asPattern()
	if err != nil {
		return nil, err
	}
	if !p.isOp(",") {
		return first, nil
	}
	pats := []Pattern{first}
	for p.isOp(",") {
		p.next()
		// A trailing comma ends the open sequence (`case a, :`), which is still
		// a sequence pattern of one.
		if p.isOp(":") || p.isKw("if") {
			break
		}
		q, err := p.asPattern()
		if err != nil {
			return nil, err
		}
		pats = append(pats, q)
	}
	return &MatchSequence{p.span(pos), pats}, nil
}

// asPattern parses `or_pattern [as name]` (§8.6.4.2); `_` cannot be the
// name, since it never binds.
func (p *parser) asPattern() (Pattern, error) {
	pos := p.start()
	pat, err := p.orPattern()
	if err != nil {
		return nil, err
	}
	if p.isKw("as") {
		p.next()
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		if n == "_" {
			return nil, p.errf("cannot use '_' as a target")
		}
		// Only one `as` is taken: `case a as b as c:` is refused, here with
		// "expected ':'", by CPython with "invalid syntax".
		return &MatchAs{p.span(pos), pat, n}, nil
	}
	return pat, nil
}

// orPattern parses `p | q | ...` (§8.6.4.1) into one MatchOr.
func (p *parser) orPattern() (Pattern, error) {
	pos := p.start()
	first, err := p.closedPattern()
	if err != nil {
		return nil, err
	}
	if !p.isOp("|") {
		return first, nil
	}
	// The alternatives are kept in order: the compiler tries them left to
	// right and requires each to bind the same names. CPython's compiler
	// also refuses an irrefutable alternative that is not last ("name
	// capture 'a' makes remaining patterns unreachable"); the PVM reports
	// such a pattern only when the alternatives bind different names.
	pats := []Pattern{first}
	for p.isOp("|") {
		p.next()
		q, err := p.closedPattern()
		if err != nil {
			return nil, err
		}
		pats = append(pats, q)
	}
	return &MatchOr{p.span(pos), pats}, nil
}

// closedPattern parses one closed_pattern (§8.6.4.3–§8.6.4.10), chosen by
// its first token:
//
//   - a number, string or '-': a literal pattern, compared with ==;
//   - None, True, False: a singleton, compared with is;
//   - *name: a star pattern (valid only inside a sequence, which the
//     compiler checks);
//   - ( or [: a group (one pattern in parentheses, no comma) or a
//     sequence pattern;
//   - {: a mapping pattern;
//   - a name: a dotted name is a value pattern, a name or dotted name
//     followed by ( a class pattern, _ the wildcard, and any other bare
//     name a capture.
//
// A literal pattern is only what CPython 3.11's grammar allows there
// (literal_pattern): a number or a negated number, or one or more string
// literals, not an f-string. Its complex_number form (`1 + 2j`) cannot
// occur, as the PVM has no imaginary literals, so `case 1 + 2:` is
// refused with CPython's message.
func (p *parser) closedPattern() (Pattern, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	pos := p.start()
	t := p.tok()
	switch {
	case t.kind == tString:
		e, err := p.strings()
		if err != nil {
			return nil, err
		}
		// An f-string makes a JoinedStr, which is not a literal: CPython's
		// literal_pattern has only plain strings.
		if _, ok := e.(*Constant); !ok {
			return nil, p.errf("patterns may only match literals and attribute lookups")
		}
		return &MatchValue{p.span(pos), e}, nil
	case t.kind == tNumber || (t.kind == tOp && t.val == "-"):
		e, err := p.signedNumber()
		if err != nil {
			return nil, err
		}
		if p.isOp("+") || p.isOp("-") {
			// complex_number: signed_real_number ('+' | '-') imaginary_number
			p.next()
			if p.tok().kind == tNumber {
				return nil, p.errf("imaginary number required in complex literal")
			}
			return nil, p.errf("invalid syntax")
		}
		return &MatchValue{p.span(pos), e}, nil
	case t.kind == tName && (t.val == "None" || t.val == "True" || t.val == "False"):
		// None stays the nil any.
		p.next()
		var v any
		switch t.val {
		case "True":
			v = true
		case "False":
			v = false
		}
		return &MatchSingleton{p.span(pos), v}, nil
	case t.kind == tOp && t.val == "*":
		p.next()
		n, err := p.name()
		if err != nil {
			return nil, err
		}
		if n == "_" {
			n = ""
		}
		// `*_` binds nothing, as `_` never binds; the compiler refuses a star
		// outside a sequence pattern. CPython also refuses a second star in one
		// sequence ("multiple starred names in sequence pattern"), which the PVM
		// does not check.
		return &MatchStar{p.span(pos), n}, nil
	case t.kind == tOp && (t.val == "(" || t.val == "["):
		closer := ")"
		if t.val == "[" {
			closer = "]"
		}
		p.next()
		var pats []Pattern
		trailing := false
		for !p.isOp(closer) {
			q, err := p.asPattern()
			if err != nil {
				return nil, err
			}
			pats = append(pats, q)
			trailing = false
			if !p.isOp(",") {
				break
			}
			p.next()
			trailing = true
		}
		if err := p.expectOp(closer); err != nil {
			return nil, err
		}
		if closer == ")" && len(pats) == 1 && !trailing {
			// A parenthesized pattern is a group (no node, like a parenthesized
			// expression); `[p]` and `(p,)` are sequences of one.
			return pats[0], nil // group
		}
		return &MatchSequence{p.span(pos), pats}, nil
	case t.kind == tOp && t.val == "{":
		p.next()
		m := &MatchMapping{Pos: pos}
		for !p.isOp("}") {
			if p.isOp("**") {
				p.next()
				n, err := p.name()
				if err != nil {
					return nil, err
				}
				m.Rest = n
			} else {
				// The key is parsed as an arithmetic expression, wider than CPython's
				// key_value_pattern (a literal, a negated or complex number, or a dotted
				// name): `case {y: 1}` and `case {1 + 2: 1}` are accepted here and are
				// syntax errors in CPython. CPython also requires **rest to be last and
				// not **_, which this loop does not check.
				k, err := p.arith()
				if err != nil {
					return nil, err
				}
				if err := p.expectOp(":"); err != nil {
					return nil, err
				}
				v, err := p.asPattern()
				if err != nil {
					return nil, err
				}
				m.Keys = append(m.Keys, k)
				m.Patterns = append(m.Patterns, v)
			}
			if !p.isOp(",") {
				break
			}
			p.next()
		}
		if err := p.expectOp("}"); err != nil {
			return nil, err
		}
		p.finish(m, pos)
		return m, nil
	case t.kind == tName:
		name, err := p.name()
		if err != nil {
			return nil, err
		}
		var e Expr = &Name{p.span(pos), name}
		dotted := false
		for p.isOp(".") {
			p.next()
			a, err := p.name()
			if err != nil {
				return nil, err
			}
			e = &Attribute{p.span(pos), e, a}
			dotted = true
		}
		if p.isOp("(") {
			p.next()
			// Cls(p, ..., name=p, ...): positional sub-patterns first,
			// then keyword ones, as in a call.
			// CPython also refuses a keyword attribute given twice ("attribute name
			// repeated in class pattern"); the PVM does not.
			c := &MatchClass{Pos: pos, Cls: e}
			for !p.isOp(")") {
				if p.tok().kind == tName && p.peek(1).kind == tOp && p.peek(1).val == "=" {
					a, _ := p.name()
					p.next()
					q, err := p.asPattern()
					if err != nil {
						return nil, err
					}
					c.KwdAttrs = append(c.KwdAttrs, a)
					c.KwdPatterns = append(c.KwdPatterns, q)
				} else {
					if len(c.KwdAttrs) > 0 {
						return nil, p.errf("positional patterns follow keyword patterns")
					}
					q, err := p.asPattern()
					if err != nil {
						return nil, err
					}
					c.Patterns = append(c.Patterns, q)
				}
				if !p.isOp(",") {
					break
				}
				p.next()
			}
			if err := p.expectOp(")"); err != nil {
				return nil, err
			}
			p.finish(c, pos)
			return c, nil
		}
		// A dotted name is a value pattern (compared with ==); a bare name
		// captures, so `case RED:` binds RED instead of comparing with it, the
		// classic pitfall PEP 636 warns about and CPython keeps.
		if dotted {
			return &MatchValue{p.span(pos), e}, nil
		}
		if name == "_" {
			return &MatchAs{Pos: p.span(pos)}, nil
		}
		return &MatchAs{Pos: p.span(pos), Name: name}, nil
	}
	return nil, p.errf("invalid pattern")
}

// signedNumber parses a literal pattern's number: NUMBER or '-' NUMBER
// (CPython's signed_number), the latter as the unary minus node that
// CPython's ast module gives for it.
func (p *parser) signedNumber() (Expr, error) {
	pos := p.start()
	neg := p.isOp("-")
	if neg {
		p.next()
	}
	t := p.tok()
	if t.kind != tNumber {
		return nil, p.errf("invalid syntax")
	}
	numPos := p.start()
	p.next()
	var e Expr = &Constant{Pos: p.span(numPos), Value: t.num}
	if neg {
		e = &UnaryOp{p.span(pos), USub, e}
	}
	return e, nil
}
