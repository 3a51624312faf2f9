package syntax

import (
	"errors"
	"strings"
	"testing"
)

// Programs the parser must refuse, with the exception class, message and
// line CPython 3.11 reports: each row was checked with
// python3 -c "compile(src, 't.py', 'exec')" (SyntaxError's type, msg and
// lineno).
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // "Kind: message"
		line      int
	}{
		{"unexpected indent", "x = 1\n    y = 2\n", "IndentationError: unexpected indent", 2},
		{"unexpected indent first line", "  x = 1\n", "IndentationError: unexpected indent", 1},
		{"unindent mismatch", "if x:\n    y = 1\n  z = 2\n", "IndentationError: unindent does not match any outer indentation level", 3},
		{"expected block if", "if x:\npass\n", "IndentationError: expected an indented block after 'if' statement on line 1", 2},
		{"expected block def", "def f():\nreturn 1\n", "IndentationError: expected an indented block after function definition on line 1", 2},
		{"expected block class", "class A:\nx = 1\n", "IndentationError: expected an indented block after class definition on line 1", 2},
		{"expected block for", "for x in y:\n\nz\n", "IndentationError: expected an indented block after 'for' statement on line 1", 3},
		{"expected block while", "while x:\nbreak\n", "IndentationError: expected an indented block after 'while' statement on line 1", 2},
		{"expected block else", "if x:\n    pass\nelse:\npass\n", "IndentationError: expected an indented block after 'else' statement on line 3", 4},
		{"expected block elif", "if x:\n    pass\nelif y:\npass\n", "IndentationError: expected an indented block after 'elif' statement on line 3", 4},
		{"expected block try", "try:\nx\nexcept:\n    pass\n", "IndentationError: expected an indented block after 'try' statement on line 1", 2},
		{"expected block except", "try:\n    x\nexcept E:\npass\n", "IndentationError: expected an indented block after 'except' statement on line 3", 4},
		{"expected block finally", "try:\n    x\nfinally:\npass\n", "IndentationError: expected an indented block after 'finally' statement on line 3", 4},
		{"expected block with", "with a:\npass\n", "IndentationError: expected an indented block after 'with' statement on line 1", 2},
		{"expected block at eof", "def f():\n", "IndentationError: expected an indented block after function definition on line 1", 1},
		{"tab after spaces", "if x:\n        a\n\tb\n", "TabError: inconsistent use of tabs and spaces in indentation", 3},
		{"spaces after tab", "if x:\n\ta\n        b\n", "TabError: inconsistent use of tabs and spaces in indentation", 3},
		{"unclosed paren", "x = (1,\n2\n", "SyntaxError: '(' was never closed", 1},
		{"unclosed bracket eof", "x = [1, 2", "SyntaxError: '[' was never closed", 1},
		{"unmatched close", "x = 1)\n", "SyntaxError: unmatched ')'", 1},
		{"mismatched close", "x = [1,\n2)\n", "SyntaxError: closing parenthesis ')' does not match opening parenthesis '[' on line 1", 2},
		{"mismatched same line", "x = (1]\n", "SyntaxError: closing parenthesis ']' does not match opening parenthesis '('", 1},
		{"unterminated string", "a = 1\ns = 'abc\n", "SyntaxError: unterminated string literal (detected at line 2)", 2},
		{"unterminated triple", "s = '''abc\n\nx\n", "SyntaxError: unterminated triple-quoted string literal (detected at line 3)", 1},
		{"missing colon def", "def f()\n    pass\n", "SyntaxError: expected ':'", 1},
		{"missing colon if", "if x\n    pass\n", "SyntaxError: expected ':'", 1},
		{"assign to literal", "1 = x\n", "SyntaxError: cannot assign to literal here. Maybe you meant '==' instead of '='?", 1},
		{"assign to call", "f() = 1\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"aug assign to tuple", "(a, b) += 1\n", "SyntaxError: 'tuple' is an illegal expression for augmented assignment", 1},
		{"del call", "del f()\n", "SyntaxError: cannot delete function call", 1},
		{"lonely else", "x = 1\nelse:\n    pass\n", "SyntaxError: invalid syntax", 2},
		{"try without except", "try:\n    pass\nx = 1\n", "SyntaxError: expected 'except' or 'finally' block", 3},
		{"default before non-default", "def f(a=1, b):\n    pass\n", "SyntaxError: non-default argument follows default argument", 1},
		{"positional after keyword", "f(a=1, b)\n", "SyntaxError: positional argument follows keyword argument", 1},
		{"positional after kw unpacking", "f(**k, b)\n", "SyntaxError: positional argument follows keyword argument unpacking", 1},
		{"genexp not sole arg", "f(x for x in y, 1)\n", "SyntaxError: Generator expression must be parenthesized", 1},
		{"bad character", "x = 1 $ 2\n", "SyntaxError: invalid syntax", 1},
		{"invalid character unicode", "x = 1 − 2\n", "SyntaxError: invalid character '−' (U+2212)", 1},
		{"continuation junk", "x = 1 \\ 2\n", "SyntaxError: unexpected character after line continuation character", 1},
		{"leading zeros", "x = 012\n", "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", 1},
		{"invalid syntax two names", "a b\n", "SyntaxError: invalid syntax", 1},
		{"incomplete expr", "x = 1 +\n", "SyntaxError: invalid syntax", 1},
		{"fstring single brace", "f'a}'\n", "SyntaxError: f-string: single '}' is not allowed", 1},
		{"fstring empty expr", "f'{}'\n", "SyntaxError: f-string: empty expression not allowed", 1},
		{"fstring bad conversion", "f'{x!z}'\n", "SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a'", 1},
		{"fstring backslash", "f'{\"\\n\"}'\n", "SyntaxError: f-string expression part cannot include a backslash", 1},
		{"mix bytes", "x = b'a' 'b'\n", "SyntaxError: cannot mix bytes and nonbytes literals", 1},
		{"star alone", "*a\n", "SyntaxError: can't use starred expression here", 1},
		{"star assign value", "x = *a\n", "SyntaxError: can't use starred expression here", 1},
		{"multiple except types", "try:\n    pass\nexcept A, B:\n    pass\n", "SyntaxError: multiple exception types must be parenthesized", 3},
		{"keyword as name", "class = 1\n", "SyntaxError: invalid syntax", 1},
		{"walrus target attr", "(a.b := 1)\n", "SyntaxError: cannot use assignment expressions with attribute", 1},
		{"lambda default order", "lambda a=1, b: 0\n", "SyntaxError: non-default argument follows default argument", 1},
		{"two star args", "def f(*a, *b): pass\n", "SyntaxError: * argument may appear only once", 1},
		{"deep dedent mismatch", "class A:\n    def f(self):\n        pass\n   x = 1\n", "IndentationError: unindent does not match any outer indentation level", 4},
		{"too deep nesting", "x = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((())))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\n", "SyntaxError: too many nested parentheses", 1},
		{"too many indents", "if x:\n if x:\n  if x:\n   if x:\n    if x:\n     if x:\n      if x:\n       if x:\n        if x:\n         if x:\n          if x:\n           if x:\n            if x:\n             if x:\n              if x:\n               if x:\n                if x:\n                 if x:\n                  if x:\n                   if x:\n                    if x:\n                     if x:\n                      if x:\n                       if x:\n                        if x:\n                         if x:\n                          if x:\n                           if x:\n                            if x:\n                             if x:\n                              if x:\n                               if x:\n                                if x:\n                                 if x:\n                                  if x:\n                                   if x:\n                                    if x:\n                                     if x:\n                                      if x:\n                                       if x:\n                                        if x:\n                                         if x:\n                                          if x:\n                                           if x:\n                                            if x:\n                                             if x:\n                                              if x:\n                                               if x:\n                                                if x:\n                                                 if x:\n                                                  if x:\n                                                   if x:\n                                                    if x:\n                                                     if x:\n                                                      if x:\n                                                       if x:\n                                                        if x:\n                                                         if x:\n                                                          if x:\n                                                           if x:\n                                                            if x:\n                                                             if x:\n                                                              if x:\n                                                               if x:\n                                                                if x:\n                                                                 if x:\n                                                                  if x:\n                                                                   if x:\n                                                                    if x:\n                                                                     if x:\n                                                                      if x:\n                                                                       if x:\n                                                                        if x:\n                                                                         if x:\n                                                                          if x:\n                                                                           if x:\n                                                                            if x:\n                                                                             if x:\n                                                                              if x:\n                                                                               if x:\n                                                                                if x:\n                                                                                 if x:\n                                                                                  if x:\n                                                                                   if x:\n                                                                                    if x:\n                                                                                     if x:\n                                                                                      if x:\n                                                                                       if x:\n                                                                                        if x:\n                                                                                         if x:\n                                                                                          if x:\n                                                                                           if x:\n                                                                                            if x:\n                                                                                             if x:\n                                                                                              if x:\n                                                                                               if x:\n                                                                                                if x:\n                                                                                                 if x:\n                                                                                                  if x:\n                                                                                                   if x:\n                                                                                                    if x:\n                                                                                                     pass\n", "IndentationError: too many levels of indentation", 101},
		{"unexpected indent in block", "def f():\n    x = 1\n        y = 2\n", "IndentationError: unexpected indent", 3},
		{"print statement", "print 'x'\n", "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?", 1},
		{"assign two targets call", "f() = x = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"assign second target call", "x = f() = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"assign to binop", "a + 1 = 2\n", "SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='?", 1},
		{"assign to unary", "-a = 1\n", "SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='?", 1},
		{"assign to comparison", "a < b = 1\n", "SyntaxError: cannot assign to comparison", 1},
		{"assign to not", "not a = 1\n", "SyntaxError: cannot assign to expression", 1},
		{"assign list with call", "[f()] = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"assign tuple with literal", "(a, 1) = x\n", "SyntaxError: cannot assign to literal", 1},
		{"assign to True", "True = 1\n", "SyntaxError: cannot assign to True", 1},
		{"assign to None", "None = 1\n", "SyntaxError: cannot assign to None", 1},
		{"assign to ellipsis", "... = 1\n", "SyntaxError: cannot assign to ellipsis here. Maybe you meant '==' instead of '='?", 1},
		{"assign to fstring", "f'{x}' = 1\n", "SyntaxError: cannot assign to f-string expression here. Maybe you meant '==' instead of '='?", 1},
		{"assign to yield", "x = yield = 1\n", "SyntaxError: assignment to yield expression not possible", 1},
		{"assign to ifexp", "a if b else c = 1\n", "SyntaxError: cannot assign to conditional expression", 1},
		{"assign to lambda", "lambda: 1 = 1\n", "SyntaxError: cannot assign to lambda", 1},
		{"assign to walrus", "(x := 1) = 2\n", "SyntaxError: cannot assign to named expression here. Maybe you meant '==' instead of '='?", 1},
		// CPython 3.11's invalid_named_expression on the element before the
		// first '=' (parser.go, hintError).
		{"hint: tuple last call", "a, f() = 1\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple attr then call", "a.b, f() = 1\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple last unary", "a, -x = 1\n", "SyntaxError: cannot assign to expression here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple last parenthesized call", "a, (f()) = 1\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple starred first", "*a, f() = 1\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple value tuple", "a, f() = 1, 2\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple value ifexp", "a, f() = x if c else y\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple chained no hint", "a, f() = x = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: tuple value not no hint", "a, f() = not x\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: tuple value lambda no hint", "a, f() = lambda: 1\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: tuple value paren yield", "a, f() = (yield)\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"hint: tuple trailing comma no hint", "a, f(), = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: nested tuple no hint", "a, (b, f()) = x\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: starts with list no hint", "a, [1] + x = 1\n", "SyntaxError: cannot assign to expression", 1},
		{"hint: compare no hint", "a, x == y = 1\n", "SyntaxError: cannot assign to comparison", 1},
		{"hint: name after bad element", "f(), a = 1\n", "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?", 1},
		{"hint: attr after bad element", "f(), a.b = 1\n", "SyntaxError: cannot assign to attribute here. Maybe you meant '==' instead of '='?", 1},
		{"hint: name then tuple target", "x = a, f() = 1\n", "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?", 1},
		{"hint: name then ifexp target", "x = a if c else d = 1\n", "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?", 1},
		{"hint: chained call no hint", "x = f() = y = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: value not-and no hint", "f() = not a and b\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: value compare", "f() = a < b\n", "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='?", 1},
		{"paren yield among targets", "x = (yield) = 1\n", "SyntaxError: cannot assign to yield expression", 1},
		{"bare yield among targets", "x = yield = 1\n", "SyntaxError: assignment to yield expression not possible", 1},
		{"bare yield first", "yield = 1\n", "SyntaxError: assignment to yield expression not possible", 1},
		{"call before bare yield", "f() = yield = 1\n", "SyntaxError: cannot assign to function call", 1},
		{"hint: tuple last paren yield", "a, (yield) = 1\n", "SyntaxError: cannot assign to yield expression here. Maybe you meant '==' instead of '='?", 1},
		{"assign to dict", "{a: b} = 1\n", "SyntaxError: cannot assign to dict literal here. Maybe you meant '==' instead of '='?", 1},
		{"assign to set", "{a} = 1\n", "SyntaxError: cannot assign to set display here. Maybe you meant '==' instead of '='?", 1},
		{"assign to listcomp", "[x for x in y] = 1\n", "SyntaxError: cannot assign to list comprehension here. Maybe you meant '==' instead of '='?", 1},
		{"for target call", "for f() in x: pass\n", "SyntaxError: cannot assign to function call", 1},
		{"with target call", "with a as f(): pass\n", "SyntaxError: cannot assign to function call", 1},
		{"comprehension target call", "[x for f() in y]\n", "SyntaxError: cannot assign to function call", 1},
		{"del tuple with call", "del (a, f())\n", "SyntaxError: cannot delete function call", 1},
		{"del binop", "del a + b\n", "SyntaxError: cannot delete expression", 1},
		{"annotate tuple", "(a, b): int\n", "SyntaxError: only single target (not tuple) can be annotated", 1},
		{"annotate list", "[a]: int\n", "SyntaxError: only single target (not list) can be annotated", 1},
		{"annotate call", "f(): int\n", "SyntaxError: illegal target for annotation", 1},
		{"aug assign call", "f() += 1\n", "SyntaxError: 'function call' is an illegal expression for augmented assignment", 1},
		{"aug assign list", "[a] += 1\n", "SyntaxError: 'list' is an illegal expression for augmented assignment", 1},
		{"exec statement", "exec 'x'\n", "SyntaxError: Missing parentheses in call to 'exec'. Did you mean exec(...)?", 1},
		{"walrus subscript", "(a[0] := 1)\n", "SyntaxError: cannot use assignment expressions with subscript", 1},
		{"walrus tuple", "((a, b) := 1)\n", "SyntaxError: cannot use assignment expressions with tuple", 1},
		{"keyword expression", "f(a.b=1)\n", "SyntaxError: expression cannot contain assignment, perhaps you meant \"==\"?", 1},
		{"ifexp without else", "x = 1 if y\n", "SyntaxError: expected 'else' after 'if' expression", 1},
		{"if with assignment", "if x = 1:\n    pass\n", "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?", 1},
		{"kwarg then arg", "def f(**a, b): pass\n", "SyntaxError: arguments cannot follow var-keyword argument", 1},
		{"bare star", "def f(*): pass\n", "SyntaxError: named arguments must follow bare *", 1},
		{"bare star kwargs", "def f(*, **k): pass\n", "SyntaxError: named arguments must follow bare *", 1},
		{"iterable after kw unpacking", "f(**a, *b)\n", "SyntaxError: iterable argument unpacking follows keyword argument unpacking", 1},
		{"expected block case", "match x:\n    case 1:\n    pass\n", "IndentationError: expected an indented block after 'case' statement on line 2", 3},
		{"expected block nested eof", "if x:\n    if y:\n", "IndentationError: expected an indented block after 'if' statement on line 2", 2},
		{"fstring nested too deeply", "f'{x:{y:{z}}}'\n", "SyntaxError: f-string: expressions nested too deeply", 1},
		{"fstring unclosed", "f'{x'\n", "SyntaxError: f-string: expecting '}'", 1},
		{"fstring hash", "f'{x#}'\n", "SyntaxError: f-string expression part cannot include '#'", 1},
		{"invalid after dedent", "def f():\n    pass\n  pass\n", "IndentationError: unindent does not match any outer indentation level", 3},
		{"exponent without digits", "x = 1e\n", "SyntaxError: invalid decimal literal", 1},
		{"number into name", "x = 1abc\n", "SyntaxError: invalid decimal literal", 1},
		{"trailing underscore", "x = 1_\n", "SyntaxError: invalid decimal literal", 1},
		{"double underscore", "x = 1__0\n", "SyntaxError: invalid decimal literal", 1},
		{"trailing underscore grouped", "x = 1_000_\n", "SyntaxError: invalid decimal literal", 1},
		{"fraction trailing underscore", "x = 1.5_\n", "SyntaxError: invalid decimal literal", 1},
		{"signed exponent without digits", "x = 1.5e+\n", "SyntaxError: invalid decimal literal", 1},
		{"zero trailing underscore", "x = 0_\n", "SyntaxError: invalid decimal literal", 1},
		{"hex without digits", "x = 0x\n", "SyntaxError: invalid hexadecimal literal", 1},
		{"hex into name", "x = 0xg\n", "SyntaxError: invalid hexadecimal literal", 1},
		{"binary digit", "x = 0b2\n", "SyntaxError: invalid digit '2' in binary literal", 1},
		{"octal digit", "x = 0o8\n", "SyntaxError: invalid digit '8' in octal literal", 1},
		{"binary trailing underscore", "x = 0b1_\n", "SyntaxError: invalid binary literal", 1},
		{"imaginary into name", "x = 1jx\n", "SyntaxError: invalid imaginary literal", 1},
		{"leading zeros underscore", "x = 00_1\n", "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers", 1},
		{"lone carriage return ends a line", "x = 1\ry = (\n", "SyntaxError: '(' was never closed", 2},
		{"tab then spaces same level", "if a:\n\tif b:\n\t\tpass\n\t        pass\n", "TabError: inconsistent use of tabs and spaces in indentation", 4},
	}
	if len(tests) < 40 {
		t.Fatalf("%d broken programs, want at least 40", len(tests))
	}
	for _, tt := range tests {
		_, err := ParseFile("t.py", []byte(tt.src))
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
			continue
		}
		if got := se.ExceptionName() + ": " + se.Msg; got != tt.want || se.Line() != tt.line {
			t.Errorf("%s:\n got %s (line %d)\nwant %s (line %d)", tt.name, got, se.Line(), tt.want, tt.line)
		}
	}
}

// Deep nesting is refused with an error, never a Go stack overflow.
func TestDeepNesting(t *testing.T) {
	src := "x = " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000) + "\n"
	if _, err := ParseFile("deep.py", []byte(src)); err == nil {
		t.Fatal("100,000 nested parentheses accepted")
	}
	src = "x = " + strings.Repeat("[", 100_000) + "\n"
	if _, err := ParseFile("deep.py", []byte(src)); err == nil {
		t.Fatal("100,000 unclosed brackets accepted")
	}
}

