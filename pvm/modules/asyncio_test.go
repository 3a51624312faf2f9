package modules_test

import (
	"strings"
	"testing"
)

// TestAsyncRefusals checks what the PVM refuses of async/await (CIP-3
// §2.2: single-threaded, FIFO, no concurrency primitives; docs/decisions.md,
// "async/await"), each with an error that names what is refused. The
// accepted forms are checked against CPython by the async_*.py
// conformance programs in pvm/testdata.
func TestAsyncRefusals(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"import asyncio\nasync def f(): return 1\nasyncio.gather(f(), f())\n", "NotImplementedError: PVM: asyncio.gather is refused: CIP-3 §2.2"},
		{"import asyncio\nasync def f(): return 1\nasyncio.create_task(f())\n", "NotImplementedError: PVM: asyncio.create_task is refused"},
		{"import asyncio\nasyncio.get_event_loop()\n", "NotImplementedError: PVM: asyncio.get_event_loop is refused"},
		{"import asyncio\nasyncio.Lock()\n", "NotImplementedError: PVM: asyncio.Lock is refused"},
		{"import asyncio\nasync def f(): await asyncio.sleep(1)\nasyncio.run(f())\n", "NotImplementedError: PVM: asyncio.sleep() with a delay > 0 is refused: a contract call has no clock"},
		{"import asyncio\nasync def f(): await asyncio.wait_for(asyncio.sleep(0), 1)\nasyncio.run(f())\n", "NotImplementedError: PVM: asyncio.wait_for is refused"},
		{"async def f():\n    yield 1\n", "SyntaxError: PVM: asynchronous generators (yield inside async def) are not supported"},
		{"async def f(y):\n    return (await x for x in y)\n", "SyntaxError: PVM: asynchronous generator expressions"},
		{"async def f(y):\n    return [x async for x in y]\n", "SyntaxError: PVM: asynchronous comprehensions (async for in a comprehension) are not supported"},
		{"def f():\n    await x\n", "SyntaxError: 'await' outside async function"},
		{"await x\n", "SyntaxError: 'await' outside function"},
		{"def f():\n    async for x in y: pass\n", "SyntaxError: 'async for' outside async function"},
		{"def f():\n    async with x: pass\n", "SyntaxError: 'async with' outside async function"},
	} {
		raises(t, c.src, c.want)
	}
}

// TestAsyncDeterministic runs a program with many interleaved awaits twice:
// the same output and the same cycles, and a bare yield at the bottom of a
// chain costs cycles like any other step.
func TestAsyncDeterministic(t *testing.T) {
	src := `import asyncio
async def leaf(i):
    await asyncio.sleep(0)
    return i * i
async def node(n):
    return sum([await leaf(i) for i in range(n)])
async def main():
    out = []
    for n in range(N):
        out.append(await node(n % 4))
    return out
print(asyncio.run(main()))
`
	s := strings.ReplaceAll(src, "N", "30")
	out1, c1 := mustRun(t, s)
	out2, c2 := mustRun(t, s)
	if out1 != out2 || c1 != c2 {
		t.Fatalf("runs differ: %q/%d vs %q/%d", out1, c1, out2, c2)
	}
	if !strings.HasPrefix(out1, "[0, 0, 1, 5, 0, 0, 1, 5,") {
		t.Errorf("got %q", out1)
	}
	proportional(t, src, 60)
}
