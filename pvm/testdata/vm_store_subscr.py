# x[i] = v on a list: the interpreter stores a list item at an int index
# in range itself (STORE_SUBSCR's fast path); everything else takes the
# general path. Both must behave as CPython does.

a = [0, 1, 2, 3, 4]
a[0] = "first"
a[4] = "last"
a[-1] = "minus one"
a[-5] = "minus five"
a[2] = a
print(len(a), a[0], a[1], a[3], a[4], a[2] is a)
a[2] = None
print(a)

# Augmented assignment reads and stores the same item.
v = [1.5, 2.5, 3.5]
for i in range(3):
    v[i] -= 0.25 * i
    v[-1 - i] *= 2
print(v)

# Out of range, from either end, and an empty list.
for i in (5, -6, 100, -100):
    try:
        a[i] = 1
    except IndexError as e:
        print("IndexError", i, e)
try:
    [][0] = 1
except IndexError as e:
    print("IndexError", e)

# Indices that are not ints: bools, an __index__ object, floats, strings,
# and ints too big for an index.


class Idx:
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


b = [10, 20, 30]
b[True] = "true"
b[False] = "false"
b[Idx(2)] = "idx"
b[Idx(-1)] = b[Idx(-1)] + "!"
print(b)
# (The TypeError's text is left out: the PVM says "list assignment
# indices", CPython "list indices"; see docs/benchmarks.md, pvm9.)
for k in (1.0, "1", None, 2 ** 70, -(2 ** 70)):
    try:
        b[k] = 0
    except TypeError as e:
        print("TypeError")
    except IndexError as e:
        print("IndexError", e)

# Subclasses of list and their __setitem__.


class Logged(list):
    def __setitem__(self, i, v):
        print("set", i, v)
        super().__setitem__(i, v * 2)


c = Logged([1, 2, 3])
c[0] = 5
c[-1] = 7
print(c, list.__getitem__(c, 0))


class Plain(list):
    pass


d = Plain([1, 2])
d[1] = "x"
print(d, type(d).__name__)

# Other targets of item assignment.
t = {"k": 1}
t["k"] = 2
t[0] = "zero"
ba = bytearray(b"abc")
ba[0] = 65
ba[-1] = 67
print(t, ba)
try:
    (1, 2)[0] = 3
except TypeError as e:
    print("TypeError", e)
try:
    ba[0] = 256
except ValueError as e:
    print("ValueError", e)

# A store in a loop over nested lists, as nbody does.
m = [[0.0] * 3 for _ in range(3)]
for i in range(3):
    for j in range(3):
        m[i][j] += i * 3 + j
        m[j][i] -= 0.5
print(m)

# del: the same errors.
e = [1, 2, 3]
for k in (1.0, 10, -10):
    try:
        del e[k]
    except TypeError:
        print("TypeError")
    except IndexError as err:
        print("IndexError", err)
del e[-1]
print(e)