func TestParsesStatements(t *testing.T) {
	src := `
@dec
class A(B, metaclass=M):
    x: int = 1
    def f(self, a, /, b=2, *args, c, d=4, **kw):
        return [i for i in a if i] or {k: v for k, v in kw.items()}
def g():
    with a as b, c:
        yield from b
match p:
    case [1, *rest] if rest:
        pass
    case {"k": v, **others}:
        pass
    case Point(x=0) | None:
        pass
try:
    raise E from None
except (A, B) as e:
    pass
else:
    pass
finally:
    del x[1:2:3], y
print(f"{x!r:>{w}} {y=}")
lambda *a, **k: (yield)
while (n := n - 1) > 0: continue
`
	mod, err := ParseFile("ok.py", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(mod.Body) != 7 {
		t.Fatalf("%d top-level statements, want 7", len(mod.Body))
	}
}

// CPython accepts 200 nested brackets and refuses the 201st; operator
// chains far deeper than that fail cleanly instead of overflowing.
func TestNestingLimits(t *testing.T) {
	ok := "x = " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + "\n"
	if _, err := ParseFile("t.py", []byte(ok)); err != nil {
		t.Errorf("200 nested parentheses: %v", err)
	}
	ok = "x = " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n"
	if _, err := ParseFile("t.py", []byte(ok)); err != nil {
		t.Errorf("200 nested lists: %v", err)
	}
	bad := "x = " + strings.Repeat("(", 201) + "1" + strings.Repeat(")", 201) + "\n"
	if _, err := ParseFile("t.py", []byte(bad)); err == nil || !strings.Contains(err.Error(), "too many nested parentheses") {
		t.Errorf("201 nested parentheses: %v", err)
	}
	for _, src := range []string{
		"x = " + strings.Repeat("-", 100_000) + "1\n",
		"x = " + strings.Repeat("not ", 100_000) + "1\n",
		"x = " + strings.Repeat("2**", 100_000) + "1\n",
		"x = " + strings.Repeat("lambda: ", 100_000) + "1\n",
		"x = " + strings.Repeat("1 if 1 else ", 100_000) + "1\n",
		"x = " + strings.Repeat("a.", 100_000) + "b\n",
		"x = 1" + strings.Repeat(" + 1", 100_000) + "\n",
	} {
		if _, err := ParseFile("t.py", []byte(src)); err != nil && !strings.Contains(err.Error(), "too many nested") {
			t.Errorf("%.20s...: %v", src, err)
		}
	}
}

// TestUniversalNewlines: "\r\n" and a lone "\r" end lines as "\n" does,
// and a CRLF file's triple-quoted string holds "\n", as when CPython 3.11
// reads a file.
func TestUniversalNewlines(t *testing.T) {
	cases := []struct {
		src, want string
	}{
		{"s = '''a\r\nb'''\r\n", "a\nb"},
		{"s = '''a\rb'''\r", "a\nb"},
		{"s = '''a\r\r\nb'''\n", "a\n\nb"},
		{"s = 'x\\\r\ny'\r\n", "xy"},
		{"s = 'a\\rb'\n", "a\rb"},
	}
	for _, c := range cases {
		m, err := ParseFile("t.py", []byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		got := m.Body[0].(*Assign).Value.(*Constant).Value
		if got != c.want {
			t.Errorf("%q: string %q, want %q", c.src, got, c.want)
		}
	}
}
