package syntax

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxLevelsPerByte bounds the parser's work in FuzzParse.
const maxLevelsPerByte = 8

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
		mod, levels, err := parse(src)
		// Never hang, checked without a clock: the parser's work stays
		// linear in the source. Real programs and the hostile seeds above
		// enter at most one level per byte; exponential backtracking would
		// blow far past 8.
		if limit := maxLevelsPerByte * (len(src) + 1); levels > limit {
			t.Fatalf("parsing %d bytes entered %d levels, more than %d", len(src), levels, limit)
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
