"""Writes int_ops.txt with CPython: int / int, int ** int, //, %, divmod's
parts and hash() on small and big operands of both signs.

Each line is "a op b result": a and b decimal ints; result a decimal int, a
float in float.hex() form, or the exception's name. An int result past the
PVM's 4096-bit cap is written as OverflowError (the cap is the PVM's rule,
issue 4); powers whose result CPython could not compute in reasonable time
are left out. Run with CPython 3.11: python3 gen_int_ops.py > int_ops.txt
"""
ops = [0, 1, -1, 2, -2, 3, -3, 7, -7, 10, 2**31, 2**53, 2**53 + 1, -(2**53) - 1,
       2**62, 2**63 - 1, -(2**63), 2**63, 2**64 + 5, -(2**70) - 3, 10**30 + 7,
       -(10**30), 3 * 2**1023, -(2**1100), 2**4095]
exps = [-(2**70), -3, -2, -1, 0, 1, 2, 3, 5, 64, 2**64, 2**70 + 1]


def show(v):
    if isinstance(v, float):
        return v.hex()
    if isinstance(v, int) and v.bit_length() > 4096:
        return "OverflowError"
    return str(v)


def run(a, op, b):
    try:
        if op == "/":
            r = a / b
        elif op == "//":
            r = a // b
        elif op == "%":
            r = a % b
        elif op == "**":
            if abs(a) > 1 and b > 0 and (abs(a).bit_length() - 1) * b > 4096:
                return "OverflowError"
            r = a ** b
        elif op == "hash":
            r = hash(a)
    except Exception as e:
        return type(e).__name__
    return show(r)


for a in ops:
    print(a, "hash", 0, run(a, "hash", 0))
    for b in ops:
        for op in ("/", "//", "%"):
            print(a, op, b, run(a, op, b))
    for b in exps:
        print(a, "**", b, run(a, "**", b))
