"""Writes float_round.txt with CPython: round(x), round(x, nd) and int(x).

Each line is "x nd result": x in float.hex() form; nd an int, "None" for
round(x) or "int" for int(x); result a float.hex(), a decimal int, or the
exception's name. Run with CPython 3.11: python3 gen_float_round.py > float_round.txt
"""
import random

rng = random.Random(20261128)
xs = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.125, 0.375, 2.675, 1.005,
      123.456, -123.456, 1e22, 1e23, 2.0**52 + 0.5, 2.0**53, 2.0**63, -2.0**63,
      2.0**64, 1e300, -1e300, 5e-324, -5e-324, 2.2250738585072014e-308,
      1.7976931348623157e308, -1.7976931348623157e308, 0.1, 0.05, 0.045,
      5e-5, 9.5, 99.5, 1234.5678, 4.35, 1e-320, float("inf"), float("-inf"), float("nan")]
for _ in range(60):
    m = rng.random() * rng.choice([1, -1])
    xs.append(m * 2.0 ** rng.randint(-1074, 1023))
for _ in range(60):
    xs.append(rng.uniform(-1e6, 1e6))
nds = [None, -400, -309, -308, -307, -300, -22, -5, -2, -1, 0, 1, 2, 3, 5, 15,
       16, 17, 20, 300, 322, 323, 324, 10**20, -10**20]


def show(v):
    if isinstance(v, float):
        return v.hex()
    return str(v)


for x in xs:
    try:
        r = int(x)
    except Exception as e:
        r = type(e).__name__
    print(x.hex(), "int", show(r))
    for nd in nds:
        try:
            r = round(x) if nd is None else round(x, nd)
        except Exception as e:
            r = type(e).__name__
        print(x.hex(), "None" if nd is None else nd, show(r))
