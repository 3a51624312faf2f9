# Argument errors name the callee as CPython 3.11 does: *x that is not
# iterable, **x that is not a mapping, keywords to positional-only builtins.
def f(*a, **k): pass
class X: pass
for src in [lambda: print(*5), lambda: dict(**[1]), lambda: len(obj=[1]), lambda: f(*None), lambda: f(**None), lambda: f(**{1: 2}), lambda: X(*1), lambda: [].append(*3), lambda: f(1, *2), lambda: f(a=1, **3), lambda: abs(x=1), lambda: len([], x=1), lambda: sorted(*1)]:
    try:
        src()
    except TypeError as e:
        print(e)
class C:
    def m(self, *a, **k): pass
    @staticmethod
    def s(*a): pass
def g():
    yield 1
    raise TypeError("inner")
for src in [lambda: C().m(*1), lambda: C.s(*1), lambda: C().m(**1), lambda: f(*g()), lambda: [*5], lambda: {**[1]}, lambda: f(**{'a': 1}, **{'a': 2}), lambda: f(a=1, **{'a': 2}), lambda: zip(*1), lambda: (lambda *a: 0)(*1), lambda: dict(*1), lambda: hasattr(obj=1, name='x'), lambda: isinstance(1, int, x=1), lambda: print(**{1: 2}), lambda: max(*1), lambda: "".join(*1), lambda: {}.update(**1)]:
    try:
        src()
    except TypeError as e:
        print(e)
