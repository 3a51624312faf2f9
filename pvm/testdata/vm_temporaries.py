# Paths where the interpreter reuses memory instead of allocating: float
# temporaries written in place (BINARY_OP after BINARY_OP), the scratch
# slice of BUILD_SLICE, enumerate pairs unpacked without a tuple, bound
# method arguments on the argument stack, sets built with their table.
# None of it may change a value a program can see.

a, b, c, d = 1.5, 2.25, -3.0, 0.5
x = a * b
y = x + c * d
z = a + b * c + d * a
print(x, y, z)
keep = []
for i in range(4):
    t = a * i + b * c
    keep.append(t)
    u = t + a * b
    keep.append(u)
print(keep)
w = a * b
v = w
w2 = v + w * 1.0
print(w, v, w2)
r = (a * b if a > 0 else c * d) + (b * c)
print(r)
vals = [1.0, 2.0, 3.0]
vals[0] -= a * b
vals[1] += vals[0] * b
vals[2] *= vals[1] / d
print(vals)
print(2 * a + 3 * b, 1 + a * 2, a - 1 / d)


class Keeps:
    def __init__(self):
        self.kept = None

    def __add__(self, o):
        self.kept = o * 2.0
        return self.kept


k = Keeps()
e = 10.0 - (k + 1.5)
print(e, k.kept)
f2 = 10.0 - (k + 1.5) * 2.0
print(f2, k.kept)

s = list(range(10))
print(s[2:5], s[::-1], s[-3:], (1, 2, 3)[1:], "hello"[1:4], "h\u00e9llo"[::-1])
s[:3] = s[7:]
s[2:4] = (9, 9)
print(s)


class Two:
    def __index__(self):
        return 2


print(s[Two():5], s[1:Two()])
try:
    print(s[::0])
except ValueError as err:
    print("ValueError:", err)
print(s[s[1:2][0] - 7:s[0:1][0]])
t1, t2 = s[1:3], s[4:6]
print(t1, t2, t1 is not t2)
sl = slice(1, 3)
print(s[sl], sl)


class Seq:
    def __getitem__(self, k):
        return k


kept = Seq()[1:2]
other = Seq()[3:4]
print(kept, other, kept is other)

for i, ch in enumerate("abc"):
    print(i, ch)
for p in enumerate([5, 6]):
    print(p)
en = enumerate([1, 2, 3])
print(next(en))
for i, val in en:
    print(i, val)
print(list(enumerate("xy", 5)))
for i, (p1, p2) in enumerate([(1, 2), (3, 4)]):
    print(i, p1, p2)


class Node:
    def __init__(self, n):
        self.n = n

    def depth(self, k, p1=0, p2=0, p3=0):
        if k == 0:
            return self.n + p1 + p2 + p3
        step = self.depth
        return step(k - 1, p1, p2, 1) + 1


app = [].append
app(1)
nd = Node(7)
print(nd.depth(20), Node(1).depth(3))
print(sorted(set(q * q for q in range(-4, 4))), sorted(frozenset([3, 1, 3])), set(), set([]))
