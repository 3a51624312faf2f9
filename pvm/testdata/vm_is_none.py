# `is None`, slice bounds of None, __init__'s None result, generator start
# with None and instances whose __hash__ is None: the interpreter tests
# for None by type (object.IsNone) on these paths, and must answer as
# CPython does for every kind of value, falsy or not.


class Eq:
    # An __eq__ that claims equality with everything: `is` ignores it.
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class Falsy:
    def __bool__(self):
        return False


def gen():
    got = yield 1
    yield got


values = [None, 0, 0.0, False, True, "", b"", (), [], {}, set(), Eq(), Falsy(), gen, print]
for v in values:
    print(type(v).__name__, v is None, v is not None, None is v, not (v is None))

x = None
y = x
print(x is y, y is None, [None][0] is None, (None,)[0] is not None)

# Slices whose bounds are None, given in every position and as variables.
s = list(range(10))
n = None
print(s[None:None], s[n:3], s[3:n], s[::n], s[n:n:-1], s[None:None:2])
print("abcdef"[None:n:-2], (1, 2, 3)[n:n])
t = list(s)
t[n:2] = ["a"]
t[8:None] = ["z"]
print(t)
print(slice(None).indices(5), slice(1, None, None).indices(5), slice(None, None, -1).indices(5))


class Good:
    def __init__(self):
        return None


class Bad:
    def __init__(self):
        return 0


class BadFalse:
    def __init__(self):
        return False


print(type(Good()).__name__)
for k in (Bad, BadFalse):
    try:
        k()
    except TypeError as e:
        print("TypeError", e)

g = gen()
print(g.send(None), g.send("sent"))
g = gen()
try:
    g.send(0)
except TypeError as e:
    print("TypeError", e)
g = gen()
try:
    g.send(False)
except TypeError as e:
    print("TypeError", e)


class NoHash:
    __hash__ = None


class ZeroHash:
    def __hash__(self):
        return 0


try:
    hash(NoHash())
except TypeError as e:
    print("TypeError", e)
print(hash(ZeroHash()), {ZeroHash(): 1} != {})
