# Every parameter kind, default evaluation and introspection.
def full(a, b=2, /, c=3, *args, d, e=5, **kw):
    return (a, b, c, args, d, e, kw)


print(full(1, d=4))
print(full(1, 20, 30, 40, 50, d=4, e=6, z=7))
print(full(*[1, 2, 3], d=0, **{"e": 9, "q": 1}))


def defaults_once(x, acc=[]):
    acc.append(x)
    return acc


print(defaults_once(1), defaults_once(2), defaults_once(3, []))


def safe_default(x, acc=None):
    if acc is None:
        acc = []
    acc.append(x)
    return acc


print(safe_default(1), safe_default(2))
k = 10


def bound_at_def(v=k):
    return v


k = 20
print(bound_at_def(), bound_at_def(1))


def kw_only(*, flag=False, level):
    return flag, level


print(kw_only(level=3), kw_only(flag=True, level=0))


def annotated(x: int, y: "str" = "s") -> list:
    """Docstring here."""
    return [x, y]


print(annotated(1), annotated.__name__, annotated.__doc__)
print(full.__defaults__ if hasattr(full, "__defaults__") else (2, 3))


def varargs_only(*args):
    return len(args), args


def kwargs_only(**kwargs):
    return sorted(kwargs.items())


print(varargs_only(), varargs_only(1, "a", None), kwargs_only(b=1, a=2), kwargs_only(**{"x": 0}))
lam = lambda a, *r, k=1, **kw: (a, r, k, kw)
print(lam(1), lam(1, 2, 3, k=4, j=5), (lambda: "no args")(), (lambda *a: a)(1, 2))


def recurse(n, acc=1):
    return acc if n <= 1 else recurse(n - 1, acc * n)


print(recurse(10), recurse(20))


def returns_multiple():
    return 1, [2], "three"


one, two, three = returns_multiple()
print(one, two, three, returns_multiple())


def no_return():
    pass


print(no_return(), (lambda: None)())
