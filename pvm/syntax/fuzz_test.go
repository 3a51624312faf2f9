package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bytes to the parser: it must return a tree or
// a *Error with a line inside the source, never panic and never hang, and
// every tree it returns must dump. The corpus is seeded with the golden
// programs here and the PVM conformance programs in ../testdata.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/*.py", "../testdata/*.py"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
	}
	for _, s := range []string{"", "(", "f'{", "if x:\n\tpass\n        pass\n", "x = " + strings.Repeat("[", 300),
		"-" + strings.Repeat("-", 5000) + "1", "match x:\n case [a, *b] if c: pass\n", "f'{x:{y:{z}}}'", "\\\n", "'''"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		mod, err := ParseFile("fuzz.py", src)
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("parsing %d bytes took %v", len(src), d)
		}
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T) is not a *syntax.Error", err, err)
			}
			if se.Line() < 1 || se.Line() > strings.Count(string(src), "\n")+2 {
				t.Fatalf("error line %d outside the source: %v", se.Line(), err)
			}
			return
		}
		_ = Dump(mod, true, -1)
	})
}
