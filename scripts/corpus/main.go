// Command corpus runs a directory of third-party Python files through
// CPython 3.11 and the PVM and compares them (docs/testing.md,
// "Third-party Python: the corpus run"). The generator of pvm/difftest
// only writes what its authors thought of; a corpus such as
// TheAlgorithms/Python is ordinary Python nobody here wrote.
//
// Each file's doctests are flattened into one program that prints every
// example's result (flatten.py, run under python3: test tooling only). The
// program runs under python3 and under the PVM (in a child process of this
// command, so a hang or a crash costs one file), and the file is reported
// as
//
//	same       identical output (addresses in default reprs aside)
//	differs    a difference: minimized and written to -out
//	order      the differing lines hold the same characters in another
//	           order: a set printed in iteration order, which the PVM
//	           does not share with CPython
//	outside    the PVM hit one of its documented limits (cycles, memory,
//	           recursion depth, the int cap) where CPython did not
//	refused    the PVM refused an import (not on the module whitelist),
//	           at the top of the file or inside an example
//	skipped    no doctests, input() or timeit outside a main guard, or
//	           CPython itself failed or timed out
//
// followed by a summary. It needs python3 and takes time; it is not part
// of `make test`.
//
//	go run ./scripts/corpus -dir ~/src/Python -out /tmp/corpus-out -j 2
package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/difftest"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

//go:embed flatten.py
var flattenPy []byte

// options are the command's flags.
type options struct {
	dir, out, python, only string
	jobs                   int
	pyTimeout, pvmTimeout  time.Duration
	cycles                 uint64
	minimizeRuns           int
}

func main() {
	var o options
	flag.StringVar(&o.dir, "dir", "", "directory of .py files (searched recursively)")
	flag.StringVar(&o.out, "out", "corpus-out", "directory for results.txt and one minimized program per difference")
	flag.StringVar(&o.python, "python", "python3", "the reference interpreter (CPython 3.11)")
	flag.StringVar(&o.only, "only", "", "run only files whose path (relative to -dir) matches this regexp")
	flag.IntVar(&o.jobs, "j", 1, "files run in parallel")
	flag.DurationVar(&o.pyTimeout, "timeout", 120*time.Second, "longest CPython run; a file over it is skipped, not a difference")
	flag.DurationVar(&o.pvmTimeout, "pvm-timeout", 300*time.Second, "longest PVM run (its cycles limit normally ends it first)")
	flag.Uint64Var(&o.cycles, "cycles", 5_000_000_000, "the PVM's cycles limit per program")
	flag.IntVar(&o.minimizeRuns, "minimize", 60, "most candidate programs the minimizer runs per difference")
	runPVM := flag.String("run-pvm", "", "internal: run this file in the PVM and print the outcome as JSON")
	flag.Parse()
	if *runPVM != "" {
		os.Exit(childPVM(*runPVM, o.cycles))
	}
	if o.dir == "" {
		fmt.Fprintln(os.Stderr, "corpus: -dir is required (a directory of .py files, e.g. a clone of TheAlgorithms/Python)")
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(2)
	}
}

// outcome is what one interpreter did with a program.
type outcome struct {
	Stdout string `json:"stdout"`
	// Exc is the type name of an uncaught exception, or "" when the
	// program ended normally.
	Exc string `json:"exc"`
	// Err is the PVM's error text (an uncaught exception's last line, a
	// limit) or CPython's last line of stderr.
	Err string `json:"err"`
	// Limit is set when the PVM stopped on one of its limits (cycles,
	// cells) or the run timed out.
	Limit   bool `json:"limit"`
	Timeout bool `json:"-"`
}

