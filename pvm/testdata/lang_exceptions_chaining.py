# Exception chaining: __cause__, __context__, __suppress_context__, args, notes.
class LedgerError(Exception):
    pass


class NotFound(LedgerError):
    def __init__(self, key):
        super().__init__(f"no entry {key!r}")
        self.key = key


def lookup(d, k):
    try:
        return d[k]
    except KeyError as e:
        raise NotFound(k) from e


def parse(s):
    try:
        return int(s)
    except ValueError:
        raise LedgerError("bad number")


def quiet(s):
    try:
        return int(s)
    except ValueError:
        raise LedgerError("quiet") from None


for fn, arg in [(lambda: lookup({}, "x"), None), (lambda: parse("1x"), None), (lambda: quiet("?"), None)]:
    try:
        fn()
    except LedgerError as e:
        print(type(e).__name__, e, e.args)
        print("  cause:", repr(e.__cause__), "context:", repr(e.__context__), "suppress:", e.__suppress_context__)

try:
    try:
        1 / 0
    except ZeroDivisionError as z:
        raise ValueError("outer") from z
except ValueError as v:
    print(repr(v), repr(v.__cause__), v.__cause__ is v.__context__)

try:
    try:
        raise KeyError("a")
    finally:
        print("finally runs")
except KeyError as k:
    print("KeyError", k, repr(k), str(k))

e = NotFound("z")
print(e.key, str(e), repr(e), isinstance(e, LedgerError), isinstance(e, Exception), issubclass(NotFound, LookupError))
print(LedgerError("a", 1).args, str(LedgerError()), repr(LedgerError()), str(LedgerError("a", 1)))
err = None
try:
    raise RuntimeError("boom")
except RuntimeError as err2:
    err = err2
print(repr(err), type(err).__mro__[1].__name__)
try:
    err2
except NameError as ne:
    print("NameError:", ne)


def reraiser():
    try:
        raise TypeError("inner")
    except TypeError:
        raise


try:
    reraiser()
except TypeError as t:
    print("reraised", t)
try:
    raise ValueError
except ValueError as v:
    print(repr(v), v.args)
