package syntax

import (
	"errors"
	"strings"
	"testing"
)

// Programs the parser must refuse, with the line CPython 3.11 reports.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
	}{
		{"unclosed paren", "x = (1,\n2\n", 1},
		{"bad indent", "if x:\n    y = 1\n      z = 2\n", 3},
		{"missing colon", "def f()\n    pass\n", 1},
		{"unterminated string", "a = 1\ns = 'abc\n", 2},
		{"assign to literal", "1 = x\n", 1},
		{"lonely else", "x = 1\nelse:\n    pass\n", 2},
		{"mismatched bracket", "x = [1,\n2)\n", 2},
	}
	for _, tt := range tests {
		_, err := ParseFile("t.py", []byte(tt.src))
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%s: got %v, want a syntax error", tt.name, err)
			continue
		}
		if se.Line() != tt.line {
			t.Errorf("%s: error on line %d (%s), want line %d", tt.name, se.Line(), se.Msg, tt.line)
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