// childPVM runs one program in the PVM, as `cowboy pvm run` does, and
// prints its outcome: the parent reads it from a child so that a hang, a
// Go panic or the Go heap of one file does not end the whole run.
func childPVM(path string, cycles uint64) int {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		return 2
	}
	var out bytes.Buffer
	_, err = pvm.RunFile(filepath.Base(path), src, pvm.Config{
		CyclesLimit: cycles, CellsLimit: 100_000_000, Stdout: &out, Modules: modules.Standard(),
	})
	o := outcome{Stdout: out.String()}
	if err != nil {
		var pe *vm.PyError
		var le *meter.LimitError
		switch {
		case errors.As(err, &pe):
			o.Exc = pe.Exc.Class.Name
			o.Err = lastLine(pe.Traceback)
		case errors.As(err, &le):
			o.Exc, o.Err, o.Limit = "<limit>", err.Error(), true
		default:
			o.Exc, o.Err = "<internal>", err.Error()
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(o); err != nil {
		return 2
	}
	return 0
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// unit is a piece of a flattened program (flatten.py).
type unit struct {
	Kind string `json:"kind"`
	Src  string `json:"src"`
}

// flattened is flatten.py's answer for one file.
type flattened struct {
	Units    []unit   `json:"units"`
	Examples int      `json:"examples"`
	Uses     []string `json:"uses"`
	Error    string   `json:"error"`
}

func join(units []unit) string {
	var b strings.Builder
	for _, u := range units {
		b.WriteString(u.Src)
		b.WriteString("\n")
	}
	return b.String()
}

// result is the verdict on one file.
type result struct {
	path    string
	kind    string // same, differs, outside, refused, skipped
	detail  string
	module  string // the refused import
	minimal string // the minimized program of a difference
	report  string // what both printed for it
}

// runner holds what every file's run shares.
type runner struct {
	options
	self string // this executable, for the PVM child
	tmp  string
}

func run(o options) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable: %w", err)
	}
	if _, err := exec.LookPath(o.python); err != nil {
		return fmt.Errorf("the reference interpreter %q is not installed: %w", o.python, err)
	}
	var only *regexp.Regexp
	if o.only != "" {
		if only, err = regexp.Compile(o.only); err != nil {
			return fmt.Errorf("-only: %w", err)
		}
	}
	files, err := pythonFiles(o.dir, only)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	tmp, err := os.MkdirTemp("", "corpus")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	// python3 is often a shim (pyenv) that costs more to start than a
	// small program takes to run: ask it once for the interpreter itself.
	exe, err := exec.Command(o.python, "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		return fmt.Errorf("run %s: %w", o.python, err)
	}
	o.python = strings.TrimSpace(string(exe))
	r := &runner{options: o, self: self, tmp: tmp}
	flatten := filepath.Join(tmp, "flatten.py")
	if err := os.WriteFile(flatten, flattenPy, 0o600); err != nil {
		return fmt.Errorf("write flatten.py: %w", err)
	}
	flat, err := flattenAll(o.python, flatten, o.dir, files)
	if err != nil {
		return err
	}
	log, err := os.Create(filepath.Join(o.out, "results.txt"))
	if err != nil {
		return fmt.Errorf("results file: %w", err)
	}
	defer log.Close()

	results := make([]*result, len(files))
	next := make(chan int)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < max(1, o.jobs); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range next {
				res := r.file(files[i], flat[i], w)
				mu.Lock()
				results[i] = res
				line := fmt.Sprintf("%-8s %s", res.kind, res.path)
				if res.detail != "" {
					line += "  " + res.detail
				}
				fmt.Println(line)
				fmt.Fprintln(log, line)
				if res.kind == "differs" {
					if err := r.writeDiff(res); err != nil {
						fmt.Fprintln(os.Stderr, "corpus:", err)
					}
				}
				mu.Unlock()
			}
		}(w)
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	summary := summarize(results)
	fmt.Print(summary)
	fmt.Fprint(log, summary)
	return nil
}

