package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/syntax"
)

// TestUnparseRefuses checks that an annotation the unparser cannot write
// back as source fails the compile with a SyntaxError at the
// annotation's line, instead of storing text that is not the source's.
// No parsed source reaches most of these nodes, so the trees are built
// by hand; the last rows come from source.
func TestUnparseRefuses(t *testing.T) {
	at := syntax.Pos{Line: 7}
	name := &syntax.Name{Pos: at, Id: "x"}
	one := &syntax.Constant{Pos: at, Value: int64(1)}
	tests := []struct {
		name string
		expr syntax.Expr
		msg  string
	}{
		{"unknown constant", &syntax.Constant{Pos: at, Value: complex(1, 2)}, "PVM: unsupported literal"},
		{"nil element", &syntax.Tuple{Pos: at, Elts: []syntax.Expr{name, nil}}, "PVM: cannot write the annotation's text: expression <nil>"},
		{"binary operator", &syntax.BinOp{Pos: at, Left: name, Op: syntax.Operator(200), Right: one}, "PVM: cannot write the annotation's text: binary operator 200"},
		{"unary operator", &syntax.UnaryOp{Pos: at, Op: syntax.UnaryOperator(200), Operand: one}, "PVM: cannot write the annotation's text: unary operator 200"},
		{"comparison operator", &syntax.Compare{Pos: at, Left: name, Ops: []syntax.CmpOp{syntax.CmpOp(200)}, Comparators: []syntax.Expr{one}}, "PVM: cannot write the annotation's text: comparison operator 200"},
		{"f-string part", &syntax.JoinedStr{Pos: at, Values: []syntax.Expr{name}}, "PVM: cannot write the annotation's text: f-string part *syntax.Name"},
		{"f-string constant", &syntax.JoinedStr{Pos: at, Values: []syntax.Expr{one}}, "PVM: cannot write the annotation's text: f-string constant int64"},
		{"in a replacement field", &syntax.JoinedStr{Pos: at, Values: []syntax.Expr{&syntax.FormattedValue{Pos: at, Value: &syntax.List{Pos: at, Elts: []syntax.Expr{nil}}}}}, "PVM: cannot write the annotation's text: expression <nil>"},
	}
	for _, tt := range tests {
		text, err := unparseAnnotation(tt.expr)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %q, %v; want SyntaxError %q", tt.name, text, err, tt.msg)
			continue
		}
		if se.Line != 7 || se.Msg != tt.msg {
			t.Errorf("%s: line %d %q, want line 7 %q", tt.name, se.Line, se.Msg, tt.msg)
		}
	}
	// What the unparser writes stays as before.
	if text, err := unparseAnnotation(&syntax.BinOp{Pos: at, Left: name, Op: syntax.Add, Right: one}); err != nil || text != "x + 1" {
		t.Errorf("x + 1: got %q, %v", text, err)
	}

	// From source: an int literal beyond the 4096-bit limit is refused as
	// it is outside an annotation, not stored as text.
	huge := strings.Repeat("9", 1300)
	for _, tt := range []struct {
		src  string
		line int
	}{
		{"from __future__ import annotations\nx: " + huge + "\n", 2},
		{"x = " + huge + "\n", 1},
	} {
		_, err := File("t.py", []byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != tt.line || se.Msg != "integer literal exceeds the 4096-bit limit" {
			t.Errorf("%.40q...: got %v, want the 4096-bit SyntaxError at line %d", tt.src, err, tt.line)
		}
	}
}
