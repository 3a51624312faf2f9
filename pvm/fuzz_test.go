package pvm

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRun executes arbitrary source under a small meter: whatever the
// program does, the VM must end it with a Python exception or a meter error,
// never an internal error (a recovered Go panic).
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.py")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := RunFile("fuzz.py", src, Config{CyclesLimit: 200_000, CellsLimit: 1 << 12, MemoryLimit: 1 << 20, Stdout: io.Discard})
		if err != nil && strings.HasPrefix(err.Error(), "pvm: internal error") {
			t.Fatalf("%v\nsource:\n%s", err, src)
		}
	})
}
