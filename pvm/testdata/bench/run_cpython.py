"""Time the PVM benchmark programs (from pvm/bench_test.go) under CPython.

Usage: python3 pvm/testdata/bench/run_cpython.py
Prints the best of 5 runs per program, the number docs/benchmarks.md
compares `go test ./pvm -bench .` against.
"""
import os
import re
import time

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "..", "..", "bench_test.go")).read()
for name, body in re.findall(r'"(\w+)": `\n(.*?)`,', src, re.S):
    code = compile(body, name + ".py", "exec")
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        exec(code, {"__name__": "__main__"})
        best = min(best, time.perf_counter() - t)
    print(f"{name:14s} {best * 1000:8.2f} ms")
