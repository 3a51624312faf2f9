package pvm

import (
	"bytes"
	"strings"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/modules"
)

// TestJoinKeepsLimitErrors: running out of cycles or memory inside the
// __iter__ that str.join and bytes.join call must end the call, not turn
// into the TypeError "can only join an iterable" that Python code could
// catch and carry on after.
func TestJoinKeepsLimitErrors(t *testing.T) {
	cases := []struct {
		name, iter, want string
	}{
		{"str cycles", "while True:\n            pass", "cycles"},
		{"bytes cycles", "while True:\n            pass", "cycles"},
		{"str memory", "x = []\n        while True:\n            x.append('a' * 4096)", "MemoryError"},
	}
	for _, c := range cases {
		sep := "''"
		if strings.HasPrefix(c.name, "bytes") {
			sep = "b''"
		}
		src := "class A:\n    def __iter__(self):\n        " + c.iter + "\n" +
			"try:\n    " + sep + ".join(A())\nexcept TypeError:\n    print('caught')\nprint('after')\n"
		var out bytes.Buffer
		_, err := RunFile("join.py", []byte(src), Config{CyclesLimit: 2_000_000, CellsLimit: 1 << 20, MemoryLimit: 1 << 20, Stdout: &out, Modules: modules.Standard()})
		if err == nil || out.Len() != 0 {
			t.Errorf("%s: printed %q, error %v; want no output and an error naming %q", c.name, out.String(), err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one naming %q", c.name, err, c.want)
		}
	}
}
