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
	FunctionDef struct {
		Pos
		Name          string
		Args          *Arguments
		Body          []Stmt
		DecoratorList []Expr
		Returns       Expr
		IsAsync       bool // async def (ast.AsyncFunctionDef)
	}
	ClassDef struct {
		Pos
		Name          string
		Bases         []Expr
		Keywords      []*Keyword
		Body          []Stmt
		DecoratorList []Expr
	}
	Return struct {
		Pos
		Value Expr
	}
	Delete struct {
		Pos
		Targets []Expr
	}
	Assign struct {
		Pos
		Targets []Expr
		Value   Expr
	}
	AugAssign struct {
		Pos
		Target Expr
		Op     Operator
		Value  Expr
	}
	AnnAssign struct {
		Pos
		Target, Annotation, Value Expr
		// Simple is set when Target is a name not in parentheses
		// (CPython's simple=1): only then does the annotation land in
		// __annotations__.
		Simple bool
	}
	For struct {
		Pos
		Target, Iter Expr
		Body, Orelse []Stmt
		IsAsync      bool // async for (ast.AsyncFor)
	}
	While struct {
		Pos
		Test         Expr
		Body, Orelse []Stmt
	}
	If struct {
		Pos
		Test         Expr
		Body, Orelse []Stmt
	}
	With struct {
		Pos
		Items   []*WithItem
		Body    []Stmt
		IsAsync bool // async with (ast.AsyncWith)
	}
	Match struct {
		Pos
		Subject Expr
		Cases   []*MatchCase
	}
	Raise struct {
		Pos
		Exc, Cause Expr
	}
	Try struct {
		Pos
		Body      []Stmt
		Handlers  []*ExceptHandler
		Orelse    []Stmt
		Finalbody []Stmt
	}
	Assert struct {
		Pos
		Test, Msg Expr
	}
	Import struct {
		Pos
		Names []*Alias
	}
	ImportFrom struct {
		Pos
		Module string
		Names  []*Alias
		Level  int
	}
	Global struct {
		Pos
		Names []string
	}
	Nonlocal struct {
		Pos
		Names []string
	}
	ExprStmt struct {
		Pos
		Value Expr
	}
	Pass     struct{ Pos }
	Break    struct{ Pos }
	Continue struct{ Pos }
)

// Helper nodes.
type (
	WithItem  struct{ ContextExpr, OptionalVars Expr }
	MatchCase struct {
		Pattern Pattern
		Guard   Expr
		Body    []Stmt
	}
	ExceptHandler struct {
		Pos
		Type Expr
		Name string
		Body []Stmt
	}
	Alias struct {
		Pos
		Name, Asname string
	}
	Keyword struct {
		Pos
		Arg   string
		Value Expr
	} // Arg "" for **value
	Arguments struct {
		PosOnlyArgs, Args []*Arg
		VarArg            *Arg
		KwOnlyArgs        []*Arg
		KwDefaults        []Expr // one per KwOnlyArgs, nil when absent
		KwArg             *Arg
		Defaults          []Expr // for the last len(Defaults) positional args
	}
	Arg struct {
		Pos
		Arg        string
		Annotation Expr
	}
	Comprehension struct {
		Target, Iter Expr
		Ifs          []Expr
	}
)

// Expressions.
type (
	BoolOp struct {
		Pos
		Op     BoolOperator
		Values []Expr
	}
	NamedExpr struct {
		Pos
		Target, Value Expr
	}
	BinOp struct {
		Pos
		Left  Expr
		Op    Operator
		Right Expr
	}
	UnaryOp struct {
		Pos
		Op      UnaryOperator
		Operand Expr
	}
	Lambda struct {
		Pos
		Args *Arguments
		Body Expr
	}
	IfExp struct {
		Pos
		Test, Body, Orelse Expr
	}
	Dict struct {
		Pos
		Keys, Values []Expr
	} // nil key for **value
	Set struct {
		Pos
		Elts []Expr
	}
	ListComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	SetComp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	DictComp struct {
		Pos
		Key, Value Expr
		Generators []*Comprehension
	}
	GeneratorExp struct {
		Pos
		Elt        Expr
		Generators []*Comprehension
	}
	Await struct {
		Pos
		Value Expr
	}
	Yield struct {
		Pos
		Value Expr
	}
	YieldFrom struct {
		Pos
		Value Expr
	}
	Compare struct {
		Pos
		Left        Expr
		Ops         []CmpOp
		Comparators []Expr
	}
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
	Attribute struct {
		Pos
		Value Expr
		Attr  string
	}
	Subscript struct {
		Pos
		Value, Slice Expr
	}
	Starred struct {
		Pos
		Value Expr
	}
	Name struct {
		Pos
		Id string
	}
	List struct {
		Pos
		Elts []Expr
	}
	Tuple struct {
		Pos
		Elts []Expr
	}
	Slice struct {
		Pos
		Lower, Upper, Step Expr
	}
)

// Patterns.
type (
	MatchValue struct {
		Pos
		Value Expr
	}
	MatchSingleton struct {
		Pos
		Value any
	} // nil, true or false
	MatchSequence struct {
		Pos
		Patterns []Pattern
	}
	MatchMapping struct {
		Pos
		Keys     []Expr
		Patterns []Pattern
		Rest     string
	}
	MatchClass struct {
		Pos
		Cls         Expr
		Patterns    []Pattern
		KwdAttrs    []string
		KwdPatterns []Pattern
	}
	MatchStar struct {
		Pos
		Name string
	} // Name "" for *_
	MatchAs struct {
		Pos
		Pattern Pattern // nil for a capture or wildcard
		Name    string  // "" for _
	}
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
