package syntax

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/cowboy-chain/cowboy/pvm/object"
)

// Dump renders a module exactly as CPython 3.11's
// ast.dump(tree, include_attributes=attrs, indent=indent) does, where a
// negative indent stands for indent=None (everything on one line). The
// golden tests compare it with the output of testdata/dump.py.
//
// The tree has no expression contexts; Dump derives them (Store for
// assignment, for, with, comprehension and walrus targets, Del for del
// targets, Load elsewhere) the way CPython's parser sets them.
func Dump(mod *Module, attrs bool, indent int) string {
	d := &dumper{attrs: attrs}
	if indent >= 0 {
		d.indent = strings.Repeat(" ", indent)
		d.indented = true
	}
	s, _ := d.node(0, "Module", nil, field{"body", d.stmts(mod.Body)}, field{"type_ignores", d.seq(nil)})
	return s
}

// dumper holds ast.dump's options: attrs is include_attributes (the
// lineno/col_offset/end_lineno/end_col_offset of nodes that have them),
// indented tells indent=None (false) from a number of spaces (indent).
type dumper struct {
	attrs    bool
	indented bool
	indent   string
}

// A value renders itself at a nesting level, reporting whether it is
// "simple" in ast.dump's sense (no fields, or a scalar).
type value func(level int) (string, bool)

// field is one named field of a node, in the order of the node's _fields
// in CPython's ast module.
type field struct {
	name string
	v    value // nil: an optional field that is None, left out
}

// scalar is a value already rendered (a repr), which is always simple.
func scalar(s string) value { return func(int) (string, bool) { return s, true } }

// node renders a node as ast.dump's _format does: Name(field=value, ...),
// then the position attributes when asked for (pos is nil for the nodes
// that have none: withitem, match_case, comprehension, arguments). With
// an indent, a node stays on one line only if all its fields are simple
// and there are at most three; otherwise each field goes on its own line,
// one indent deeper. A node with no fields at all counts as simple.
func (d *dumper) node(level int, name string, pos *Pos, fields ...field) (string, bool) {
	if d.indented {
		level++
	}
	var args []string
	simple := true
	for _, f := range fields {
		if f.v == nil {
			continue
		}
		s, ok := f.v(level)
		simple = simple && ok
		args = append(args, f.name+"="+s)
	}
	if d.attrs && pos != nil {
		args = append(args, "lineno="+strconv.Itoa(pos.Line), "col_offset="+strconv.Itoa(pos.Col),
			"end_lineno="+strconv.Itoa(pos.EndLine), "end_col_offset="+strconv.Itoa(pos.EndCol))
	}
	if !d.indented || (simple && len(args) <= 3) {
		return name + "(" + strings.Join(args, ", ") + ")", len(args) == 0
	}
	pad := strings.Repeat(d.indent, level)
	return name + "(\n" + pad + strings.Join(args, ",\n"+pad) + ")", false
}

// seq renders a list at a nesting level, as ast.dump's _format does.
func (d *dumper) seq(items []value) value {
	return func(level int) (string, bool) {
		if len(items) == 0 {
			return "[]", true
		}
		if d.indented {
			level++
		}
		strs := make([]string, len(items))
		for i, it := range items {
			strs[i], _ = it(level)
		}
		if !d.indented {
			return "[" + strings.Join(strs, ", ") + "]", false
		}
		pad := strings.Repeat(d.indent, level)
		return "[\n" + pad + strings.Join(strs, ",\n"+pad) + "]", false
	}
}

// stmts, exprs and names render lists of statements, expressions (all
// in context ctx) and identifier strings.
func (d *dumper) stmts(list []Stmt) value {
	items := make([]value, len(list))
	for i, s := range list {
		items[i] = d.stmt(s)
	}
	return d.seq(items)
}

// exprs renders a list of expressions, each in context ctx.
func (d *dumper) exprs(list []Expr, ctx string) value {
	items := make([]value, len(list))
	for i, e := range list {
		items[i] = d.expr(e, ctx)
	}
	return d.seq(items)
}

