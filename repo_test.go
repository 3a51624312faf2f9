// Package cowboy_test holds checks over the repository as a whole.
package cowboy_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// conflictMarkers start the lines git writes around an unresolved merge
// conflict. They are built here so that this file does not hold them at the
// start of a line itself.
var conflictMarkers = []string{strings.Repeat("<", 7), strings.Repeat(">", 7)}

// TestNoConflictMarkers fails on any tracked file with a line that starts
// with a merge-conflict marker: a merge committed half-resolved (issue 16
// found three in docs/) must break `make test`.
func TestNoConflictMarkers(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v); nothing to scan", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 10 {
		t.Fatalf("git ls-files listed only %d files", len(files))
	}
	for _, f := range files {
		if bad := markerLines(t, f); len(bad) > 0 {
			t.Errorf("%s has merge-conflict markers on line(s) %v: resolve the conflict", f, bad)
		}
	}
}

// markerLines returns the 1-based numbers of f's lines that begin with a
// conflict marker followed by a space or the line's end.
func markerLines(t *testing.T, f string) []int {
	data, err := os.ReadFile(f)
	if os.IsNotExist(err) {
		return nil // deleted in the work tree, not yet committed
	}
	if err != nil {
		t.Fatalf("read %s: %v", f, err)
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil // binary
	}
	var bad []int
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		for _, m := range conflictMarkers {
			if rest, ok := strings.CutPrefix(l, m); ok && (rest == "" || rest[0] == ' ') {
				bad = append(bad, n)
			}
		}
	}
	return bad
}

// TestMarkerLines checks the detector on the shapes git writes.
func TestMarkerLines(t *testing.T) {
	lt, gt := conflictMarkers[0], conflictMarkers[1]
	body := "ok\n" + lt + " HEAD\nmine\n=======\ntheirs\n" + gt + " h-net\n" + lt + lt + " not a marker\nx " + gt + "\n"
	f := t.TempDir() + "/f.md"
	if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got := markerLines(t, f)
	if len(got) != 2 || got[0] != 2 || got[1] != 6 {
		t.Fatalf("markerLines = %v, want [2 6]", got)
	}
}

// TestDocsStandAlone: README.md and docs/ are read by someone who cloned
// this repository alone, so they must not send the reader to files outside
// it (issue 16 found README pointing at ../shared/spec/).
func TestDocsStandAlone(t *testing.T) {
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "README.md", "sdk/python/README.md", "examples/README.md")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		for i, l := range strings.Split(string(data), "\n") {
			for _, bad := range []string{"../shared", "/work/shared", "/work/"} {
				if strings.Contains(l, bad) {
					t.Errorf("%s:%d points outside the repository (%q): summarize and cite the spec section instead", f, i+1, bad)
				}
			}
		}
	}
}

// maxTrackedFile bounds any one tracked file. A session's whole submission
// was once refused for size; build outputs and generated data belong in
// scripts that make them, not in git.
const maxTrackedFile = 1_500_000

// TestNoLargeOrBinaryFiles fails on a tracked file over maxTrackedFile bytes
// or on a compiled executable (ELF): both are signs of a build output or a
// data dump committed by mistake.
func TestNoLargeOrBinaryFiles(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v); nothing to scan", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Stat(f)
		if err != nil {
			continue // deleted in the work tree, not yet committed
		}
		if fi.Size() > maxTrackedFile {
			t.Errorf("%s is %d bytes (limit %d): generate it in a script or test instead of committing it", f, fi.Size(), maxTrackedFile)
		}
		head := make([]byte, 4)
		if fh, err := os.Open(f); err == nil {
			n, _ := fh.Read(head)
			fh.Close()
			if n == 4 && string(head) == "\x7fELF" {
				t.Errorf("%s is a compiled executable: build outputs do not belong in git", f)
			}
		}
	}
}
