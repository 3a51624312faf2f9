# ZeroDivisionError, OverflowError, TypeError and ValueError from numbers.
import math


def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", repr(r))
    except Exception as e:
        print(label, type(e).__name__, str(e))


attempt("int / 0", lambda: 1 / 0)
attempt("int // 0", lambda: 1 // 0)
attempt("int % 0", lambda: 1 % 0)
attempt("divmod 0", lambda: divmod(1, 0))
attempt("float / 0", lambda: 1.0 / 0)
attempt("float // 0", lambda: 1.0 // 0.0)
attempt("float % 0", lambda: 1.5 % 0)
attempt("0 ** -1", lambda: 0 ** -1)
attempt("0.0 ** -1", lambda: 0.0 ** -1)
attempt("pow mod 0", lambda: pow(2, 3, 0))
attempt("float overflow", lambda: 10.0 ** 400)
attempt("int to float", lambda: float(10 ** 400))
attempt("int / big", lambda: 10 ** 400 / 3)
attempt("exp float", lambda: 2.0 ** 10000)
attempt("neg shift", lambda: 1 >> -1)
attempt("round inf", lambda: round(float("inf")))
attempt("round nan", lambda: round(float("nan")))
attempt("int + None", lambda: 1 + None)
attempt("None + int", lambda: None + 1)
attempt("float & int", lambda: 1.5 & 1)
attempt("~float", lambda: ~1.5)
attempt("-str", lambda: -"x")
attempt("int < str", lambda: 1 < "1")
attempt("abs str", lambda: abs("x"))
attempt("pow 3 floats", lambda: pow(2.0, 3, 5))
attempt("int(list)", lambda: int([1]))
attempt("float(list)", lambda: float([1]))
attempt("divmod str", lambda: divmod("a", 2))
attempt("hex float", lambda: hex(1.5))
attempt("bin str", lambda: bin("1"))
attempt("round ndigits str", lambda: round(1.5, "1"))
attempt("sqrt neg", lambda: math.sqrt(-1))
attempt("log 0", lambda: math.log(0))
attempt("factorial neg", lambda: math.factorial(-1))
attempt("isqrt neg", lambda: math.isqrt(-4))
attempt("true div ok", lambda: 7 / 2)
attempt("bool arith", lambda: True * 3 + False)
