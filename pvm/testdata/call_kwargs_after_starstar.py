# A keyword given both by **m and as k=v after it is CPython's
# "got multiple values for keyword argument", whichever comes first.
def f(**kw):
    return kw


def g(a=0, b=0):
    return a, b


class C:
    def m(self, **kw):
        return kw


class D:
    def __init__(self, **kw):
        self.kw = kw


calls = [
    lambda: f(**{'a': 1}, a=2),
    lambda: f(a=2, **{'a': 1}),
    lambda: f(**{'a': 1}, **{'a': 2}),
    lambda: g(**{'a': 1}, a=2),
    lambda: C().m(**{'x': 1}, x=3),
    lambda: print(**{'sep': 1}, sep=2),
    lambda: dict(**{'a': 1}, a=2),
    lambda: f(b=1, **{'a': 1}, a=2),
    lambda: f(*[], **{'a': 1}, a=2),
    lambda: D(**{'a': 1}, a=2),
    lambda: f(**{'a': 1}, b=2),
    lambda: f(**{'a': 1}, b=2, **{'c': 3}, d=4),
    lambda: g(*[1], **{'b': 2}),
    lambda: D(**{'a': 1}, z=2).kw,
    lambda: dict(**{'a': 1}, b=2),
]
for call in calls:
    try:
        print(call())
    except TypeError as e:
        print('TypeError', e)
