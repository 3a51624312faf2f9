# A def's annotations are evaluated when the def runs, after its
# defaults, in the enclosing scope, into __annotations__ (CPython 3.11
# without `from __future__ import annotations`); __defaults__ and
# __kwdefaults__ are the values the def computed.
log = []


def t(x):
    log.append(x)
    return x


def f(a: t('a'), /, b: t('b') = t('bd'), *c: t('c'), d: t('d') = t('dd'), e: t('e'), **g: t('g')) -> t('r'):
    pass


print(log)
# The positional parameters come before the positional-only ones.
print(f.__annotations__)
print(f.__defaults__, f.__kwdefaults__)


def plain(x, y=1, *, z):
    pass


print(plain.__annotations__, plain.__defaults__, plain.__kwdefaults__)


def h():
    pass


# The empty dict is made on first access and kept.
ann = h.__annotations__
ann["z"] = 1
print(h.__annotations__, h.__annotations__ is ann)
try:
    h.__annotations__ = 5
except TypeError as e:
    print("TypeError", e)
h.__annotations__ = {"q": 2}
print(h.__annotations__)
print((lambda x: x).__annotations__, (lambda x=1: x).__defaults__)

# Annotations are evaluated: an undefined name is a NameError when the
# def runs (and the def's name stays unbound).
try:
    def bad(x: undefined_name):
        pass
except NameError as e:
    print("NameError", e)
try:
    bad
except NameError as e:
    print("NameError", e)


# Private parameter names are mangled in the keys; 'return' is not.
class C:
    T = int

    def m(self, __p: T, *, __k: "K" = 1) -> "C":
        pass

    def n(self, x: list[T], y: dict[str, T] | None = None) -> None:
        pass


print(C.m.__annotations__)
print(C.n.__annotations__)
print(C.m.__kwdefaults__, C.n.__defaults__)


def outer():
    Local = str

    def inner(v: Local) -> Local:
        return v

    return inner


print(outer().__annotations__)


async def co(x: int) -> str:
    pass


def gen(x: "list[int]") -> None:
    yield


print(co.__annotations__, gen.__annotations__)


# The annotation dict belongs to the function: changing it changes what
# the next read sees, and a decorator sees the annotations.
def typed(fn):
    fn.__annotations__["seen"] = True
    return fn


@typed
def dec(a: int = 3) -> bool:
    return True


print(dec.__annotations__, dec.__defaults__)
