// Package syntax is the PVM's Python 3.11 tokenizer and parser. Its tree
// mirrors CPython's ast module node for node, so the compiler's rules read
// like the language reference; it knows nothing of bytecode, the VM or the
// chain.
//
// The contract, checked by the tests:
//   - Dump(mod, true, 1) equals CPython 3.11's
//     ast.dump(ast.parse(src), include_attributes=True, indent=1) for the
//     programs in testdata (goldens written by testdata/dump.py): the same
//     nodes, fields, contexts, and lineno/col_offset/end_lineno/
//     end_col_offset (UTF-8 byte columns), f-string quirks included.
//   - A refused program gives an *Error whose Kind (SyntaxError,
//     IndentationError, TabError), Msg and line are CPython's for the cases
//     in TestSyntaxErrors.
//   - No input panics, hangs or exhausts the Go stack (FuzzParse; 200
//     nested brackets are accepted and the 201st refused, as in CPython).
//
// Refused on purpose, where CPython accepts: asynchronous comprehensions
// and generators (pvm/compile), except*, complex literals, and source that is not UTF-8 (coding
// declarations are ignored). Strings cannot hold lone surrogates ("\ud800"
// decodes to U+FFFD). Errors that CPython raises after parsing (symbol
// table and compiler: 'return' outside function, duplicate arguments,
// nonlocal at module level, ...) belong to pvm/compile.
package syntax

// Pos is a node's source span, as CPython's ast records it: Line and
// EndLine are 1-based, Col and EndCol 0-based UTF-8 byte offsets in their
// lines, and EndCol is exclusive (lineno, col_offset, end_lineno,
// end_col_offset).
type Pos struct{ Line, Col, EndLine, EndCol int }

// Lineno returns the node's line.
func (p Pos) Lineno() int { return p.Line }

// Node is any tree node.
type Node interface{ Lineno() int }

// Stmt is a statement node.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// Pattern is a match-statement pattern node.
type Pattern interface {
	Node
	patternNode()
}

// Module is a parsed file.
type Module struct{ Body []Stmt }

// Statements.
type (
	// FunctionDef is a def statement (Language Reference §8.7), or with
	// IsAsync an async def (§8.9.1). Returns is the -> annotation or nil.
	FunctionDef struct {
		Pos
		Name          string
		Args          *Arguments
		Body          []Stmt
		DecoratorList []Expr
		Returns       Expr
		IsAsync       bool // async def (ast.AsyncFunctionDef)
	}
	// ClassDef is a class statement (§8.8): Bases are the positional
	// arguments of the class line, Keywords the keyword ones (metaclass=).
	ClassDef struct {
		Pos
		Name          string
		Bases         []Expr
		Keywords      []*Keyword
		Body          []Stmt
		DecoratorList []Expr
	}
	// Return is a return statement (§7.6); Value is nil for a bare return.
	Return struct {
		Pos
		Value Expr
	}
	// Delete is a del statement (§7.5).
	Delete struct {
		Pos
		Targets []Expr
	}
	// Assign is `t1 = t2 = value` (§7.2): several targets share one value.
	Assign struct {
		Pos
		Targets []Expr
		Value   Expr
	}
	// AugAssign is `target op= value` (§7.2.1); the parser allows only a
	// name, attribute or subscript target.
	AugAssign struct {
		Pos
		Target Expr
		Op     Operator
		Value  Expr
	}
	// AnnAssign is `target: annotation [= value]` (§7.2.2); Value is nil
	// when only annotated.
	AnnAssign struct {
		Pos
		Target, Annotation, Value Expr
		// Simple is set when Target is a name not in parentheses
		// (CPython's simple=1): only then does the annotation land in
		// __annotations__.
		Simple bool
	}
	// For is a for statement (§8.3), or with IsAsync an async for (§8.9.2);
	// Orelse runs when the loop ends without break.
	For struct {
		Pos
		Target, Iter Expr
		Body, Orelse []Stmt
		IsAsync      bool // async for (ast.AsyncFor)
	}
	// While is a while statement (§8.2).
	While struct {
		Pos
		Test         Expr
		Body, Orelse []Stmt
	}
	// If is an if statement (§8.1); an elif chain is a nested If as the sole
	// statement of Orelse, as in CPython's ast.
	If struct {
		Pos
		Test         Expr
		Body, Orelse []Stmt
	}
	// With is a with statement (§8.5), or with IsAsync an async with
	// (§8.9.3); several items are one With, as in CPython's ast.
	With struct {
		Pos
		Items   []*WithItem
		Body    []Stmt
		IsAsync bool // async with (ast.AsyncWith)
	}
	// Match is a match statement (§8.6).
	Match struct {
		Pos
		Subject Expr
		Cases   []*MatchCase
	}
	// Raise is a raise statement (§7.8); Exc and Cause may be nil.
	Raise struct {
		Pos
		Exc, Cause Expr
	}
	// Try is a try statement (§8.4): at least one of Handlers and
	// Finalbody is present, and Orelse only with Handlers.
	Try struct {
		Pos
		Body      []Stmt
		Handlers  []*ExceptHandler
		Orelse    []Stmt
		Finalbody []Stmt
	}
	// Assert is an assert statement (§7.3); Msg may be nil.
	Assert struct {
		Pos
		Test, Msg Expr
	}
	// Import is `import a.b [as c], ...` (§7.11).
	Import struct {
		Pos
		Names []*Alias
	}
	// ImportFrom is `from module import names` (§7.11). Level counts the
	// leading dots of a relative import; Module is "" for `from . import x`.
	ImportFrom struct {
		Pos
		Module string
		Names  []*Alias
		Level  int
	}
	// Global is a global declaration (§7.12).
	Global struct {
		Pos
		Names []string
	}
	// Nonlocal is a nonlocal declaration (§7.13).
	Nonlocal struct {
		Pos
		Names []string
	}
	// ExprStmt is an expression evaluated as a statement (§7.1), CPython's
	// ast.Expr.
	ExprStmt struct {
		Pos
		Value Expr
	}
	// Pass is a pass statement (§7.4).
	Pass struct{ Pos }
	// Break is a break statement (§7.9).
	Break struct{ Pos }
	// Continue is a continue statement (§7.10).
	Continue struct{ Pos }
)

