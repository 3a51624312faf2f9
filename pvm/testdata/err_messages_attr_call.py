# AttributeError and call-signature TypeErrors.
import json


def attempt(label, fn):
    try:
        r = fn()
        print(label, "ok", repr(r))
    except Exception as e:
        print(label, type(e).__name__, str(e))


class Wallet:
    limit = 10

    def __init__(self, owner):
        self.owner = owner

    def send(self, to, amount, *, memo=""):
        return (to, amount, memo)

    @property
    def name(self):
        return self.owner


def f(a, b, /, c, *, d):
    return a, b, c, d


def g(x, y=1):
    return x + y


w = Wallet("ann")
attempt("instance attr", lambda: w.balance)
attempt("class attr", lambda: Wallet.nothing)
attempt("int attr", lambda: (5).foo)
attempt("str attr", lambda: "x".push)
attempt("list attr", lambda: [].add)
attempt("dict attr", lambda: {}.append)
attempt("None attr", lambda: None.x)
attempt("module attr", lambda: json.nope)
attempt("set readonly prop", lambda: setattr(w, "name", "bob"))
attempt("set int attr", lambda: setattr(5, "x", 1))
attempt("del missing", lambda: delattr(w, "zzz"))
attempt("too many", lambda: g(1, 2, 3))
attempt("too few", lambda: g())
attempt("bad kw", lambda: g(1, z=2))
attempt("dup kw", lambda: g(1, x=2))
attempt("method few", lambda: w.send("bob"))
attempt("method kwonly", lambda: w.send("bob", 1, "memo"))
attempt("posonly as kw", lambda: f(1, b=2, c=3, d=4))
attempt("missing kwonly", lambda: f(1, 2, 3))
attempt("missing two", lambda: f(1))
attempt("call int", lambda: 5())
attempt("call None", lambda: None())
attempt("call str", lambda: "abc"())
attempt("init args", lambda: Wallet())
attempt("init many", lambda: Wallet(1, 2))
attempt("object args", lambda: object(1))
attempt("len int", lambda: len(5))
attempt("iter int", lambda: iter(5))
attempt("next list", lambda: next([1]))
attempt("getattr default", lambda: getattr(w, "x", "dflt"))
attempt("getattr non-str", lambda: getattr(w, 1))
attempt("isinstance bad", lambda: isinstance(1, 1))
attempt("issubclass bad", lambda: issubclass(1, int))
attempt("lambda args", lambda: (lambda a: a)(1, 2))
attempt("sorted args", lambda: sorted([1], lambda x: x))
