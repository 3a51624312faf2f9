package syntax

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestGoldenAST parses every testdata/*.py and compares Dump's output with
// the NAME.py.ast that testdata/dump.py wrote from CPython 3.11's
// ast.dump(ast.parse(src), include_attributes=True, indent=1): the same
// nodes, fields, expression contexts and source spans.
func TestGoldenAST(t *testing.T) {
	files, err := filepath.Glob("testdata/*.py")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		if filepath.Base(path) == "dump.py" {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(path + ".ast")
			if err != nil {
				t.Fatalf("%v (run python3 testdata/dump.py)", err)
			}
			mod, err := ParseFile(path, src)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			got := Dump(mod, true, 1) + "\n"
			if got != string(want) {
				t.Errorf("ast.dump differs from CPython's:\n%s", firstDiff(string(want), got))
			}
		})
	}
	if n < 60 {
		t.Errorf("%d golden programs, want at least 60", n)
	}
}

// firstDiff shows the first differing line of two dumps with context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			lo := max(0, i-6)
			ctx := strings.Join(w[lo:i], "\n")
			return ctx + "\n--- want line " + strconv.Itoa(i+1) + ": " + wl + "\n+++ got: " + gl
		}
	}
	return ""
}
