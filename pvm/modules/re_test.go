package modules_test

import (
	"strings"
	"testing"
)

// TestReRefusesBacktracking shows every construct RE2 cannot run raises
// re.error with a message naming the limitation (docs/pvm-re.md).
func TestReRefusesBacktracking(t *testing.T) {
	for pat, what := range map[string]string{
		`(?=a)`:             "lookahead",
		`(?!a)`:             "negative lookahead",
		`(?<=a)b`:           "lookbehind",
		`(?<!a)b`:           "negative lookbehind",
		`(a)\1`:             "backreferences",
		`(?P<x>a)(?P=x)`:    "backreferences",
		`(?(1)a|b)`:         "conditional groups",
		`(?>a)`:             "atomic groups",
		`a*+`:               "possessive quantifiers",
		`a{2}+`:             "possessive quantifiers",
		`[a-z]+(?=\d)\w`:    "lookahead",
		`x(?L:a b)`:         "cannot use 'L' flag with a str pattern",
		`a{1001}`:           "repeat counts above 1000",
		`\N{DIGIT ONE}`:     `\N{...}`,
		`(?L)a`:             "LOCALE",
		`café` + "(?=x)":    "lookahead",
		"(?P<a>x)(?<=y)":    "lookbehind",
		`[\w](?!x)`:         "negative lookahead",
		`(?#c)(?=a)`:        "lookahead",
		`(a)(b)(c)\3`:       "backreferences",
		`\10`:               "backreferences",
		`(?i)(?m)a(?<!b)`:   "negative lookbehind",
		`a|b|(?=c)`:         "lookahead",
		`((((((a))))))\1`:   "backreferences",
		`(?s:.)(?<=\n)`:     "lookbehind",
		`[(?=a)]`:           "",
		`\(?=a\)`:           "",
		"(?x) ( ?= a )":     "",
		"(?x) ( ?=a )":      "",
		"(?x) \\( ?= a \\)": "",
	} {
		_, _, exc := run(t, "import re\nre.compile("+pyStr(pat)+")\n")
		if what == "" {
			continue // only checked not to crash
		}
		if !strings.HasPrefix(exc, "re.error: ") || !strings.Contains(exc, what) {
			t.Errorf("re.compile(%q): got %q, want re.error about %s", pat, exc, what)
		}
		if strings.Contains(what, "is") || what == "lookahead" || what == "backreferences" {
			if !strings.Contains(exc, "not supported by the PVM's re (RE2 engine, no backtracking)") {
				t.Errorf("re.compile(%q): %q does not explain the RE2 limitation", pat, exc)
			}
		}
	}
}

func pyStr(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestReLinear shows the engine's work, and so the cycles, grows linearly
// with the input even for patterns that make a backtracking engine take
// exponential time.
func TestReLinear(t *testing.T) {
	proportional(t, "import re\ns = 'a' * N\nre.search(r'(a+)+b', s)\n", 200)
	proportional(t, "import re\ns = 'ab ' * N\nx = re.findall(r'\\w+', s)\n", 200)
	proportional(t, "import re\ns = 'x' * N\ny = re.sub('x', 'yy', s)\n", 200)
	proportional(t, "import re\ns = 'a,' * N\ny = re.split(',', s)\n", 200)
	// The catastrophic case finishes well within a small budget.
	out, cycles := mustRun(t, "import re\nprint(re.match(r'(a*)*$', 'a' * 5000 + 'b'))\n")
	if out != "None\n" || cycles > 50_000_000 {
		t.Errorf("(a*)*$ on 5000 a's: %q in %d cycles", out, cycles)
	}
}

func TestReCompileCost(t *testing.T) {
	_, once := mustRun(t, "import re\nre.search('abc', 'x')\n")
	_, twice := mustRun(t, "import re\nre.search('abc', 'x')\nre.search('abc', 'x')\n")
	_, two := mustRun(t, "import re\nre.search('abc', 'x')\nre.search('abd', 'x')\n")
	if two-once <= twice-once {
		t.Errorf("a second pattern (%d cycles) should cost more than a cached one (%d)", two-once, twice-once)
	}
	proportional(t, "import re\np = re.compile('a' * N)\n", 100)
}

func TestReMisc(t *testing.T) {
	out, _ := mustRun(t, `import re
m = re.search(r"(?P<k>\w+)", "  héllo")
print(m.span(), m.start("k"), re.I | re.M, re.compile("x", re.I))
print(re.sub(r"\s", "", "a b\u3000c"), len(re.findall(".", "ñ\U0001F600a")))
`)
	want := "(2, 7) 2 re.IGNORECASE|re.MULTILINE re.compile('x', re.IGNORECASE)\nabc 3\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}
