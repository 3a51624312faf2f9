// Command commentdensity prints, for each package directory it is given,
// how much of the package's Go source is comment: comment lines over all
// lines of the directory's non-test .go files. Issue 18 compares pvm/syntax,
// pvm/compile and pvm/vm with starlark-go's syntax, resolve and starlark
// packages; one rule applied to both sides keeps that comparison honest.
//
// The rule: a comment line is a line whose first non-blank characters are
// "//". Every line of a file counts toward the total, blank ones included.
// Trailing comments after code and lines inside /* */ blocks do not count
// as comment lines (neither code base uses block comments for
// documentation, and a trailing comment shares its line with code).
// Files ending in _test.go are skipped; subdirectories are not read.
//
//	go run ./scripts/commentdensity pvm/syntax pvm/compile pvm/vm
//
// prints one line per directory: the directory, comment lines, total
// lines and the percentage to one decimal.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: commentdensity DIR...")
		os.Exit(2)
	}
	for _, dir := range os.Args[1:] {
		comments, total, err := countDir(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "commentdensity:", err)
			os.Exit(1)
		}
		fmt.Printf("%-28s %6d / %6d  %5.1f%%\n", dir, comments, total, percent(comments, total))
	}
}

// percent is comments as a share of total; an empty directory is 0%.
func percent(comments, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(comments) / float64(total)
}

// countDir sums count over the non-test .go files directly in dir, in
// name order so that an error names the same file on every run.
func countDir(dir string) (comments, total int, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return 0, 0, fmt.Errorf("open %s: %w", name, err)
		}
		c, t, err := count(f)
		f.Close()
		if err != nil {
			return 0, 0, fmt.Errorf("read %s: %w", filepath.Join(dir, name), err)
		}
		comments += c
		total += t
	}
	return comments, total, nil
}

// count applies the rule of the package comment to one file: every line
// counts toward total, and a line counts as comment when, after leading
// spaces and tabs, it starts with "//". A last line without a newline
// still counts.
func count(r io.Reader) (comments, total int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		total++
		if strings.HasPrefix(strings.TrimLeft(sc.Text(), " \t"), "//") {
			comments++
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, fmt.Errorf("scan: %w", err)
	}
	return comments, total, nil
}
