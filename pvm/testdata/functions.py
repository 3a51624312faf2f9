def add(a, b=10, *args, c=5, **kw):
    return a + b + c + sum(args) + sum(kw.values())
print(add(1), add(1, 2), add(1, 2, 3, 4), add(1, c=1), add(1, 2, 3, x=100))
def pos_only(a, b, /, c):
    return (a, b, c)
print(pos_only(1, 2, 3), pos_only(1, 2, c=3))
def kw_only(*, key, value=None):
    return f"{key}={value}"
print(kw_only(key="k"), kw_only(value=1, key=2))
def varargs(*args, **kwargs):
    return args, kwargs
print(varargs(), varargs(1, 2, a=3), varargs(*[1, 2], **{"x": 1}))
args = (1, 2)
print(add(*args), add(*args, 3, *[4]), add(**{"a": 1, "b": 2}))
square = lambda x: x * x
print(square(5), (lambda *a: a)(1, 2), list(map(lambda x: x + 1, [1, 2])))
def rec(n):
    return 1 if n <= 1 else n * rec(n - 1)
print(rec(10), rec(20))
def doc():
    """docstring here"""
    return doc.__doc__
print(doc(), doc.__name__)
def defaults(x=[]):
    x.append(1)
    return x
print(defaults(), defaults(), defaults([0]))
def no_return():
    pass
print(no_return())
def multi():
    return 1, 2, 3
a, b, c = multi()
print(a, b, c, multi())
f = add
print(f(1, 1), callable(f), callable(3))
