package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	tests := []struct {
		name            string
		src             string
		comments, total int
	}{
		{"empty", "", 0, 0},
		{"one code line", "package p\n", 0, 1},
		{"no final newline", "package p", 0, 1},
		{"doc comment", "// Package p.\npackage p\n", 1, 2},
		{"indented with tab and spaces", "\t// a\n    // b\n \t// c\nx := 1\n", 3, 4},
		{"blank lines count in total only", "// a\n\n\npackage p\n", 1, 4},
		{"trailing comment is code", "x := 1 // why\n", 0, 1},
		{"block comment is not counted", "/* a\n b\n*/\npackage p\n", 0, 4},
		{"slash in string is code", "s := \"// no\"\n", 0, 1},
		{"single slash is code", "x := a / b\n", 0, 1},
		{"empty comment", "//\n", 1, 1},
		{"CRLF lines", "// a\r\npackage p\r\n", 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, n, err := count(strings.NewReader(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if c != tt.comments || n != tt.total {
				t.Errorf("count(%q) = %d/%d, want %d/%d", tt.src, c, n, tt.comments, tt.total)
			}
		})
	}
}

func TestCountDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go":      "// Package p.\npackage p\n",
		"b.go":      "package p\n\n// f does.\nfunc f() {}\n",
		"a_test.go": "// skipped\n// skipped\npackage p\n",
		"notes.txt": "// not Go\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A subdirectory's files belong to another package and are not read.
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "c.go"), []byte("// c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, n, err := countDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c != 2 || n != 6 {
		t.Errorf("countDir = %d/%d, want 2/6", c, n)
	}
	if _, _, err := countDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("countDir of a missing directory: no error")
	}
}

func TestPercent(t *testing.T) {
	tests := []struct {
		c, n int
		want float64
	}{
		{0, 0, 0},
		{1, 4, 25},
		{184, 4221, 100 * 184.0 / 4221},
	}
	for _, tt := range tests {
		if got := percent(tt.c, tt.n); got != tt.want {
			t.Errorf("percent(%d, %d) = %v, want %v", tt.c, tt.n, got, tt.want)
		}
	}
}