// names renders a list of identifiers as str reprs.
func (d *dumper) names(list []string) value {
	items := make([]value, len(list))
	for i, n := range list {
		items[i] = scalar(pyRepr(n))
	}
	return d.seq(items)
}

// opt and optStr render an optional field, left out (nil) when absent,
// as ast.dump leaves out a None whose class default is None.
func (d *dumper) opt(e Expr, ctx string) value {
	if e == nil {
		return nil
	}
	return d.expr(e, ctx)
}

// optStr renders an optional identifier, absent when "".
func optStr(s string) value {
	if s == "" {
		return nil
	}
	return scalar(pyRepr(s))
}

// op renders an operator or context singleton: Add(), Load().
func op(name string) value { return scalar(name + "()") }

// ctxv renders an expression context (Load, Store, Del).
func ctxv(ctx string) value { return op(ctx) }

// boolInt renders a flag stored as an int in CPython's ast (AnnAssign's
// simple).
func boolInt(b bool) value {
	if b {
		return scalar("1")
	}
	return scalar("0")
}

// asyncName is CPython's node name for the async form of a statement.
func asyncName(name string, async bool) string {
	if async {
		return "Async" + name
	}
	return name
}

// stmt renders a statement with CPython's node and field names (ExprStmt
// is ast.Expr); targets get Store or Del context.
func (d *dumper) stmt(s Stmt) value {
	return func(level int) (string, bool) {
		switch n := s.(type) {
		case *FunctionDef:
			return d.node(level, asyncName("FunctionDef", n.IsAsync), &n.Pos, field{"name", scalar(pyRepr(n.Name))}, field{"args", d.arguments(n.Args)},
				field{"body", d.stmts(n.Body)}, field{"decorator_list", d.exprs(n.DecoratorList, "Load")}, field{"returns", d.opt(n.Returns, "Load")})
		case *ClassDef:
			return d.node(level, "ClassDef", &n.Pos, field{"name", scalar(pyRepr(n.Name))}, field{"bases", d.exprs(n.Bases, "Load")},
				field{"keywords", d.keywords(n.Keywords)}, field{"body", d.stmts(n.Body)}, field{"decorator_list", d.exprs(n.DecoratorList, "Load")})
		case *Return:
			return d.node(level, "Return", &n.Pos, field{"value", d.opt(n.Value, "Load")})
		case *Delete:
			return d.node(level, "Delete", &n.Pos, field{"targets", d.exprs(n.Targets, "Del")})
		case *Assign:
			return d.node(level, "Assign", &n.Pos, field{"targets", d.exprs(n.Targets, "Store")}, field{"value", d.expr(n.Value, "Load")})
		case *AugAssign:
			return d.node(level, "AugAssign", &n.Pos, field{"target", d.expr(n.Target, "Store")}, field{"op", op(n.Op.name())}, field{"value", d.expr(n.Value, "Load")})
		case *AnnAssign:
			return d.node(level, "AnnAssign", &n.Pos, field{"target", d.expr(n.Target, "Store")}, field{"annotation", d.expr(n.Annotation, "Load")},
				field{"value", d.opt(n.Value, "Load")}, field{"simple", boolInt(n.Simple)})
		case *For:
			return d.node(level, asyncName("For", n.IsAsync), &n.Pos, field{"target", d.expr(n.Target, "Store")}, field{"iter", d.expr(n.Iter, "Load")},
				field{"body", d.stmts(n.Body)}, field{"orelse", d.stmts(n.Orelse)})
		case *While:
			return d.node(level, "While", &n.Pos, field{"test", d.expr(n.Test, "Load")}, field{"body", d.stmts(n.Body)}, field{"orelse", d.stmts(n.Orelse)})
		case *If:
			return d.node(level, "If", &n.Pos, field{"test", d.expr(n.Test, "Load")}, field{"body", d.stmts(n.Body)}, field{"orelse", d.stmts(n.Orelse)})
		case *With:
			items := make([]value, len(n.Items))
			for i, it := range n.Items {
				it := it
				items[i] = func(level int) (string, bool) {
					return d.node(level, "withitem", nil, field{"context_expr", d.expr(it.ContextExpr, "Load")}, field{"optional_vars", d.opt(it.OptionalVars, "Store")})
				}
			}
			return d.node(level, asyncName("With", n.IsAsync), &n.Pos, field{"items", d.seq(items)}, field{"body", d.stmts(n.Body)})
		case *Match:
			cases := make([]value, len(n.Cases))
			for i, c := range n.Cases {
				c := c
				cases[i] = func(level int) (string, bool) {
					return d.node(level, "match_case", nil, field{"pattern", d.pattern(c.Pattern)}, field{"guard", d.opt(c.Guard, "Load")}, field{"body", d.stmts(c.Body)})
				}
			}
			return d.node(level, "Match", &n.Pos, field{"subject", d.expr(n.Subject, "Load")}, field{"cases", d.seq(cases)})
		case *Raise:
			return d.node(level, "Raise", &n.Pos, field{"exc", d.opt(n.Exc, "Load")}, field{"cause", d.opt(n.Cause, "Load")})
		case *Try:
			hs := make([]value, len(n.Handlers))
			for i, h := range n.Handlers {
				h := h
				hs[i] = func(level int) (string, bool) {
					return d.node(level, "ExceptHandler", &h.Pos, field{"type", d.opt(h.Type, "Load")}, field{"name", optStr(h.Name)}, field{"body", d.stmts(h.Body)})
				}
			}
			return d.node(level, "Try", &n.Pos, field{"body", d.stmts(n.Body)}, field{"handlers", d.seq(hs)}, field{"orelse", d.stmts(n.Orelse)}, field{"finalbody", d.stmts(n.Finalbody)})
		case *Assert:
			return d.node(level, "Assert", &n.Pos, field{"test", d.expr(n.Test, "Load")}, field{"msg", d.opt(n.Msg, "Load")})
		case *Import:
			return d.node(level, "Import", &n.Pos, field{"names", d.aliases(n.Names)})
		case *ImportFrom:
			return d.node(level, "ImportFrom", &n.Pos, field{"module", optStr(n.Module)}, field{"names", d.aliases(n.Names)}, field{"level", scalar(strconv.Itoa(n.Level))})
		case *Global:
			return d.node(level, "Global", &n.Pos, field{"names", d.names(n.Names)})
		case *Nonlocal:
			return d.node(level, "Nonlocal", &n.Pos, field{"names", d.names(n.Names)})
		case *ExprStmt:
			return d.node(level, "Expr", &n.Pos, field{"value", d.expr(n.Value, "Load")})
		case *Pass:
			return d.node(level, "Pass", &n.Pos)
		case *Break:
			return d.node(level, "Break", &n.Pos)
		case *Continue:
			return d.node(level, "Continue", &n.Pos)
		}
		panic(fmt.Sprintf("syntax.Dump: unknown statement %T", s))
	}
}

