# Unpacking, iteration and generator errors.
def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", repr(r))
    except Exception as e:
        print(label, type(e).__name__, str(e))


def unpack2(v):
    a, b = v
    return a, b


def unpack_star(v):
    a, *b, c = v
    return a, b, c


attempt("too many", lambda: unpack2([1, 2, 3]))
attempt("too few", lambda: unpack2([1]))
attempt("not iterable", lambda: unpack2(7))
attempt("none", lambda: unpack2(None))
attempt("star few", lambda: unpack_star([1]))
attempt("dict unpack", lambda: unpack2({"a": 1, "b": 2}))
attempt("str unpack", lambda: unpack2("xyz"))
attempt("next exhausted", lambda: next(iter([])))
attempt("next default", lambda: next(iter([]), "d"))
attempt("for over int", lambda: [x for x in 3])
attempt("star list int", lambda: [*5])
attempt("kwargs merge list", lambda: {**[1]})
attempt("kwargs non-str", lambda: dict(**{1: 2}))


def gen():
    yield 1
    raise StopIteration("bad")


attempt("stopiteration in gen", lambda: list(gen()))


def running():
    yield g.send(None)


g = running()
attempt("already running", lambda: next(g))


def simple():
    yield 1


s = simple()
attempt("send non-none first", lambda: s.send(5))
attempt("throw", lambda: simple().throw(ValueError("x")))
attempt("enumerate bad", lambda: enumerate(5))
attempt("zip bad", lambda: zip(1, 2))
attempt("map bad", lambda: list(map(len, [1])))
attempt("reversed bad", lambda: reversed(5))
attempt("sorted key error", lambda: sorted([1, 2], key=lambda x: x["k"]))
attempt("filter none", lambda: list(filter(None, [0, 1, "", "a"])))
attempt("iter sentinel", lambda: list(iter((lambda it: lambda: next(it))(iter([1, 2, 3, 0, 4])), 0)))