// Helper nodes.
type (
	// WithItem is one `expr [as target]` of a with statement.
	WithItem struct{ ContextExpr, OptionalVars Expr }
	// MatchCase is one `case pattern [if guard]:` block.
	MatchCase struct {
		Pattern Pattern
		Guard   Expr
		Body    []Stmt
	}
	// ExceptHandler is one except clause (§8.4.1); Type is nil for a bare
	// except, Name "" without `as`.
	ExceptHandler struct {
		Pos
		Type Expr
		Name string
		Body []Stmt
	}
	// Alias is one imported name and its `as` name ("" without one).
	Alias struct {
		Pos
		Name, Asname string
	}
	// Keyword is one keyword argument of a call or class line.
	Keyword struct {
		Pos
		Arg   string
		Value Expr
	} // Arg "" for **value
	// Arguments are a def's or lambda's parameters (§8.7), grouped as
	// CPython's ast.arguments groups them.
	Arguments struct {
		PosOnlyArgs, Args []*Arg
		VarArg            *Arg
		KwOnlyArgs        []*Arg
		KwDefaults        []Expr // one per KwOnlyArgs, nil when absent
		KwArg             *Arg
		Defaults          []Expr // for the last len(Defaults) positional args
	}
	// Arg is one parameter; Annotation is nil when there is none (always,
	// for a lambda).
	Arg struct {
		Pos
		Arg        string
		Annotation Expr
	}
	// Comprehension is one `for target in iter [if cond]...` clause of a
	// comprehension or generator expression (§6.2.4).
	Comprehension struct {
		Target, Iter Expr
		Ifs          []Expr
	}
)