// aliases renders import names.
func (d *dumper) aliases(list []*Alias) value {
	items := make([]value, len(list))
	for i, a := range list {
		a := a
		items[i] = func(level int) (string, bool) {
			return d.node(level, "alias", &a.Pos, field{"name", scalar(pyRepr(a.Name))}, field{"asname", optStr(a.Asname)})
		}
	}
	return d.seq(items)
}

// keywords renders keyword arguments; **m has no arg field.
func (d *dumper) keywords(list []*Keyword) value {
	items := make([]value, len(list))
	for i, k := range list {
		k := k
		items[i] = func(level int) (string, bool) {
			return d.node(level, "keyword", &k.Pos, field{"arg", optStr(k.Arg)}, field{"value", d.expr(k.Value, "Load")})
		}
	}
	return d.seq(items)
}

// arg renders one parameter, or nothing for an absent *args or **kwargs.
func (d *dumper) arg(a *Arg) value {
	if a == nil {
		return nil
	}
	return func(level int) (string, bool) {
		return d.node(level, "arg", &a.Pos, field{"arg", scalar(pyRepr(a.Arg))}, field{"annotation", d.opt(a.Annotation, "Load")})
	}
}

// args renders a list of parameters.
func (d *dumper) args(list []*Arg) value {
	items := make([]value, len(list))
	for i, a := range list {
		items[i] = d.arg(a)
	}
	return d.seq(items)
}

