package pvm

import (
	"io"
	"testing"
)

// Benchmark programs; the same sources are timed under python3 for
// docs/benchmarks.md.
var benchPrograms = map[string]string{
	"fib25": `
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
fib(25)
`,
	"arith_loop": `
s = 0
i = 0
while i < 1000000:
    s = s + i * 2 % 7
    i += 1
`,
	"dict_heavy": `
d = {}
for i in range(200000):
    d[i % 5000] = d.get(i % 5000, 0) + i
total = 0
for k in d:
    total += d[k]
`,
	"list_sort": `
xs = [(i * 7919) % 100003 for i in range(100000)]
xs.sort()
ys = sorted(xs, reverse=True)
`,
	"string_join": `
parts = []
for i in range(100000):
    parts.append(str(i))
s = ",".join(parts)
n = len(s.split(","))
`,
	"method_calls": `
class Counter:
    def __init__(self):
        self.n = 0
    def inc(self, k):
        self.n += k
        return self.n
c = Counter()
for i in range(300000):
    c.inc(1)
`,
}

func runBench(b *testing.B, name string) {
	src := []byte(benchPrograms[name])
	b.ReportAllocs()
	var cycles uint64
	for i := 0; i < b.N; i++ {
		r, err := RunFile(name+".py", src, Config{CyclesLimit: 1 << 40, CellsLimit: 1 << 20, MemoryLimit: 1 << 30, Stdout: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		cycles = r.CyclesUsed
	}
	b.ReportMetric(float64(cycles), "cycles/op")
}

func BenchmarkFib25(b *testing.B)       { runBench(b, "fib25") }
func BenchmarkArithLoop(b *testing.B)   { runBench(b, "arith_loop") }
func BenchmarkDictHeavy(b *testing.B)   { runBench(b, "dict_heavy") }
func BenchmarkListSort(b *testing.B)    { runBench(b, "list_sort") }
func BenchmarkStringJoin(b *testing.B)  { runBench(b, "string_join") }
func BenchmarkMethodCalls(b *testing.B) { runBench(b, "method_calls") }
