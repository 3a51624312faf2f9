package object

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
)

// TestUnicodeTablesCurrent regenerates unicode_tables.go with CPython 3.11
// (when it is installed) and checks the committed file is what it gives.
func TestUnicodeTablesCurrent(t *testing.T) {
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.version_info[:2] == (3, 11))").Output(); err != nil || string(bytes.TrimSpace(out)) != "True" {
		t.Skip("CPython 3.11 not available")
	}
	want, err := exec.Command("python3", "gen_unicode.py").Output()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("unicode_tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("unicode_tables.go is stale: run go generate ./pvm/object")
	}
}

func TestUnicodeCase(t *testing.T) {
	for _, c := range []struct{ in, upper, lower, title, fold string }{
		{"ß", "SS", "ß", "Ss", "ss"},
		{"ﬁ", "FI", "ﬁ", "Fi", "fi"},
		{"İ", "İ", "i̇", "İ", "i̇"},
		{"ΑΣ ΑΣΑ", "ΑΣ ΑΣΑ", "ας ασα", "Ας Ασα", "ασ ασα"},
		{"ǆ", "Ǆ", "ǆ", "ǅ", "ǆ"},
	} {
		if got := strUpper(c.in); got != c.upper {
			t.Errorf("upper(%q) = %q, want %q", c.in, got, c.upper)
		}
		if got := strLower(c.in); got != c.lower {
			t.Errorf("lower(%q) = %q, want %q", c.in, got, c.lower)
		}
		if got := strTitle(c.in); got != c.title {
			t.Errorf("title(%q) = %q, want %q", c.in, got, c.title)
		}
		if got := strCasefold(c.in); got != c.fold {
			t.Errorf("casefold(%q) = %q, want %q", c.in, got, c.fold)
		}
	}
}
