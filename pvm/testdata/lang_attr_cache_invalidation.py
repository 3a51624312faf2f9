# Attribute and method lookups at one call site must follow every change
# to the classes and instances they read (the interpreter caches them).


class A:
    kind = "A"

    def __init__(self, x):
        self.x = x

    def get(self):
        return self.x

    def name(self):
        return "A.name"


class B(A):
    def name(self):
        return "B.name"


def read(o):
    return o.x


def write(o, v):
    o.x = v


def call(o):
    return o.name()


def kind(o):
    return o.kind


objs = [A(1), B(2), A(3)]
for _ in range(3):
    print([read(o) for o in objs], [call(o) for o in objs], [kind(o) for o in objs])

# An instance attribute shadows a method at a warm site.
a = objs[0]
a.name = lambda: "instance attr"
print(call(a), call(objs[2]))
del a.name
print(call(a))

# A method replaced on the class, and on a base class.
A.name = lambda self: "A.name v2"
print([call(o) for o in objs])
del B.name
print([call(o) for o in objs])

# A class attribute becomes a property: the instance dict no longer answers.
print(read(objs[1]))
A.x = property(lambda self: "prop:" + str(self.__dict__["x"]))
print([read(o) for o in objs])
try:
    write(objs[0], 10)
except AttributeError:
    print("AttributeError: no setter")
del A.x
print([read(o) for o in objs])
write(objs[0], 11)
print(read(objs[0]))

# A __setattr__ added to a warm class is honoured by a warm store site.
log = []


def spy(self, name, value):
    log.append((name, value))
    object.__setattr__(self, name, value)


for i in range(3):
    write(objs[2], i)
B.__setattr__ = spy
write(objs[1], 20)
write(objs[2], 30)
print(log, read(objs[1]), read(objs[2]))
del B.__setattr__
write(objs[1], 21)
print(log, read(objs[1]))

# Attributes deleted and re-added move in the instance dict.
o = A(5)
o.y = 6
o.z = 7
for _ in range(2):
    print(read(o), o.y, o.z)
del o.x
try:
    read(o)
except AttributeError as e:
    print("AttributeError", e)
o.x = 8
print(read(o), list(o.__dict__))
del o.y
o.y = 9
print(read(o), o.y, list(o.__dict__))

# A descriptor with __set__ added to a class after sites are warm.
class Loud:
    def __get__(self, obj, owner):
        return "loud"

    def __set__(self, obj, value):
        print("Loud.__set__", value)


p = A(1)
for _ in range(2):
    write(p, 2)
    print(read(p))
A.x = Loud()
write(p, 3)
print(read(p), p.__dict__["x"])
del A.x
print(read(p))


# __getattr__ only for missing names.
class G:
    def __init__(self):
        self.x = "real"

    def __getattr__(self, name):
        return "missing " + name


g = G()
print(read(g), g.y)
del g.x
print(read(g))

# Method calls on builtin values at one site across types.


def up(v):
    return v.count(1)


print(up([1, 1, 2]), up((1, 2)), up([]))

# Sorting: ints, strs, reverse, keys, stability, mixed types.
xs = [(i * 37) % 11 for i in range(30)]
print(sorted(xs), sorted(xs, reverse=True))
pairs = [(x, i) for i, x in enumerate(xs)]
print(sorted(pairs, key=lambda p: p[0])[:12])
print(sorted(pairs, key=lambda p: p[0], reverse=True)[:12])
words = "the quick brown fox jumps over the lazy dog a b ab ba".split()
print(sorted(words), sorted(words, reverse=True), sorted(words, key=len))
print(sorted(words, key=len, reverse=True))
print(sorted([3, 1.5, 2, True, -1, 0.0, False]))
print(sorted([10**20, 3, -10**19, 7]))
ys = list(range(20))
ys.sort(reverse=True)
print(ys)
ys.sort()
print(ys)
print(sorted(["b", "a", "é", "Z", "", "aa"]))


class K:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return self.v < other.v


print([k.v for k in sorted([K(3), K(1), K(2), K(1)])])
try:
    sorted([1, "a", 2])
except TypeError as e:
    print("TypeError", e)

# Inputs already in order (with and without ties), both directions.
tagged = [(1, "a"), (1, "b"), (0, "c"), (0, "d")]
first = lambda p: p[0]
print(sorted(tagged, key=first), sorted(tagged, key=first, reverse=True))
tagged.reverse()
print(sorted(tagged, key=first), sorted(tagged, key=first, reverse=True))
print(sorted([5, 5, 5], reverse=True), sorted([3, 2, 1]), sorted([1, 2, 3], reverse=True))
print(sorted(["c", "b", "a"]), sorted(["a", "b", "b"], reverse=True))
print(sorted([(2, "x"), (1, "y")], key=first), sorted([1, 2, "3"][:2]))

# Builtin classes are immutable: deleting from them fails as setting does.
for cls, name in [(BaseException, "__str__"), (ValueError, "__str__"), (list, "append"), (object, "__init__")]:
    try:
        delattr(cls, name)
        print("deleted", cls.__name__, name)
    except TypeError as e:
        print("TypeError", e)
print(str(ValueError("still works")), [1].copy())
