# Generates float_ops.txt: CPython 3.11's float arithmetic on edge and
# random operands, the reference for TestFloatOpsMatchCPython. Run with
# python3 gen_float_ops.py > float_ops.txt; the output is committed.
import math
import random

ops = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "**": lambda a, b: a ** b,
}

edges = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 2.0, 3.0, -3.0, 7.0, -7.0, 0.1, 1 / 3,
         2.0 ** 53, 2.0 ** 53 + 2, -(2.0 ** 63), 1e308, -1e308, 1.7976931348623157e308,
         2.2250738585072014e-308, 5e-324, -5e-324, 1e-300, 123456.789, -0.75,
         math.inf, -math.inf, math.nan]
rng = random.Random(20)
rand = [rng.uniform(-1e6, 1e6) for _ in range(3)] + [rng.uniform(-4, 4) for _ in range(3)]
operands = edges + rand


def out(v):
    if isinstance(v, float):
        return "nan" if math.isnan(v) else v.hex()
    return str(v)


for a in operands:
    for b in operands:
        for name, f in ops.items():
            if name == "**" and math.isfinite(a) and a < 0 and math.isfinite(b) and b != int(b):
                # CPython's answer is complex (or OverflowError computing it);
                # the PVM has no complex numbers and raises ValueError.
                print(out(a), name, out(b), "ValueError")
                continue
            try:
                r = f(a, b)
            except ZeroDivisionError:
                r = "ZeroDivisionError"
            except OverflowError:
                r = "OverflowError"
            print(out(a), name, out(b), out(r))
