package compile

import (
	"errors"
	"testing"
)

// TestFutureStatements checks where future statements may stand, which
// features exist, and what PEP 563 refuses inside an annotation. Each
// row's line and message are CPython 3.11's (compile() of the same
// source), except barry_as_FLUFL, which the PVM refuses.
func TestFutureStatements(t *testing.T) {
	cases := []struct {
		src  string
		line int    // 0: compiles
		msg  string // CPython's message
	}{
		{"from __future__ import braces\n", 1, "not a chance"},
		{"from __future__ import nope\n", 1, "future feature nope is not defined"},
		{"from __future__ import annotations, nope\n", 1, "future feature nope is not defined"},
		{"x = 1\nfrom __future__ import annotations\n", 2, futureMisplacedMsg},
		{"def f():\n    from __future__ import annotations\n", 2, futureMisplacedMsg},
		{"from __future__ import annotations; import os; from __future__ import division\n", 1, futureMisplacedMsg},
		{"\"doc\"\n\"not doc\"\nfrom __future__ import annotations\n", 3, futureMisplacedMsg},
		{"try:\n    from __future__ import annotations\nexcept ImportError:\n    pass\n", 2, futureMisplacedMsg},
		{"import __future__\nfrom __future__ import annotations\n", 2, futureMisplacedMsg},
		{"from __future__ import annotations\nx: (yield)\n", 2, "'yield expression' can not be used within an annotation"},
		{"from __future__ import annotations\ndef f(a: (y := 1)): pass\n", 2, "'named expression' can not be used within an annotation"},
		{"from __future__ import annotations\nasync def f() -> await x: pass\n", 2, "'await expression' can not be used within an annotation"},
		{"from __future__ import annotations\nclass A:\n    x: (yield from y)\n", 3, "'yield expression' can not be used within an annotation"},
		{"from __future__ import annotations\ndef f():\n    x: [await z]\n", 3, "'await expression' can not be used within an annotation"},
		{"from __future__ import annotations\ndef f(*a: f(**{k: (yield)})): pass\n", 2, "'yield expression' can not be used within an annotation"},
		{"from __future__ import annotations\nx: lambda q=(yield): q\n", 2, "'yield expression' can not be used within an annotation"},
		{"from __future__ import annotations\nx: lambda: (yield)\n", 0, ""},
		{"\"doc\"\nfrom __future__ import annotations\nfrom __future__ import division; from __future__ import generator_stop\n", 0, ""},
		{"from __future__ import nested_scopes, generators, division, absolute_import, with_statement, print_function, unicode_literals\n", 0, ""},
		// Without the directive an annotation in a function is never
		// evaluated, so nothing in it is refused.
		{"def f():\n    x: [await z]\n", 0, ""},
		{"from __future__ import barry_as_FLUFL\n", 1, "PVM: from __future__ import barry_as_FLUFL is not supported"},
	}
	for _, tc := range cases {
		_, err := File("t.py", []byte(tc.src))
		if tc.line == 0 {
			if err != nil {
				t.Errorf("%q: %v, want it to compile", tc.src, err)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: got %v, want SyntaxError %q", tc.src, err, tc.msg)
			continue
		}
		if se.Line != tc.line || se.Msg != tc.msg {
			t.Errorf("%q: line %d %q, want line %d %q", tc.src, se.Line, se.Msg, tc.line, tc.msg)
		}
	}
}
