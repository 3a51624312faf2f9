package modules_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm"
	"github.com/cowboy-chain/cowboy/pvm/modules"
	"github.com/cowboy-chain/cowboy/pvm/vm"
)

// run executes src with the standard whitelist and returns what it printed,
// the cycles it used and the last line of an uncaught exception ("" if none).
func run(t *testing.T, src string) (string, uint64, string) {
	t.Helper()
	var out bytes.Buffer
	res, err := pvm.RunFile("t.py", []byte(src), pvm.Config{CyclesLimit: 1 << 32, CellsLimit: 1 << 20, Stdout: &out, Modules: modules.Standard()})
	if err == nil {
		return out.String(), res.CyclesUsed, ""
	}
	var pe *vm.PyError
	if !errors.As(err, &pe) {
		t.Fatalf("run: %v", err)
	}
	return out.String(), res.CyclesUsed, pe.LastLine()
}

// mustRun is run for a program that must not raise.
func mustRun(t *testing.T, src string) (string, uint64) {
	t.Helper()
	out, cycles, exc := run(t, src)
	if exc != "" {
		t.Fatalf("unexpected exception %s\nsource:\n%s", exc, src)
	}
	return out, cycles
}

// raises checks that src ends in an exception whose last traceback line
// starts with want.
func raises(t *testing.T, src, want string) {
	t.Helper()
	_, _, exc := run(t, src)
	if !strings.HasPrefix(exc, want) {
		t.Errorf("source:\n%s\ngot exception %q, want prefix %q", src, exc, want)
	}
}

// variableCost returns the cycles src uses with N replaced by n, minus the
// cycles with N replaced by 0: the part of the cost that depends on n.
func variableCost(t *testing.T, src string, n int) uint64 {
	t.Helper()
	_, c0 := mustRun(t, strings.ReplaceAll(src, "N", "0"))
	_, cn := mustRun(t, strings.ReplaceAll(src, "N", itoa(n)))
	return cn - c0
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// proportional checks that the variable cost of src grows tenfold (within
// 10%) when N grows tenfold.
func proportional(t *testing.T, src string, n int) {
	t.Helper()
	small := variableCost(t, src, n)
	large := variableCost(t, src, 10*n)
	if small == 0 {
		t.Fatalf("no variable cost for N=%d", n)
	}
	ratio := float64(large) / float64(small)
	if ratio < 9 || ratio > 11 {
		t.Errorf("variable cost %d for N=%d, %d for N=%d: ratio %.2f, want about 10\n%s", small, n, large, 10*n, ratio, src)
	}
}
