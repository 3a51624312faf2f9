package vm

import (
	"testing"

	"github.com/cowboy-chain/cowboy/pvm/compile"
	"github.com/cowboy-chain/cowboy/pvm/meter"
)

// heapThread runs src as a module under a 1 TiB memory limit (so it never
// walks) and returns the thread with the module's globals as a root.
func heapThread(tb testing.TB, src string) *Thread {
	tb.Helper()
	code, err := compile.File("h.py", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	th := NewThread(Options{Meter: meter.New(meter.Limits{Cycles: 1 << 50, MemoryLimit: 1 << 40})})
	m, err := th.RunModule(code, "__main__")
	if err != nil {
		tb.Fatal(err)
	}
	th.AddRoot(m)
	return th
}

// TestHeapWalkSizes pins the model sizes the walk adds up, object by
// object, and that shared objects count once.
func TestHeapWalkSizes(t *testing.T) {
	base := heapThread(t, "")
	b0, err := base.measureHeap()
	if err != nil {
		t.Fatal(err)
	}
	entry := meter.SizeDictEntry
	cases := []struct {
		src  string
		want uint64 // bytes above the empty module, not counting the globals' entries
	}{
		{"x = 'abc'", meter.SizeStrHeader + 3},
		{"x = 'abc' * 10\ny = x", meter.SizeStrHeader + 30},
		{"x = [1, 2, 3]", meter.SizeListHeader + 3*meter.SizePointer},
		{"s = 'q' * 100\nx = [s, s, s]", meter.SizeListHeader + 3*meter.SizePointer + meter.SizeStrHeader + 100},
		{"x = (1, 2)", meter.SizeTupleHeader + 2*meter.SizePointer},
		{"x = ()\ny = ''", 0},
		{"x = {1: 2, 3: 4}", meter.SizeDictHeader + 2*meter.SizeDictEntry},
		{"x = {1, 2, 3}", meter.SizeDictHeader + 3*meter.SizeSetEntry},
		{"x = 2 ** 100", meter.SizeIntHeader + 4*4},
		{"x = 1.5\ny = 7\nz = None", 0},
		{"x = []\nx.append(x)", meter.SizeListHeader + meter.SizePointer},
	}
	for _, c := range cases {
		th := heapThread(t, c.src)
		got, err := th.measureHeap()
		if err != nil {
			t.Fatal(err)
		}
		names := 0
		for _, line := range splitLines(c.src) {
			if len(line) > 2 && line[1] == ' ' && line[2] == '=' {
				names++
			}
		}
		want := b0 + c.want + uint64(names)*entry
		if got != want {
			t.Errorf("%q: walk counted %d bytes, want %d", c.src, got, want)
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}

// TestHeapWalkDeterministic: the same heap measured twice, and built twice,
// gives the same bytes and the same cycles.
func TestHeapWalkDeterministic(t *testing.T) {
	src := "class P:\n    def __init__(self, i):\n        self.i = i\n        self.s = str(i)\nd = {i: P(i) for i in range(300)}\nl = [d, set(range(50)), (d,), frozenset('abc')]\ng = (x for x in l)\n"
	var bytes0, cycles0 uint64
	for i := 0; i < 3; i++ {
		th := heapThread(t, src)
		before := th.meter.Left
		got, err := th.measureHeap()
		if err != nil {
			t.Fatal(err)
		}
		cyc := before - th.meter.Left
		if i == 0 {
			bytes0, cycles0 = got, cyc
			continue
		}
		if got != bytes0 || cyc != cycles0 {
			t.Fatalf("run %d: %d bytes %d cycles, first %d bytes %d cycles", i, got, cyc, bytes0, cycles0)
		}
	}
}

// BenchmarkHeapWalk measures the walk per object so its cycle price
// (meter.CostHeapWalkPerObject, CostHeapWalkPerRef) can be held to the
// interpreter's time per cycle: it reports ns per charged cycle.
func BenchmarkHeapWalk(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"tuples", "keep = [(i, i + 1) for i in range(160000)]"},
		{"instances", "class P:\n    def __init__(self, i):\n        self.i = i\nkeep = [P(i) for i in range(50000)]"},
		{"strs", "keep = [str(i) for i in range(160000)]"},
		{"ints", "keep = [i for i in range(1000000)]"},
	} {
		b.Run(c.name, func(b *testing.B) {
			th := heapThread(b, c.src)
			var cycles uint64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				before := th.meter.Left
				if _, err := th.measureHeap(); err != nil {
					b.Fatal(err)
				}
				cycles += before - th.meter.Left
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(cycles), "ns/cycle")
			b.ReportMetric(float64(cycles)/float64(b.N), "cycles/walk")
		})
	}
}

// BenchmarkInterpCycle is the reference for BenchmarkHeapWalk: the
// interpreter's ns per cycle on a loop of method calls, attribute and list
// work, run in the same session.
func BenchmarkInterpCycle(b *testing.B) {
	code, err := compile.File("i.py", []byte("class C:\n    def __init__(self):\n        self.n = 0\n    def inc(self, k):\n        self.n += k\nc = C()\nl = []\nfor i in range(100000):\n    c.inc(i % 7)\n    l.append((i, c.n))\n"))
	if err != nil {
		b.Fatal(err)
	}
	var cycles uint64
	for i := 0; i < b.N; i++ {
		th := NewThread(Options{Meter: meter.New(meter.Limits{Cycles: 1 << 50, MemoryLimit: 1 << 40})})
		if _, err := th.RunModule(code, "__main__"); err != nil {
			b.Fatal(err)
		}
		cycles += th.meter.CyclesUsed()
		th.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(cycles), "ns/cycle")
}
