package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPVMRun(t *testing.T) {
	h := newHarness(t, 7777)
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		mustWrite(t, p, []byte(src), 0o600)
		return p
	}
	ok := write("ok.py", "def f(n):\n    return n * 2\nprint('hello', f(21))\n")
	if out := h.ok("pvm", "run", ok); out != "hello 42\n" {
		t.Fatalf("stdout %q", out)
	}
	r := h.run("pvm", "run", "--meter", ok)
	if r.code != 0 || !strings.Contains(r.stderr, "cycles used: ") {
		t.Fatalf("--meter: %+v", r)
	}
	bad := write("err.py", "def g():\n    raise ValueError('bad thing')\ng()\n")
	r = h.run("pvm", "run", bad)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "Traceback (most recent call last):") || !strings.HasSuffix(r.stderr, "ValueError: bad thing\n") {
		t.Fatalf("traceback: %+v", r)
	}
	loop := write("loop.py", "while True:\n    pass\n")
	// Issue 4: running out of cycles exits with status 3 and says so.
	if r := h.run("pvm", "run", "--cycles-limit", "100000", loop); r.code != 3 || !strings.Contains(r.stderr, "out of cycles") {
		t.Fatalf("out of cycles: %+v", r)
	}
	syntax := write("syn.py", "def (:\n")
	if r := h.run("pvm", "run", syntax); r.code != 1 || !strings.Contains(r.stderr, "SyntaxError") {
		t.Fatalf("syntax error: %+v", r)
	}
	h.fails([]string{"pvm", "run", filepath.Join(dir, "missing.py")}, "no such file")
}
