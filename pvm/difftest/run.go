package difftest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/meter"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// Outcome is what one implementation did with a program: its stdout and,
// when it ended on an uncaught exception, that exception's type name.
type Outcome struct {
	Stdout string
	Exc    string
}

// driver runs programs in one long-lived CPython process: starting python3
// per program would cost more than running the program. Each program runs
// with fresh globals and a fresh decimal context, the only module state a
// generated program can change.
const driver = `import sys, io, json, decimal
inp, out, real = sys.stdin.buffer, sys.stdout.buffer, sys.stdout
while True:
    line = inp.readline()
    if not line:
        break
    src = inp.read(int(line)).decode('utf-8')
    buf = io.StringIO()
    exc = ''
    decimal.setcontext(decimal.Context())
    sys.stdout = buf
    try:
        exec(compile(src, 'prog.py', 'exec'), {'__name__': '__main__'})
    except BaseException as e:
        exc = type(e).__name__
    finally:
        sys.stdout = real
    res = json.dumps({'out': buf.getvalue(), 'exc': exc}, ensure_ascii=True).encode()
    out.write(b'%d\n' % len(res))
    out.write(res)
    out.flush()
`

// CPython is a python3 process that runs programs on request. It is not
// safe for concurrent use; give each worker its own.
type CPython struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	script string
}

// ErrNoPython means python3 is not on PATH.
var ErrNoPython = errors.New("difftest: python3 not found on PATH")

// StartCPython starts the reference interpreter.
func StartCPython() (*CPython, error) {
	path, err := exec.LookPath("python3")
	if err != nil {
		return nil, ErrNoPython
	}
	dir, err := os.MkdirTemp("", "difftest")
	if err != nil {
		return nil, fmt.Errorf("difftest: temp dir: %w", err)
	}
	script := filepath.Join(dir, "driver.py")
	if err := os.WriteFile(script, []byte(driver), 0o600); err != nil {
		return nil, fmt.Errorf("difftest: write driver: %w", err)
	}
	cmd := exec.Command(path, "-I", script)
	cmd.Env = append(os.Environ(), "PYTHONHASHSEED=0", "PYTHONIOENCODING=utf-8")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("difftest: python3 stdin: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("difftest: python3 stdout: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("difftest: start python3: %w", err)
	}
	return &CPython{cmd: cmd, stdin: stdin, stdout: bufio.NewReader(stdout), script: dir}, nil
}

// Close stops the process.
func (p *CPython) Close() {
	p.stdin.Close()
	p.cmd.Wait()
	os.RemoveAll(p.script)
}

// Run runs src and returns what CPython printed. A program that does not
// answer within timeout (when positive) kills the process (an error;
// start a new one).
func (p *CPython) Run(src string, timeout time.Duration) (Outcome, error) {
	if _, err := fmt.Fprintf(p.stdin, "%d\n%s", len(src), src); err != nil {
		return Outcome{}, fmt.Errorf("difftest: send program: %w", err)
	}
	if timeout > 0 {
		timer := time.AfterFunc(timeout, func() { p.cmd.Process.Kill() })
		defer timer.Stop()
	}
	line, err := p.stdout.ReadString('\n')
	if err != nil {
		return Outcome{}, fmt.Errorf("difftest: python3 answer (timeout %v?): %w", timeout, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return Outcome{}, fmt.Errorf("difftest: python3 answer length %q: %w", line, err)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(p.stdout, buf); err != nil {
		return Outcome{}, fmt.Errorf("difftest: python3 answer: %w", err)
	}
	var r struct{ Out, Exc string }
	if err := json.Unmarshal(buf, &r); err != nil {
		return Outcome{}, fmt.Errorf("difftest: python3 answer: %w", err)
	}
	return Outcome{Stdout: r.Out, Exc: r.Exc}, nil
}

// RunPVM runs src in the PVM as `cowboy pvm run` does, with generous
// limits: conformance is about semantics, not limits. Limit errors come
// back as the exception names "<cycles>" etc., which never match CPython.
func RunPVM(src string) Outcome {
	var out bytes.Buffer
	_, err := pvm.RunFile("prog.py", []byte(src), pvm.Config{
		CyclesLimit: 2_000_000_000, CellsLimit: 1 << 20, Stdout: &out, Modules: modules.Standard(),
	})
	o := Outcome{Stdout: out.String()}
	if err != nil {
		var pe *vm.PyError
		var le *meter.LimitError
		switch {
		case errors.As(err, &pe):
			o.Exc = pe.Exc.Class.Name
		case errors.As(err, &le):
			o.Exc = "<" + err.Error() + ">"
		default:
			o.Exc = "<internal: " + err.Error() + ">"
		}
	}
	return o
}

// Verdict classifies a pair of outcomes.
type Verdict int

const (
	// Same: identical stdout and exception.
	Same Verdict = iota
	// Differ: a difference inside the PVM's contract, a bug.
	Differ
	// Outside: the PVM hit one of its documented limits (the 4096-bit int
	// cap, memory, recursion depth, cycles) where CPython did not; not a
	// conformance question.
	Outside
)

// Compare decides whether py and pv agree.
func Compare(py, pv Outcome) Verdict {
	if py == pv {
		return Same
	}
	for _, mark := range []string{"! CAP\n", "! MemoryError\n", "! RecursionError\n"} {
		if strings.Contains(pv.Stdout, mark) && !strings.Contains(py.Stdout, mark) {
			return Outside
		}
	}
	switch {
	case pv.Exc == "MemoryError" || pv.Exc == "RecursionError" || strings.HasPrefix(pv.Exc, "<out of"):
		if py.Exc != pv.Exc {
			return Outside
		}
	}
	return Differ
}

// Minimize removes units from a differing program while it keeps
// differing (ddmin over units, then one unit at a time), and returns the
// smallest unit list found. check runs both sides.
func Minimize(units []string, differs func([]string) bool) []string {
	cur := append([]string(nil), units...)
	n := 2
	for len(cur) >= 2 {
		chunk := (len(cur) + n - 1) / n
		reduced := false
		for start := 0; start < len(cur); start += chunk {
			end := start + chunk
			if end > len(cur) {
				end = len(cur)
			}
			// Try the complement of this chunk.
			cand := append(append([]string(nil), cur[:start]...), cur[end:]...)
			if len(cand) > 0 && differs(cand) {
				cur = cand
				if n > 2 {
					n--
				}
				reduced = true
				break
			}
		}
		if !reduced {
			if n >= len(cur) {
				break
			}
			n *= 2
			if n > len(cur) {
				n = len(cur)
			}
		}
	}
	return cur
}
