package compile

import (
	"fmt"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// Under `from __future__ import annotations` (PEP 563) an annotation is
// not evaluated: the compiler stores its source text, rebuilt from the
// syntax tree as CPython 3.11's Python/ast_unparse.c rebuilds it
// (_PyAST_ExprAsUnicode). The text is what a program reads back from
// __annotations__ (typing.get_type_hints, dataclasses), so it must be
// CPython's to the character: operators spaced, parentheses only where
// precedence needs them, literals as their repr.

// Precedence levels of ast_unparse.c, lowest first. A sub-expression is
// written at the level its position allows and is parenthesized when
// its own operator binds less tightly than that.
const (
	prTuple = iota
	prTest  // if-else, lambda
	prOr
	prAnd
	prNot
	prCmp
	prBor // '|' (PR_EXPR)
	prBxor
	prBand
	prShift
	prArith
	prTerm
	prFactor
	prPower
	prAwait
	prAtom
)

// unparseAnnotation is an annotation's text under PEP 563: the
// expression at the level of a test (compiler_visit_annexpr). A node
// the unparser cannot write fails the compile rather than store text
// that is not the source's.
func unparseAnnotation(e syntax.Expr) (string, error) {
	u := unparser{line: e.Lineno()}
	u.expr(e, prTest)
	if u.err != nil {
		return "", u.err
	}
	return u.b.String(), nil
}

// unparser accumulates the text of one expression, and the first node
// it could not write (err).
type unparser struct {
	b    strings.Builder
	line int // the annotation's line, for err
	err  error
}

// fail records that what describes cannot be written back as source.
func (u *unparser) fail(what string) {
	if u.err == nil {
		u.err = &SyntaxError{Line: u.line, Msg: "PVM: cannot write the annotation's text: " + what}
	}
}

func (u *unparser) s(text string) { u.b.WriteString(text) }

// open and close write the parentheses an expression needs at level.
func (u *unparser) open(cond bool) {
	if cond {
		u.s("(")
	}
}

func (u *unparser) close(cond bool) {
	if cond {
		u.s(")")
	}
}

// binOpText gives an operator's spelling, its precedence and whether it
// is right-associative (only **).
func binOpText(op syntax.Operator) (string, int, bool) {
	switch op {
	case syntax.Add:
		return " + ", prArith, false
	case syntax.Sub:
		return " - ", prArith, false
	case syntax.Mult:
		return " * ", prTerm, false
	case syntax.MatMult:
		return " @ ", prTerm, false
	case syntax.Div:
		return " / ", prTerm, false
	case syntax.Mod:
		return " % ", prTerm, false
	case syntax.FloorDiv:
		return " // ", prTerm, false
	case syntax.LShift:
		return " << ", prShift, false
	case syntax.RShift:
		return " >> ", prShift, false
	case syntax.BitOr:
		return " | ", prBor, false
	case syntax.BitXor:
		return " ^ ", prBxor, false
	case syntax.BitAnd:
		return " & ", prBand, false
	case syntax.Pow:
		return " ** ", prPower, true
	}
	return "", prAtom, false
}

// cmpOpText spells a comparison operator with its spaces.
func cmpOpText(op syntax.CmpOp) string {
	switch op {
	case syntax.Eq:
		return " == "
	case syntax.NotEq:
		return " != "
	case syntax.Lt:
		return " < "
	case syntax.LtE:
		return " <= "
	case syntax.Gt:
		return " > "
	case syntax.GtE:
		return " >= "
	case syntax.Is:
		return " is "
	case syntax.IsNot:
		return " is not "
	case syntax.In:
		return " in "
	case syntax.NotIn:
		return " not in "
	}
	return ""
}

// exprs writes a comma-separated list, each item at level.
func (u *unparser) exprs(list []syntax.Expr, level int) {
	for i, e := range list {
		if i > 0 {
			u.s(", ")
		}
		u.expr(e, level)
	}
}

// expr writes e at the given level (append_ast_expr).
func (u *unparser) expr(e syntax.Expr, level int) {
	switch n := e.(type) {
	case *syntax.BoolOp:
		op, pr := " and ", prAnd
		if n.Op == syntax.Or {
			op, pr = " or ", prOr
		}
		u.open(level > pr)
		for i, v := range n.Values {
			if i > 0 {
				u.s(op)
			}
			u.expr(v, pr+1)
		}
		u.close(level > pr)
	case *syntax.BinOp:
		op, pr, rassoc := binOpText(n.Op)
		if op == "" {
			u.fail(fmt.Sprintf("binary operator %d", n.Op))
		}
		r := 0
		if rassoc {
			r = 1
		}
		u.open(level > pr)
		u.expr(n.Left, pr+r)
		u.s(op)
		u.expr(n.Right, pr+1-r)
		u.close(level > pr)
	case *syntax.UnaryOp:
		op, pr := "", prFactor
		switch n.Op {
		case syntax.Invert:
			op = "~"
		case syntax.Not:
			op, pr = "not ", prNot
		case syntax.UAdd:
			op = "+"
		case syntax.USub:
			op = "-"
		default:
			u.fail(fmt.Sprintf("unary operator %d", n.Op))
		}
		u.open(level > pr)
		u.s(op)
		u.expr(n.Operand, pr)
		u.close(level > pr)
	case *syntax.Lambda:
		u.open(level > prTest)
		// ast_unparse.c puts a space after "lambda" only before a
		// positional parameter: `lambda*a: 0`, `lambda: 0`.
		u.s("lambda")
		if a := n.Args; a != nil {
			if len(a.PosOnlyArgs)+len(a.Args) > 0 {
				u.s(" ")
			}
			u.arguments(a)
		}
		u.s(": ")
		u.expr(n.Body, prTest)
		u.close(level > prTest)
	case *syntax.IfExp:
		u.open(level > prTest)
		u.expr(n.Body, prTest+1)
		u.s(" if ")
		u.expr(n.Test, prTest+1)
		u.s(" else ")
		u.expr(n.Orelse, prTest)
		u.close(level > prTest)
	case *syntax.Dict:
		u.s("{")
		for i := range n.Keys {
			if i > 0 {
				u.s(", ")
			}
			if n.Keys[i] == nil {
				u.s("**")
				u.expr(n.Values[i], prBor)
				continue
			}
			u.expr(n.Keys[i], prTest)
			u.s(": ")
			u.expr(n.Values[i], prTest)
		}
		u.s("}")
	case *syntax.Set:
		u.s("{")
		u.exprs(n.Elts, prTest)
		u.s("}")
	case *syntax.ListComp:
		u.s("[")
		u.expr(n.Elt, prTest)
		u.comprehensions(n.Generators)
		u.s("]")
	case *syntax.SetComp:
		u.s("{")
		u.expr(n.Elt, prTest)
		u.comprehensions(n.Generators)
		u.s("}")
	case *syntax.DictComp:
		u.s("{")
		u.expr(n.Key, prTest)
		u.s(": ")
		u.expr(n.Value, prTest)
		u.comprehensions(n.Generators)
		u.s("}")
	case *syntax.GeneratorExp:
		u.s("(")
		u.expr(n.Elt, prTest)
		u.comprehensions(n.Generators)
		u.s(")")
	case *syntax.Await:
		u.open(level > prAwait)
		u.s("await ")
		u.expr(n.Value, prAtom)
		u.close(level > prAwait)
	case *syntax.Yield:
		if n.Value == nil {
			u.s("(yield)")
			return
		}
		u.s("(yield ")
		u.expr(n.Value, prTest)
		u.s(")")
	case *syntax.YieldFrom:
		u.s("(yield from ")
		u.expr(n.Value, prTest)
		u.s(")")
	case *syntax.Compare:
		u.open(level > prCmp)
		u.expr(n.Left, prCmp+1)
		for i, op := range n.Ops {
			text := cmpOpText(op)
			if text == "" {
				u.fail(fmt.Sprintf("comparison operator %d", op))
			}
			u.s(text)
			u.expr(n.Comparators[i], prCmp+1)
		}
		u.close(level > prCmp)
	case *syntax.Call:
		u.expr(n.Func, prAtom)
		// A lone generator expression argument keeps its own
		// parentheses only: f(x for x in y).
		if len(n.Args) == 1 && len(n.Keywords) == 0 {
			if g, ok := n.Args[0].(*syntax.GeneratorExp); ok {
				u.expr(g, prTest)
				return
			}
		}
		u.s("(")
		first := true
		for _, a := range n.Args {
			if !first {
				u.s(", ")
			}
			first = false
			u.expr(a, prTest)
		}
		for _, k := range n.Keywords {
			if !first {
				u.s(", ")
			}
			first = false
			if k.Arg == "" {
				u.s("**")
			} else {
				u.s(k.Arg)
				u.s("=")
			}
			u.expr(k.Value, prTest)
		}
		u.s(")")
	case *syntax.Constant:
		u.constant(n)
	case *syntax.JoinedStr:
		u.s("f")
		u.s(reprStr(u.fstringBody(n.Values)))
	case *syntax.FormattedValue:
		// A formatted value outside an f-string does not occur in a
		// parsed tree; write it as the f-string it came from.
		u.s("f")
		u.s(reprStr(u.fstringBody([]syntax.Expr{n})))
	case *syntax.Attribute:
		u.expr(n.Value, prAtom)
		// An int needs a space before its attribute's dot: `1 .real`.
		if k, ok := n.Value.(*syntax.Constant); ok && isIntConst(k) {
			u.s(" .")
		} else {
			u.s(".")
		}
		u.s(n.Attr)
	case *syntax.Subscript:
		u.expr(n.Value, prAtom)
		u.s("[")
		u.expr(n.Slice, prTuple)
		u.s("]")
	case *syntax.Starred:
		u.s("*")
		u.expr(n.Value, prBor)
	case *syntax.Name:
		u.s(n.Id)
	case *syntax.List:
		u.s("[")
		u.exprs(n.Elts, prTest)
		u.s("]")
	case *syntax.Tuple:
		if len(n.Elts) == 0 {
			u.s("()")
			return
		}
		u.open(level > prTuple)
		u.exprs(n.Elts, prTest)
		if len(n.Elts) == 1 {
			u.s(",")
		}
		u.close(level > prTuple)
	case *syntax.Slice:
		if n.Lower != nil {
			u.expr(n.Lower, prTest)
		}
		u.s(":")
		if n.Upper != nil {
			u.expr(n.Upper, prTest)
		}
		if n.Step != nil {
			u.s(":")
			u.expr(n.Step, prTest)
		}
	case *syntax.NamedExpr:
		u.open(level > prTuple)
		u.expr(n.Target, prAtom)
		u.s(" := ")
		u.expr(n.Value, prAtom)
		u.close(level > prTuple)
	default:
		u.fail(fmt.Sprintf("expression %T", e))
	}
}

// comprehensions writes a comprehension's for and if clauses.
func (u *unparser) comprehensions(gens []*syntax.Comprehension) {
	for _, g := range gens {
		u.s(" for ")
		u.expr(g.Target, prTuple)
		u.s(" in ")
		u.expr(g.Iter, prTest+1)
		for _, cond := range g.Ifs {
			u.s(" if ")
			u.expr(cond, prTest+1)
		}
	}
}

// arguments writes a lambda's parameter list (append_ast_args): defaults
// with `=`, the `/` after positional-only ones, `*` or `*name` before
// keyword-only ones.
func (u *unparser) arguments(a *syntax.Arguments) {
	first := true
	sep := func() {
		if !first {
			u.s(", ")
		}
		first = false
	}
	pos := append(append([]*syntax.Arg{}, a.PosOnlyArgs...), a.Args...)
	di := len(pos) - len(a.Defaults)
	for i, p := range pos {
		sep()
		u.arg(p)
		if i >= di {
			u.s("=")
			u.expr(a.Defaults[i-di], prTest)
		}
		if i+1 == len(a.PosOnlyArgs) {
			u.s(", /")
		}
	}
	if a.VarArg != nil || len(a.KwOnlyArgs) > 0 {
		sep()
		u.s("*")
		if a.VarArg != nil {
			u.arg(a.VarArg)
		}
	}
	for i, p := range a.KwOnlyArgs {
		sep()
		u.arg(p)
		if i < len(a.KwDefaults) && a.KwDefaults[i] != nil {
			u.s("=")
			u.expr(a.KwDefaults[i], prTest)
		}
	}
	if a.KwArg != nil {
		sep()
		u.s("**")
		u.arg(a.KwArg)
	}
}

// arg writes one parameter with its annotation (never present in a
// lambda, which is the only place parameters are unparsed).
func (u *unparser) arg(p *syntax.Arg) {
	u.s(p.Arg)
	if p.Annotation != nil {
		u.s(": ")
		u.expr(p.Annotation, prTest)
	}
}

// isIntConst reports whether a literal is an int (not a bool).
func isIntConst(k *syntax.Constant) bool {
	switch k.Value.(type) {
	case int64, int:
		return true
	}
	_, big := k.Value.(interface{ BitLen() int })
	return big
}

// constant writes a literal as its repr, with ast_unparse.c's two
// exceptions: `...` for Ellipsis, and an infinite float as 1e309 (the
// smallest literal that parses back to infinity), since `inf` is not a
// literal. A u-prefixed string keeps its prefix.
func (u *unparser) constant(k *syntax.Constant) {
	if k.Kind == syntax.EllipsisConst {
		u.s("...")
		return
	}
	v, err := constValue(k)
	if err != nil {
		// The error compiling the literal would give (a too large int).
		if u.err == nil {
			u.err = err
		}
		return
	}
	if k.U {
		u.s("u")
	}
	if f, ok := v.(object.Float); ok {
		r := object.FloatRepr(float64(f))
		u.s(strings.ReplaceAll(r, "inf", "1e309"))
		return
	}
	r, err := v.Repr(nil)
	if err != nil {
		u.fail(fmt.Sprintf("constant %T: %v", k.Value, err))
		return
	}
	u.s(r)
}

// reprStr is the repr of a str, as the f-string's text is written.
func reprStr(s string) string {
	r, _ := object.Str(s).Repr(nil)
	return r
}

// fstringBody rebuilds an f-string's body (build_fstring_body): literal
// text with its braces doubled, and each replacement field.
func (u *unparser) fstringBody(values []syntax.Expr) string {
	var b strings.Builder
	for _, v := range values {
		switch x := v.(type) {
		case *syntax.Constant:
			s, ok := x.Value.(string)
			if !ok {
				u.fail(fmt.Sprintf("f-string constant %T", x.Value))
			}
			s = strings.ReplaceAll(s, "{", "{{")
			s = strings.ReplaceAll(s, "}", "}}")
			b.WriteString(s)
		case *syntax.JoinedStr:
			b.WriteString(u.fstringBody(x.Values))
		case *syntax.FormattedValue:
			b.WriteString(u.formattedValue(x))
		default:
			u.fail(fmt.Sprintf("f-string part %T", v))
		}
	}
	return b.String()
}

// formattedValue writes one replacement field: the expression at the
// level just above a test (a space first if it starts with a brace),
// its conversion, and its format spec, itself an f-string body.
func (u *unparser) formattedValue(x *syntax.FormattedValue) string {
	inner := unparser{line: u.line}
	inner.expr(x.Value, prTest+1)
	if inner.err != nil && u.err == nil {
		u.err = inner.err
	}
	text := inner.b.String()
	var b strings.Builder
	b.WriteString("{")
	if strings.HasPrefix(text, "{") {
		b.WriteString(" ")
	}
	b.WriteString(text)
	if x.Conversion > 0 {
		b.WriteString("!")
		b.WriteByte(byte(x.Conversion))
	}
	if x.FormatSpec != nil {
		b.WriteString(":")
		if js, ok := x.FormatSpec.(*syntax.JoinedStr); ok {
			b.WriteString(u.fstringBody(js.Values))
		} else {
			b.WriteString(u.fstringBody([]syntax.Expr{x.FormatSpec}))
		}
	}
	b.WriteString("}")
	return b.String()
}