// Expressions.
type (
	// BoolOp is `a and b and ...` or `a or b or ...` (§6.11): one node for a
	// chain of the same operator.
	BoolOp struct {
		Pos
		Op     BoolOperator
		Values []Expr
	}
	// NamedExpr is `(name := value)` (§6.12); Target is always a *Name.
	NamedExpr struct {
		Pos
		Target, Value Expr
	}
	// BinOp is a binary arithmetic or bitwise operation (§6.5–§6.9).
	BinOp struct {
		Pos
		Left  Expr
		Op    Operator
		Right Expr
	}
	// UnaryOp is -x, +x, ~x (§6.6) or `not x` (§6.11).
	UnaryOp struct {
		Pos
		Op      UnaryOperator
		Operand Expr
	}
	// Lambda is a lambda expression (§6.14).
	Lambda struct {
		Pos
		Args *Arguments
		Body Expr
	}
	// IfExp is `body if test else orelse` (§6.13).
	IfExp struct {
		Pos
		Test, Body, Orelse Expr
	}
	// Dict is a dict display (§6.2.7); a **m element has a nil key.
	Dict struct {
		Pos
		Keys, Values []Expr
	} // nil key for **value
	// Set is a set display {a, b} (§6.2.6).
	Set struct {
		Pos
		Elts []Expr
	}
	// ListComp is [elt for ...] (§6.2.4, §6.2.5); its Generators are the
	// for clauses, outermost first.
	ListComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	// SetComp is {elt for ...} (§6.2.6).
	SetComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	// DictComp is {key: value for ...} (§6.2.7).
	DictComp struct {
		Pos
		Key, Value Expr
		Generators []*Comprehension
	}
	// GeneratorExp is (elt for ...) (§6.2.8).
	GeneratorExp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	// Await is `await x` (§6.4).
	Await struct {
		Pos
		Value Expr
	}
	// Yield is `yield [value]` (§6.2.9); Value may be nil.
	Yield struct {
		Pos
		Value Expr
	}
	// YieldFrom is `yield from value` (§6.2.9, PEP 380).
	YieldFrom struct {
		Pos
		Value Expr
	}
	// Compare is a comparison, possibly chained (§6.10): Left Ops[0]
	// Comparators[0] Ops[1] Comparators[1] ...
	Compare struct {
		Pos
		Left        Expr
		Ops         []CmpOp
		Comparators []Expr
	}
	// Call is a call (§6.3.4); *x arguments are Starred in Args, **m
	// keywords have Arg "".
	Call struct {
		Pos
		Func     Expr
		Args     []Expr
		Keywords []*Keyword
	}
	// FormattedValue is one {...} of an f-string; Conversion is -1 or
	// 's', 'r', 'a'.
	FormattedValue struct {
		Pos
		Value      Expr
		Conversion int
		FormatSpec Expr
	}
	// JoinedStr is an f-string (§2.4.3): str Constants and FormattedValues
	// in order.
	JoinedStr struct {
		Pos
		Values []Expr
	}
	// Constant is a literal: nil, bool, int64, *big.Int, float64, string
	// (Kind tells str from bytes), or Ellipsis.
	Constant struct {
		Pos
		Value any
		Kind  ConstKind
		U     bool // written u'...' (CPython's kind='u')
	}
	// Attribute is obj.name (§6.3.1).
	Attribute struct {
		Pos
		Value Expr
		Attr  string
	}
	// Subscript is obj[slice] (§6.3.2, §6.3.3); several indexes make Slice a
	// Tuple.
	Subscript struct {
		Pos
		Value, Slice Expr
	}
	// Starred is *value in a display, call or assignment target.
	Starred struct {
		Pos
		Value Expr
	}
	// Name is an identifier, NFKC-normalized as CPython does (§2.3).
	Name struct {
		Pos
		Id string
	}
	// List is a list display or target list (§6.2.5).
	List struct {
		Pos
		Elts []Expr
	}
	// Tuple is a tuple display or target list; `()` is the empty one.
	Tuple struct {
		Pos
		Elts []Expr
	}
	// Slice is lower:upper:step inside a subscript (§6.3.3); each part may
	// be nil.
	Slice struct {
		Pos
		Lower, Upper, Step Expr
	}
)

// Patterns.
type (
	// MatchValue is a literal or dotted-name value pattern, compared with ==
	// (§8.6.4.3, §8.6.4.6).
	MatchValue struct {
		Pos
		Value Expr
	}
	// MatchSingleton is None, True or False, compared with is.
	MatchSingleton struct {
		Pos
		Value any
	} // nil, true or false
	// MatchSequence is [p, ...] or (p, ...) or an open `p, q` (§8.6.4.8).
	MatchSequence struct {
		Pos
		Patterns []Pattern
	}
	// MatchMapping is {key: p, ..., **rest} (§8.6.4.9); Rest is "" without
	// **rest.
	MatchMapping struct {
		Pos
		Keys     []Expr
		Patterns []Pattern
		Rest     string
	}
	// MatchClass is Cls(p, ..., name=p, ...) (§8.6.4.10).
	MatchClass struct {
		Pos
		Cls         Expr
		Patterns    []Pattern
		KwdAttrs    []string
		KwdPatterns []Pattern
	}
	// MatchStar is *name inside a sequence pattern.
	MatchStar struct {
		Pos
		Name string
	} // Name "" for *_
	// MatchAs is `p as name`, a capture pattern (Pattern nil) or the
	// wildcard _ (both nil) (§8.6.4.2, §8.6.4.4, §8.6.4.5).
	MatchAs struct {
		Pos
		Pattern Pattern // nil for a capture or wildcard
		Name    string  // "" for _
	}
	// MatchOr is p | q | ... (§8.6.4.1).
	MatchOr struct {
		Pos
		Patterns []Pattern
	}
)

