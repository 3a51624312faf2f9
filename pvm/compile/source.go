package compile

import (
	"errors"

	syntax "github.com/cowboy-chain/cowboy/pvm/compile/internal/stopgap"
)

// File parses and compiles a source file. Until pvm/syntax exists the
// parser is the internal stopgap, whose tree mirrors CPython's ast module;
// switching is a one-line import change here and in the compiler files.
func File(filename string, src []byte) (*Code, error) {
	mod, err := syntax.ParseFile(filename, src)
	if err != nil {
		var pe *syntax.Error
		if errors.As(err, &pe) {
			return nil, &SyntaxError{Filename: filename, Line: pe.Ln, Msg: pe.Msg}
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