// arguments renders a parameter list. kw_defaults has one entry per
// keyword-only parameter, None where it has no default, while defaults
// lists only the defaults given (for the last positional parameters).
func (d *dumper) arguments(a *Arguments) value {
	return func(level int) (string, bool) {
		kwd := make([]value, len(a.KwDefaults))
		for i, e := range a.KwDefaults {
			if e == nil {
				kwd[i] = scalar("None")
			} else {
				kwd[i] = d.expr(e, "Load")
			}
		}
		return d.node(level, "arguments", nil, field{"posonlyargs", d.args(a.PosOnlyArgs)}, field{"args", d.args(a.Args)},
			field{"vararg", d.arg(a.VarArg)}, field{"kwonlyargs", d.args(a.KwOnlyArgs)}, field{"kw_defaults", d.seq(kwd)},
			field{"kwarg", d.arg(a.KwArg)}, field{"defaults", d.exprs(a.Defaults, "Load")})
	}
}

// comprehensions renders for clauses; is_async is always 0, since the
// parser refuses async comprehensions.
func (d *dumper) comprehensions(gens []*Comprehension) value {
	items := make([]value, len(gens))
	for i, g := range gens {
		g := g
		items[i] = func(level int) (string, bool) {
			return d.node(level, "comprehension", nil, field{"target", d.expr(g.Target, "Store")}, field{"iter", d.expr(g.Iter, "Load")},
				field{"ifs", d.exprs(g.Ifs, "Load")}, field{"is_async", scalar("0")})
		}
	}
	return d.seq(items)
}

