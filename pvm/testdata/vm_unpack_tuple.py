# UNPACK_SEQUENCE: a tuple or a list of the right length is read in the
# interpreter loop; every other operand (other lengths, strings,
# iterators, tuple and list subclasses, non-iterables) goes through the
# general unpack.
from collections import namedtuple

a, b = (1, 2)
print(a, b)
a, b, c = 3, "x", None
print(a, b, c)
(p, q), r = ((4, 5), 6)
print(p, q, r)
() = ()
print("empty ok")
x, = (7,)
print(x)

# Swaps and rotations compile to tuples or rotations; both must agree.
a, b = b, a
print(a, b)
a, b, c = c, a, b
print(a, b, c)

# In loops, over pairs and triples.
total = 0
for i, (j, k) in enumerate([(1, 2), (3, 4), (5, 6)]):
    total += i * j + k
print(total)
for u, v, w in [(1, 2, 3), (4, 5, 6)]:
    print(u + v + w)

# Lists of the right length, nested as the n-body kernel unpacks its
# bodies, and a list changed between two unpackings.
bodies = [([1.0, 2.0, 3.0], [0.5, 0.25, 0.125], 2.0), ([4.0, 5.0, 6.0], [1.5, 1.25, 1.125], 3.0)]
for ([x1, y1, z1], v1, m1) in bodies:
    print(x1 + y1 + z1, v1, m1)
cell = [1, 2]
a, b = cell
cell.append(3)
a, b, c = cell
print(a, b, c)
cell[:] = ["p", "q"]
a, b = cell
print(a, b)


class Row(list):
    def __iter__(self):
        return iter(["from", "iter"])


a, b = Row([1, 2])
print(a, b)

# Other operands.
a, b = [8, 9]
print(a, b)
a, b, c = "xyz"
print(a, b, c)
a, b = (n * n for n in range(2))
print(a, b)
a, b = {"k": 1, "m": 2}
print(a, b)
a, *rest = (1, 2, 3)
print(a, rest)
*init, last = (1,)
print(init, last)

Point = namedtuple("Point", "x y")
px, py = Point(10, 20)
print(px, py)


class Pair(tuple):
    pass


s, t = Pair((11, 12))
print(s, t)

# Wrong lengths: the messages and that nothing is bound.
for value in [(1, 2, 3), (1,), (), [1, 2, 3], [1], "abc", "a", Pair((1, 2, 3))]:
    a = b = "unset"
    try:
        a, b = value
    except ValueError as e:
        print(type(value).__name__, "ValueError", e, a, b)

try:
    () = (1,)
except ValueError as e:
    print("ValueError", e)
try:
    x, = ()
except ValueError as e:
    print("ValueError", e)
try:
    a, b = 5
except TypeError as e:
    print("TypeError", e)
try:
    a, b = None
except TypeError as e:
    print("TypeError", e)

# A tuple built at run time, then unpacked many times.
acc = 0
pairs = [tuple(range(i, i + 2)) for i in range(50)]
for pair in pairs:
    lo, hi = pair
    acc += hi - lo + lo
print(acc)
