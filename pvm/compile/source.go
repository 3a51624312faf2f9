package compile

import (
	"errors"

	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// File parses (pvm/syntax) and compiles a source file; pvm.Compile calls
// it for every actor and script. A parse error becomes a *SyntaxError
// carrying the class CPython would raise (SyntaxError, IndentationError
// or TabError) and its line; an error without a line is put on line 1.
func File(filename string, src []byte) (*Code, error) {
	mod, err := syntax.ParseFile(filename, src)
	if err != nil {
		var pe *syntax.Error
		if errors.As(err, &pe) {
			return nil, &SyntaxError{Filename: filename, Line: pe.Ln, Msg: pe.Msg, Kind: pe.ExceptionName()}
		}
		return nil, &SyntaxError{Filename: filename, Line: 1, Msg: err.Error()}
	}
	return Module(filename, mod)
}

// stmtLine is the line a statement's instructions are stamped with.
func stmtLine(s syntax.Stmt) int { return s.Lineno() }

// exprLine is an expression's line, or 0 for an omitted one (a nil
// slice bound), which leaves the builder's current line in place.
func exprLine(e syntax.Expr) int {
	if e == nil {
		return 0
	}
	return e.Lineno()
}