// pythonFiles lists dir's .py files (relative paths, sorted), leaving out
// hidden directories.
func pythonFiles(dir string, only *regexp.Regexp) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".py") {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			if only == nil || only.MatchString(rel) {
				files = append(files, rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	sort.Strings(files)
	return files, nil
}

// refusedRE finds the module the PVM refused: one off the whitelist, or a
// name a whitelisted module leaves out on purpose (hashlib's md5).
var refusedRE = regexp.MustCompile(`import of '([^']*)' is not allowed|cannot import name '([^']*)' from '([^']*)'`)

// addressRE matches the addresses in default reprs (`<C object at 0x7f..>`):
// CPython prints memory addresses, the PVM a counter or nothing (`<map
// object>`); neither is a value, so both sides drop them.
var addressRE = regexp.MustCompile(` at 0x[0-9a-f]+>`)

// flattenAll flattens every file in one python3 process.
func flattenAll(python, flatten, dir string, files []string) ([]flattened, error) {
	args := []string{"-I", flatten}
	for _, f := range files {
		args = append(args, filepath.Join(dir, f))
	}
	cmd := exec.Command(python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("flatten.py: %w: %s", err, firstLine(stderr.String()))
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(files) {
		return nil, fmt.Errorf("flatten.py answered %d files of %d", len(lines), len(files))
	}
	flat := make([]flattened, len(files))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &flat[i]); err != nil {
			return nil, fmt.Errorf("flatten.py on %s: %w", files[i], err)
		}
	}
	return flat, nil
}

// file runs one corpus file through both interpreters.
func (r *runner) file(rel string, fl flattened, worker int) *result {
	res := &result{path: rel}
	switch {
	case fl.Error != "":
		res.kind, res.detail = "skipped", "CPython cannot parse it: "+fl.Error
		return res
	case fl.Examples == 0:
		res.kind, res.detail = "skipped", "no doctests"
		return res
	case len(fl.Uses) > 0:
		res.kind, res.detail = "skipped", "uses "+strings.Join(fl.Uses, ", ")+" outside a main guard"
		return res
	}
	prog := join(fl.Units)
	pv := r.runPVM(prog, worker, r.pvmTimeout)
	if m := refusedRE.FindStringSubmatch(pv.Err); m != nil && (pv.Exc == "ImportError" || pv.Exc == "ModuleNotFoundError") {
		res.kind, res.module = "refused", m[1]
		if m[1] == "" {
			res.module = m[3] + "." + m[2]
		}
		res.detail = "PVM refused import " + res.module
		return res
	}
	py := r.runCPython(prog, worker, r.pyTimeout)
	switch {
	case py.Timeout:
		res.kind, res.detail = "skipped", fmt.Sprintf("CPython timed out after %v", r.pyTimeout)
		return res
	case py.Exc != "":
		res.kind, res.detail = "skipped", "CPython failed: "+py.Err
		return res
	}
	switch compare(py, pv) {
	case verdictSame:
		res.kind = "same"
	case verdictOrder:
		_, where := firstDifference(py.Stdout, pv.Stdout)
		res.kind, res.detail = "order", where
	case verdictRefusedInExample:
		k, where := firstDifference(py.Stdout, pv.Stdout)
		res.kind, res.module, res.detail = "refused", fmt.Sprintf("(inside example #%d)", k), "PVM refused an import: "+where
	case verdictOutside:
		_, where := firstDifference(py.Stdout, pv.Stdout)
		res.kind, res.detail = "outside", "PVM limit: "+pvmEnd(pv)
		if pv.Exc == "" {
			res.detail = "PVM limit in " + where
		}
	default:
		res.kind = "differs"
		k, where := firstDifference(py.Stdout, pv.Stdout)
		res.detail = where
		if pv.Exc != "" && k < 0 {
			res.detail = "PVM ended on " + pvmEnd(pv)
		}
		res.minimal, res.report = r.minimize(fl.Units, k, worker)
	}
	return res
}

func pvmEnd(pv outcome) string {
	if pv.Err != "" {
		return pv.Err
	}
	return pv.Exc
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

type verdict int

const (
	verdictSame verdict = iota
	verdictDiffer
	verdictOutside
	// verdictOrder: every differing line holds the same characters in
	// another order, a set printed in its iteration order (the PVM
	// iterates sets in insertion order, CPython in hash order:
	// docs/decisions.md); a candidate for a human look, not a bug.
	verdictOrder
	// verdictRefusedInExample: an example imports a module the PVM does
	// not have (its own import statement fails, CPython's succeeds).
	verdictRefusedInExample
)

// compare decides whether the PVM agrees with CPython. Hitting a
// documented PVM limit (cycles, memory, recursion depth, the int cap)
// where CPython did not is outside the PVM's contract, not a difference.
func compare(py, pv outcome) verdict {
	if py.Stdout == pv.Stdout && pv.Exc == "" {
		return verdictSame
	}
	if pv.Limit || pv.Timeout || pv.Exc == "MemoryError" || pv.Exc == "RecursionError" ||
		pv.Exc == "OverflowError" && strings.Contains(pv.Err, "-bit limit") {
		return verdictOutside
	}
	// A limit inside an example shows as its printed exception type.
	pl, vl := strings.Split(py.Stdout, "\n"), strings.Split(pv.Stdout, "\n")
	for i := 0; i < len(pl) && i < len(vl); i++ {
		if pl[i] != vl[i] {
			switch vl[i] {
			case "! MemoryError", "! RecursionError", "! CAP":
				return verdictOutside
			case "! ImportError", "! ModuleNotFoundError":
				if pv.Exc == "" && i > 0 && strings.HasPrefix(pl[i-1], "#") {
					return verdictRefusedInExample
				}
			}
			break
		}
	}
	if pv.Exc == "" && len(pl) == len(vl) {
		order := true
		for i := range pl {
			if pl[i] != vl[i] && orderHint(pl[i], vl[i]) == "" {
				order = false
				break
			}
		}
		if order {
			return verdictOrder
		}
	}
	return verdictDiffer
}

// firstDifference finds the first example whose output differs: its
// number k (0 for the module's own output before the first example, -1
// when the outputs only differ in length) and a description.
func firstDifference(py, pv string) (int, string) {
	pl, vl := strings.Split(py, "\n"), strings.Split(pv, "\n")
	k := 0
	for i := 0; ; i++ {
		if i >= len(pl) || i >= len(vl) {
			return -1, fmt.Sprintf("the PVM printed %d lines, CPython %d", len(vl), len(pl))
		}
		if pl[i] != vl[i] {
			return k, fmt.Sprintf("example #%d: CPython %q, PVM %q%s", k, clip(pl[i]), clip(vl[i]), orderHint(pl[i], vl[i]))
		}
		if strings.HasPrefix(pl[i], "#") {
			fmt.Sscanf(pl[i], "#%d", &k)
		}
	}
}

// orderHint flags a line pair made of the same characters: most often a
// set printed in its iteration order, which the PVM does not promise to
// share with CPython (docs/decisions.md).
func orderHint(a, b string) string {
	sa, sb := []byte(a), []byte(b)
	sort.Slice(sa, func(i, j int) bool { return sa[i] < sa[j] })
	sort.Slice(sb, func(i, j int) bool { return sb[i] < sb[j] })
	if bytes.Equal(sa, sb) {
		return " (same characters: set order?)"
	}
	return ""
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// runPVM runs prog in a child process (this command with -run-pvm).
func (r *runner) runPVM(prog string, worker int, timeout time.Duration) outcome {
	path := filepath.Join(r.tmp, fmt.Sprintf("w%d_pvm.py", worker))
	if err := os.WriteFile(path, []byte(prog), 0o600); err != nil {
		return outcome{Exc: "<internal>", Err: err.Error()}
	}
	stdout, _, timedOut, err := runWithTimeout(timeout, r.tmp, r.self, "-run-pvm", path, "-cycles", fmt.Sprint(r.cycles))
	if timedOut {
		return outcome{Exc: "<timeout>", Err: fmt.Sprintf("PVM run over %v", timeout), Timeout: true}
	}
	var o outcome
	if jerr := json.Unmarshal(stdout, &o); jerr != nil {
		return outcome{Exc: "<internal>", Err: fmt.Sprintf("PVM child: %v (%v)", err, jerr)}
	}
	o.Stdout = addressRE.ReplaceAllString(o.Stdout, ">")
	return o
}

// runCPython runs prog as a script in a fresh python3, in an empty
// directory, with stdin empty.
func (r *runner) runCPython(prog string, worker int, timeout time.Duration) outcome {
	dir := filepath.Join(r.tmp, fmt.Sprintf("w%d", worker))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return outcome{Exc: "<internal>", Err: err.Error()}
	}
	path := filepath.Join(dir, "prog.py")
	if err := os.WriteFile(path, []byte(prog), 0o600); err != nil {
		return outcome{Exc: "<internal>", Err: err.Error()}
	}
	stdout, stderr, timedOut, err := runWithTimeout(timeout, dir, r.python, "-I", path)
	o := outcome{Stdout: addressRE.ReplaceAllString(string(stdout), ">"), Timeout: timedOut}
	if timedOut {
		o.Exc = "<timeout>"
	} else if err != nil {
		o.Exc, o.Err = "<failed>", lastLine(string(stderr))
		if i := strings.IndexByte(o.Err, ':'); i > 0 {
			o.Exc = o.Err[:i]
		}
	}
	return o
}

// runWithTimeout runs a command with stdin from the null device and kills
// it after timeout.
func runWithTimeout(timeout time.Duration, dir, name string, args ...string) (stdout, stderr []byte, timedOut bool, err error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PYTHONHASHSEED=0", "PYTHONIOENCODING=utf-8")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		return nil, nil, false, fmt.Errorf("start %s: %w", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		timedOut = true
	}
	return out.Bytes(), errb.Bytes(), timedOut, err
}

// minimize shrinks a differing program: first to the module's statements
// and the first differing example k, then by delta debugging over the
// units (pvm/difftest's Minimize), at most -minimize candidate runs. It
// returns the program and what both interpreters printed for it.
func (r *runner) minimize(units []unit, k, worker int) (string, string) {
	runs := 0
	differs := func(us []unit) bool {
		if runs >= r.minimizeRuns {
			return false
		}
		runs++
		prog := join(us)
		py := r.runCPython(prog, worker, r.pyTimeout)
		if py.Exc != "" {
			return false
		}
		return compare(py, r.runPVM(prog, worker, r.pvmTimeout)) == verdictDiffer
	}
	cur := units
	if k > 0 {
		var cut []unit
		for _, u := range units {
			if u.Kind == "module" || strings.HasPrefix(u.Src, fmt.Sprintf("print('#%d')\n", k)) {
				cut = append(cut, u)
			}
		}
		if differs(cut) {
			cur = cut
		}
	}
	srcs := make([]string, len(cur))
	index := map[string]unit{}
	for i, u := range cur {
		srcs[i] = u.Src
		index[u.Src] = u
	}
	kept := difftest.Minimize(srcs, func(s []string) bool {
		us := make([]unit, len(s))
		for i, src := range s {
			us[i] = index[src]
		}
		return differs(us)
	})
	final := make([]unit, len(kept))
	for i, src := range kept {
		final[i] = index[src]
	}
	prog := join(final)
	py := r.runCPython(prog, worker, r.pyTimeout)
	pv := r.runPVM(prog, worker, r.pvmTimeout)
	report := fmt.Sprintf("--- CPython (%s)\n%s--- PVM (%s)\n%s", orNormal(py.Err), py.Stdout, orNormal(pv.Err), pv.Stdout)
	return prog, report
}

func orNormal(s string) string {
	if s == "" {
		return "ended normally"
	}
	return "ended on " + s
}

// writeDiff writes a difference as <path with / as __>.py (the minimized
// program, the report as a comment at its end).
func (r *runner) writeDiff(res *result) error {
	name := strings.ReplaceAll(strings.TrimSuffix(res.path, ".py"), string(filepath.Separator), "__") + ".py"
	var b strings.Builder
	fmt.Fprintf(&b, "# corpus file: %s\n# %s\n\n%s\n", res.path, res.detail, res.minimal)
	for _, l := range strings.Split(strings.TrimRight(res.report, "\n"), "\n") {
		b.WriteString("# " + l + "\n")
	}
	if err := os.WriteFile(filepath.Join(r.out, name), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write difference: %w", err)
	}
	return nil
}

// summarize counts the verdicts, the refused modules and lists the
// differing files.
func summarize(results []*result) string {
	counts := map[string]int{}
	refused := map[string]int{}
	skipped := map[string]int{}
	var differs, outside, order []string
	for _, r := range results {
		counts[r.kind]++
		switch r.kind {
		case "refused":
			refused[r.module]++
		case "skipped":
			reason := r.detail
			if i := strings.Index(reason, ":"); i >= 0 {
				reason = reason[:i]
			}
			skipped[reason]++
		case "differs":
			differs = append(differs, r.path)
		case "outside":
			outside = append(outside, r.path)
		case "order":
			order = append(order, r.path)
		}
	}
	var b strings.Builder
	ran := counts["same"] + counts["differs"] + counts["outside"] + counts["order"]
	fmt.Fprintf(&b, "\n== %d files: %d compared (%d same, %d differ, %d only in set order, %d outside the PVM's limits), %d refused an import, %d skipped\n",
		len(results), ran, counts["same"], counts["differs"], counts["order"], counts["outside"], counts["refused"], counts["skipped"])
	if len(refused) > 0 {
		b.WriteString("refused imports (files):")
		for _, m := range sortedByCount(refused) {
			fmt.Fprintf(&b, " %s %d,", m, refused[m])
		}
		b.WriteString("\n")
	}
	if len(skipped) > 0 {
		b.WriteString("skipped:")
		for _, m := range sortedByCount(skipped) {
			fmt.Fprintf(&b, " %s %d,", m, skipped[m])
		}
		b.WriteString("\n")
	}
	for _, p := range differs {
		fmt.Fprintf(&b, "differs: %s\n", p)
	}
	for _, p := range order {
		fmt.Fprintf(&b, "set order: %s\n", p)
	}
	for _, p := range outside {
		fmt.Fprintf(&b, "outside: %s\n", p)
	}
	return b.String()
}

func sortedByCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