// ConstKind distinguishes literal kinds that share a Go type.
type ConstKind uint8

// Constant kinds.
const (
	StrConst ConstKind = iota
	BytesConst
	EllipsisConst
)

// Operator is a binary arithmetic operator.
type Operator uint8

// Binary operators.
const (
	Add Operator = iota + 1
	Sub
	Mult
	MatMult
	Div
	Mod
	Pow
	LShift
	RShift
	BitOr
	BitXor
	BitAnd
	FloorDiv
)

// BoolOperator is and/or.
type BoolOperator uint8

// Boolean operators.
const (
	And BoolOperator = iota + 1
	Or
)

// UnaryOperator is a prefix operator.
type UnaryOperator uint8

// Unary operators.
const (
	Invert UnaryOperator = iota + 1
	Not
	UAdd
	USub
)

// CmpOp is a comparison operator.
type CmpOp uint8

// Comparison operators.
const (
	Eq CmpOp = iota + 1
	NotEq
	Lt
	LtE
	Gt
	GtE
	Is
	IsNot
	In
	NotIn
)

// stmtNode, exprNode and patternNode mark which node types implement
// Stmt, Expr and Pattern, so that a node of one kind cannot be put where
// another belongs.
func (*FunctionDef) stmtNode() {}
func (*ClassDef) stmtNode()    {}
func (*Return) stmtNode()      {}
func (*Delete) stmtNode()      {}
func (*Assign) stmtNode()      {}
func (*AugAssign) stmtNode()   {}
func (*AnnAssign) stmtNode()   {}
func (*For) stmtNode()         {}
func (*While) stmtNode()       {}
func (*If) stmtNode()          {}
func (*With) stmtNode()        {}
func (*Match) stmtNode()       {}
func (*Raise) stmtNode()       {}
func (*Try) stmtNode()         {}
func (*Assert) stmtNode()      {}
func (*Import) stmtNode()      {}
func (*ImportFrom) stmtNode()  {}
func (*Global) stmtNode()      {}
func (*Nonlocal) stmtNode()    {}
func (*ExprStmt) stmtNode()    {}
func (*Pass) stmtNode()        {}
func (*Break) stmtNode()       {}
func (*Continue) stmtNode()    {}

func (*BoolOp) exprNode()         {}
func (*NamedExpr) exprNode()      {}
func (*BinOp) exprNode()          {}
func (*UnaryOp) exprNode()        {}
func (*Lambda) exprNode()         {}
func (*IfExp) exprNode()          {}
func (*Dict) exprNode()           {}
func (*Set) exprNode()            {}
func (*ListComp) exprNode()       {}
func (*SetComp) exprNode()        {}
func (*DictComp) exprNode()       {}
func (*GeneratorExp) exprNode()   {}
func (*Await) exprNode()          {}
func (*Yield) exprNode()          {}
func (*YieldFrom) exprNode()      {}
func (*Compare) exprNode()        {}
func (*Call) exprNode()           {}
func (*FormattedValue) exprNode() {}
func (*JoinedStr) exprNode()      {}
func (*Constant) exprNode()       {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Starred) exprNode()        {}
func (*Name) exprNode()           {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Slice) exprNode()          {}

func (*MatchValue) patternNode()     {}
func (*MatchSingleton) patternNode() {}
func (*MatchSequence) patternNode()  {}
func (*MatchMapping) patternNode()   {}
func (*MatchClass) patternNode()     {}
func (*MatchStar) patternNode()      {}
func (*MatchAs) patternNode()        {}
func (*MatchOr) patternNode()        {}
