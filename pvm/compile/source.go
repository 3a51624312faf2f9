package compile

import (
	"errors"

	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// File parses (pvm/syntax) and compiles a source file.
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

func stmtLine(s syntax.Stmt) int { return s.Lineno() }

func exprLine(e syntax.Expr) int {
	if e == nil {
		return 0
	}
	return e.Lineno()
}