// expr renders e; ctx is the context of e itself where it can have one.
// Only Name, Attribute, Subscript, Starred, List and Tuple carry a
// context. Starred, List and Tuple pass theirs down to their elements
// (in `a, *b = x` every part is Store), while an attribute's object and
// a subscript's value and index are always Load: in `a.b = 1` the name a
// is loaded, and only the Attribute is stored to.
func (d *dumper) expr(e Expr, ctx string) value {
	return func(level int) (string, bool) {
		switch n := e.(type) {
		case *BoolOp:
			name := "And"
			if n.Op == Or {
				name = "Or"
			}
			return d.node(level, "BoolOp", &n.Pos, field{"op", op(name)}, field{"values", d.exprs(n.Values, "Load")})
		case *NamedExpr:
			return d.node(level, "NamedExpr", &n.Pos, field{"target", d.expr(n.Target, "Store")}, field{"value", d.expr(n.Value, "Load")})
		case *BinOp:
			return d.node(level, "BinOp", &n.Pos, field{"left", d.expr(n.Left, "Load")}, field{"op", op(n.Op.name())}, field{"right", d.expr(n.Right, "Load")})
		case *UnaryOp:
			name := [...]string{Invert: "Invert", Not: "Not", UAdd: "UAdd", USub: "USub"}[n.Op]
			return d.node(level, "UnaryOp", &n.Pos, field{"op", op(name)}, field{"operand", d.expr(n.Operand, "Load")})
		case *Lambda:
			return d.node(level, "Lambda", &n.Pos, field{"args", d.arguments(n.Args)}, field{"body", d.expr(n.Body, "Load")})
		case *IfExp:
			return d.node(level, "IfExp", &n.Pos, field{"test", d.expr(n.Test, "Load")}, field{"body", d.expr(n.Body, "Load")}, field{"orelse", d.expr(n.Orelse, "Load")})
		case *Dict:
			keys := make([]value, len(n.Keys))
			for i, k := range n.Keys {
				if k == nil {
					keys[i] = scalar("None")
				} else {
					keys[i] = d.expr(k, "Load")
				}
			}
			return d.node(level, "Dict", &n.Pos, field{"keys", d.seq(keys)}, field{"values", d.exprs(n.Values, "Load")})
		case *Set:
			return d.node(level, "Set", &n.Pos, field{"elts", d.exprs(n.Elts, "Load")})
		case *ListComp:
			return d.node(level, "ListComp", &n.Pos, field{"elt", d.expr(n.Elt, "Load")}, field{"generators", d.comprehensions(n.Generators)})
		case *SetComp:
			return d.node(level, "SetComp", &n.Pos, field{"elt", d.expr(n.Elt, "Load")}, field{"generators", d.comprehensions(n.Generators)})
		case *DictComp:
			return d.node(level, "DictComp", &n.Pos, field{"key", d.expr(n.Key, "Load")}, field{"value", d.expr(n.Value, "Load")}, field{"generators", d.comprehensions(n.Generators)})
		case *GeneratorExp:
			return d.node(level, "GeneratorExp", &n.Pos, field{"elt", d.expr(n.Elt, "Load")}, field{"generators", d.comprehensions(n.Generators)})
		case *Await:
			return d.node(level, "Await", &n.Pos, field{"value", d.expr(n.Value, "Load")})
		case *Yield:
			return d.node(level, "Yield", &n.Pos, field{"value", d.opt(n.Value, "Load")})
		case *YieldFrom:
			return d.node(level, "YieldFrom", &n.Pos, field{"value", d.expr(n.Value, "Load")})
		case *Compare:
			ops := make([]value, len(n.Ops))
			for i, o := range n.Ops {
				ops[i] = op([...]string{Eq: "Eq", NotEq: "NotEq", Lt: "Lt", LtE: "LtE", Gt: "Gt", GtE: "GtE", Is: "Is", IsNot: "IsNot", In: "In", NotIn: "NotIn"}[o])
			}
			return d.node(level, "Compare", &n.Pos, field{"left", d.expr(n.Left, "Load")}, field{"ops", d.seq(ops)}, field{"comparators", d.exprs(n.Comparators, "Load")})
		case *Call:
			return d.node(level, "Call", &n.Pos, field{"func", d.expr(n.Func, "Load")}, field{"args", d.exprs(n.Args, "Load")}, field{"keywords", d.keywords(n.Keywords)})
		case *FormattedValue:
			return d.node(level, "FormattedValue", &n.Pos, field{"value", d.expr(n.Value, "Load")}, field{"conversion", scalar(strconv.Itoa(n.Conversion))},
				field{"format_spec", d.opt(n.FormatSpec, "Load")})
		case *JoinedStr:
			return d.node(level, "JoinedStr", &n.Pos, field{"values", d.exprs(n.Values, "Load")})
		case *Constant:
			// kind is 'u' for a u'' literal and absent otherwise.
			var kind value
			if n.U {
				kind = scalar("'u'")
			}
			return d.node(level, "Constant", &n.Pos, field{"value", scalar(constRepr(n))}, field{"kind", kind})
		case *Attribute:
			return d.node(level, "Attribute", &n.Pos, field{"value", d.expr(n.Value, "Load")}, field{"attr", scalar(pyRepr(n.Attr))}, field{"ctx", ctxv(ctx)})
		case *Subscript:
			return d.node(level, "Subscript", &n.Pos, field{"value", d.expr(n.Value, "Load")}, field{"slice", d.expr(n.Slice, "Load")}, field{"ctx", ctxv(ctx)})
		case *Starred:
			return d.node(level, "Starred", &n.Pos, field{"value", d.expr(n.Value, ctx)}, field{"ctx", ctxv(ctx)})
		case *Name:
			return d.node(level, "Name", &n.Pos, field{"id", scalar(pyRepr(n.Id))}, field{"ctx", ctxv(ctx)})
		case *List:
			return d.node(level, "List", &n.Pos, field{"elts", d.exprs(n.Elts, ctx)}, field{"ctx", ctxv(ctx)})
		case *Tuple:
			return d.node(level, "Tuple", &n.Pos, field{"elts", d.exprs(n.Elts, ctx)}, field{"ctx", ctxv(ctx)})
		case *Slice:
			return d.node(level, "Slice", &n.Pos, field{"lower", d.opt(n.Lower, "Load")}, field{"upper", d.opt(n.Upper, "Load")}, field{"step", d.opt(n.Step, "Load")})
		}
		panic(fmt.Sprintf("syntax.Dump: unknown expression %T", e))
	}
}

