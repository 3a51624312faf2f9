# Decorators: stacking order, arguments, class decorators, methods.
import functools

log = []


def trace(tag):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            log.append(f"{tag}>{fn.__name__}")
            r = fn(*args, **kwargs)
            log.append(f"{tag}<{fn.__name__}")
            return r
        return wrapper
    return deco


@trace("a")
@trace("b")
def work(x):
    log.append(f"work {x}")
    return x * 2


print(work(21))
print(log)


def count_calls(fn):
    def w(*a):
        w.calls += 1
        return fn(*a)
    w.calls = 0
    return w


@count_calls
def f(x):
    return x + 1


f(1), f(2), f(3)
print(f.calls)

registry = {}


def register(cls):
    registry[cls.__name__.lower()] = cls
    cls.registered = True
    return cls


@register
class Transfer:
    pass


@register
class Mint:
    pass


print(sorted(registry), Transfer.registered)


def validate(**types):
    def deco(fn):
        def w(**kw):
            for k, t in types.items():
                if not isinstance(kw.get(k), t):
                    raise TypeError(f"{k} must be {t.__name__}")
            return fn(**kw)
        return w
    return deco


@validate(amount=int, to=str)
def send(amount, to):
    return f"sent {amount} to {to}"


print(send(amount=5, to="bob"))
try:
    send(amount="5", to="bob")
except TypeError as e:
    print(e)


class Svc:
    def __init__(self):
        self.n = 0

    @trace("m")
    def bump(self, k):
        self.n += k
        return self.n


s = Svc()
print(s.bump(3), s.bump(4), log[-2:])
deco_of_lambda = (lambda fn: lambda *a: fn(*a) * 10)


@deco_of_lambda
def g(a, b):
    return a + b


print(g(1, 2))
