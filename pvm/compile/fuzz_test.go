package compile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzFile feeds arbitrary source to the parser and compiler: any input
// must give either a code object or a *SyntaxError with a line number,
// never a panic. Seeds are the conformance programs.
func FuzzFile(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*.py")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("x = (((((((1)))))))\n"))
	f.Add([]byte("def f(:\n"))
	f.Add([]byte("f'{x!z}'\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		code, err := File("fuzz.py", src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error is %T, not *SyntaxError: %v", err, err)
			}
			if se.Line < 0 {
				t.Fatalf("syntax error without a line: %v", err)
			}
			return
		}
		if code == nil {
			t.Fatal("nil code without error")
		}
	})
}

func TestSyntaxErrors(t *testing.T) {
	cases := map[string]string{
		"def f(:\n":                  "",
		"x = = 1\n":                  "",
		"return 1\n":                 "'return' outside function",
		"break\n":                    "'break' outside loop",
		"class A(**kw): pass\n":      "**kwargs in a class statement",
		"def f():\n    nonlocal q\n": "no binding for nonlocal 'q' found",
		// CPython 3.11's symtable messages, in its order of checks.
		"def f():\n    x = 1\n    global x\n":                                         "name 'x' is assigned to before global declaration",
		"def f():\n    print(x)\n    global x\n":                                      "name 'x' is used prior to global declaration",
		"def f():\n    x = 1\n    def g():\n        x = 2\n        nonlocal x\n":      "name 'x' is assigned to before nonlocal declaration",
		"def f(x):\n    global x\n":                                                   "name 'x' is parameter and global",
		"def f(x):\n    def g(y):\n        nonlocal y\n":                              "name 'y' is parameter and nonlocal",
		"def f():\n    x: int\n    global x\n":                                        "annotated name 'x' can't be global",
		"def f():\n    global x\n    x: int\n":                                        "annotated name 'x' can't be global",
		"def f():\n    x = 0\n    def g():\n        nonlocal x\n        x: int = 1\n": "annotated name 'x' can't be nonlocal",
		"def f():\n    return {(yield 1) for x in []}\n":                              "'yield' inside set comprehension",
		"def f():\n    return ((yield 1) for x in [])\n":                              "'yield' inside generator expression",
		"def f():\n    return {x: (yield 1) for x in []}\n":                           "'yield' inside dict comprehension",
		"def f():\n    return [(yield 1) for x in []]\n":                              "'yield' inside list comprehension",
		"x = " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + "\n":     "nested",
		"f(**a, b)\n":         "positional argument follows keyword argument unpacking",
		"for x in 1:\npass\n": "expected an indented block",
		"match v:\n    case (1, x) | (y, 2): pass\n":      "alternative patterns bind different names",
		"match v:\n    case (x, 1) | (2, x, y): pass\n":   "alternative patterns bind different names",
		"match v:\n    case [x, {'k': x}]: pass\n":        "multiple assignments to name 'x' in pattern",
		"match v:\n    case [x, (1, x) | (x, 1)]: pass\n": "multiple assignments to name 'x' in pattern",
		// Found by pvm/difftest: CPython's symtable refuses these.
		"[y for x in z for y in w if (y := 1)]\n":         "cannot rebind comprehension iteration variable 'y'",
		"[x for x, (a, b) in z if (b := 2)]\n":            "cannot rebind comprehension iteration variable 'b'",
		"[[x for y in w if (x := 1)] for x in z]\n":       "cannot rebind comprehension iteration variable 'x'",
		"[x for x in (y := [1])]\n":                       "cannot be used in a comprehension iterable expression",
		"[x for x in z for a in [b for b in (c := w)]]\n": "cannot be used in a comprehension iterable expression",
		"class C:\n    v = [(q := x) for x in z]\n":       "cannot be used in a class body",
		// Private names (CPython 3.11): the unbound nonlocal names the
		// mangled name, the declaration and parameter checks the name as
		// written.
		"class C:\n    def f(self):\n        nonlocal __x\n":                                    "no binding for nonlocal '_C__x' found",
		"class C:\n    def f(self):\n        def g():\n            nonlocal __q\n":              "no binding for nonlocal '_C__q' found",
		"def o():\n    __x = 1\n    class C:\n        def f(self):\n            nonlocal __x\n": "no binding for nonlocal '_C__x' found",
		"class C:\n    def f(self, __a, __a): pass\n":                                           "duplicate argument '__a' in function definition",
		"class C:\n    def f(self, _C__a, __a): pass\n":                                         "duplicate argument '__a' in function definition",
		"class C:\n    def f(self, __a):\n        global __a\n":                                 "name '__a' is parameter and global",
		"class C:\n    def f(self):\n        __x = 1\n        global __x\n":                     "name '__x' is assigned to before global declaration",
		"class C:\n    def f(self):\n        __x: int\n        global __x\n":                    "annotated name '__x' can't be global",
		"class C:\n    match v:\n        case [__x, __x]: pass\n":                               "multiple assignments to name '__x' in pattern",
	}
	for src, want := range cases {
		_, err := File("e.py", []byte(src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: want SyntaxError, got %v", src, err)
			continue
		}
		if !strings.Contains(se.Msg, want) {
			t.Errorf("%q: message %q does not mention %q", src, se.Msg, want)
		}
	}
}

func TestMaxStackIsEnough(t *testing.T) {
	// Deep expressions must get a stack big enough for their evaluation.
	src := "x = [1, [2, [3, [4, (5, 6, {7: 8})]]]] + [f(a, *b, c=d, **e) for a in y if a]\n"
	code, err := File("s.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if code.MaxStack < 8 {
		t.Fatalf("max stack %d too small", code.MaxStack)
	}
}

// TestResolveErrorLine: an unbound nonlocal is reported at its nonlocal
// statement's line, as CPython 3.11 does, not at line 1.
func TestResolveErrorLine(t *testing.T) {
	cases := []struct {
		src  string
		line int
	}{
		{"def f():\n    nonlocal q\n", 2},
		{"x = 1\n\ndef f():\n    def g():\n        nonlocal q\n    return g\n", 5},
		{"def f():\n    y = 1\n    def g():\n        nonlocal y\n        nonlocal q, y\n", 5},
		{"class C:\n    def f(self):\n        __y = 1\n        def g():\n            nonlocal __y\n            nonlocal __q\n", 6},
	}
	for _, c := range cases {
		_, err := File("e.py", []byte(c.src))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != c.line {
			t.Errorf("%q: got %v, want a SyntaxError at line %d", c.src, err, c.line)
		}
	}
}
