package vm

import (
	"bytes"
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// sliceRun is what one run of a program leaves that anyone can see.
type sliceRun struct {
	cycles, cells uint64
	out, err      string
}

// clearSliceTemps drops the compiler's slice-temporary marks from code and
// the code objects among its constants, so that it runs the plain path.
func clearSliceTemps(code *compile.Code) {
	code.SliceTemps = nil
	for _, c := range code.Consts {
		if inner, ok := c.(*compile.Code); ok {
			clearSliceTemps(inner)
		}
	}
}

func runSliceTemps(t *testing.T, src string, marked bool, cycles uint64) sliceRun {
	t.Helper()
	code, err := compile.File("slice.py", []byte(src))
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if !marked {
		clearSliceTemps(code)
	}
	var out bytes.Buffer
	m := meter.New(meter.Limits{Cycles: cycles, Cells: 1 << 20})
	th := NewThread(Options{Meter: m, Stdout: &out})
	defer th.Release()
	_, err = th.RunModule(code, "__main__")
	r := sliceRun{cycles: m.CyclesUsed(), cells: m.CellsUsed(), out: out.String()}
	if err != nil {
		r.err = th.Uncaught(err).Error()
	}
	return r
}

// TestSliceTempsChargeAlike: `a[s:t] = b[u:v]` through the thread's
// scratch list (Code.SliceTemps) charges exactly what the plain path
// charges (CIP-3 §2.2: a new list of that length), and stops at the same
// point with the same cycles used, under every cycles limit from 1 to the
// program's total.
func TestSliceTempsChargeAlike(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"reversal into a prefix", "p = list(range(12))\nfor k in range(1, 12):\n    p[:k + 1] = p[k::-1]\nprint(p)\n"},
		{"into a dict target (a copy)", "d = {}\nb = [1, 2, 3]\ntry:\n    d[1:2] = b[::-1]\nexcept TypeError as e:\n    print('refused', e)\n"},
		{"nested in the target's bound", "def f():\n    x = [0] * 4\n    x[:] = [9, 8][:]\n    return 1\na = list(range(6))\na[f():] = a[::-1]\nprint(a)\n"},
		{"user __setitem__ keeps the value", "class K:\n    def __setitem__(self, k, v):\n        self.v = v\nk = K()\nb = [1, 2, 3]\nk[0:1] = b[1:]\nb[:] = b[::-1]\nprint(k.v, b)\n"},
		{"in a function, large", "def g(n):\n    a = list(range(n))\n    for i in range(n):\n        a[i:] = a[:i - 1:-1]\n    return a\nprint(g(40)[:5])\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			full := runSliceTemps(t, c.src, true, 1<<40)
			if plain := runSliceTemps(t, c.src, false, 1<<40); full != plain {
				t.Fatalf("unlimited: marked %+v, plain %+v", full, plain)
			}
			if full.err != "" || full.out == "" {
				t.Fatalf("program failed or printed nothing: %+v", full)
			}
			for limit := uint64(1); limit <= full.cycles; limit++ {
				a, b := runSliceTemps(t, c.src, true, limit), runSliceTemps(t, c.src, false, limit)
				if a != b {
					t.Fatalf("cycles limit %d: marked %+v, plain %+v", limit, a, b)
				}
			}
		})
	}
}