// patterns renders a list of patterns.
func (d *dumper) patterns(list []Pattern) value {
	items := make([]value, len(list))
	for i, p := range list {
		items[i] = d.pattern(p)
	}
	return d.seq(items)
}

// pattern renders a match pattern. Patterns have no expression context,
// but the expressions inside them (values, keys, class names) are Load.
func (d *dumper) pattern(p Pattern) value {
	return func(level int) (string, bool) {
		switch n := p.(type) {
		case *MatchValue:
			return d.node(level, "MatchValue", &n.Pos, field{"value", d.expr(n.Value, "Load")})
		case *MatchSingleton:
			return d.node(level, "MatchSingleton", &n.Pos, field{"value", scalar(constRepr(&Constant{Value: n.Value}))})
		case *MatchSequence:
			return d.node(level, "MatchSequence", &n.Pos, field{"patterns", d.patterns(n.Patterns)})
		case *MatchMapping:
			return d.node(level, "MatchMapping", &n.Pos, field{"keys", d.exprs(n.Keys, "Load")}, field{"patterns", d.patterns(n.Patterns)}, field{"rest", optStr(n.Rest)})
		case *MatchClass:
			return d.node(level, "MatchClass", &n.Pos, field{"cls", d.expr(n.Cls, "Load")}, field{"patterns", d.patterns(n.Patterns)},
				field{"kwd_attrs", d.names(n.KwdAttrs)}, field{"kwd_patterns", d.patterns(n.KwdPatterns)})
		case *MatchStar:
			return d.node(level, "MatchStar", &n.Pos, field{"name", optStr(n.Name)})
		case *MatchAs:
			var pat value
			if n.Pattern != nil {
				pat = d.pattern(n.Pattern)
			}
			return d.node(level, "MatchAs", &n.Pos, field{"pattern", pat}, field{"name", optStr(n.Name)})
		case *MatchOr:
			return d.node(level, "MatchOr", &n.Pos, field{"patterns", d.patterns(n.Patterns)})
		}
		panic(fmt.Sprintf("syntax.Dump: unknown pattern %T", p))
	}
}

// name is the operator's class name in CPython's ast.
func (o Operator) name() string {
	return [...]string{Add: "Add", Sub: "Sub", Mult: "Mult", MatMult: "MatMult", Div: "Div", Mod: "Mod", Pow: "Pow",
		LShift: "LShift", RShift: "RShift", BitOr: "BitOr", BitXor: "BitXor", BitAnd: "BitAnd", FloorDiv: "FloorDiv"}[o]
}

// constRepr is Python's repr of a constant's value.
func constRepr(c *Constant) string {
	switch v := c.Value.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(v, 10)
	case *big.Int:
		return v.String()
	case float64:
		return floatRepr(v)
	case string:
		if c.Kind == BytesConst {
			return bytesRepr(v)
		}
		return pyRepr(v)
	case ellipsisMarker:
		return "Ellipsis"
	}
	return fmt.Sprint(c.Value)
}

// floatRepr, pyRepr and bytesRepr are the object model's reprs, so the
// dump prints constants exactly as the PVM (and CPython) would.
func floatRepr(f float64) string { return object.FloatRepr(f) }

// pyRepr is repr() of a str.
func pyRepr(s string) string {
	r, _ := object.Str(s).Repr(nil)
	return r
}

// bytesRepr is repr() of a bytes.
func bytesRepr(s string) string {
	r, _ := object.Bytes(s).Repr(nil)
	return r
}
