# Bound-method calls take their arguments from a per-thread argument stack
# (pvm/vm pushArgs): nothing a callee keeps may alias it, nested calls must
# not overwrite an outer call's arguments, and growing the stack while
# outer calls still use the old one must keep their arguments intact.


class A:
    def __init__(self, *a, **k):
        self.a = a
        self.k = k
        self.kept = None

    def m(self, *a):
        return a

    def keep(self, *a):
        self.kept = a
        return self

    def nest(self, n, *rest):
        if n == 0:
            return rest
        return self.nest(n - 1, n, *rest)

    def pair(self, a, b):
        return (a, b)


x = A(1, 2, k=3)
print(x.a, x.k)
r1 = x.m(1, 2, 3)
r2 = x.m(4, 5)
print(r1, r2)
x.keep("a", "b")
y = x.kept
x.keep("c")
print(y, x.kept)
print(len(x.nest(25)), x.nest(25)[:5], x.nest(25)[-3:])


def deep(o, n):
    # an outer call's arguments stay live while inner calls push more
    return o.pair(n, deep(o, n - 1) if n else None)


d = deep(x, 25)
depth = 0
while d is not None:
    depth += 1
    assert d[0] == 26 - depth, d[0]
    d = d[1]
print("depth", depth)


class E(Exception):
    def __init__(self, *a):
        super().__init__(*a)
        self.saved = a


e = E(1, 2, 3)
x.m(7, 8, 9)
print(e.args, e.saved)

fmt = "{}-{}".format
print(fmt(1, 2), fmt(3, 4))
lst = []
ap = lst.append
for i in range(5):
    ap(i)
print(lst)
ms = [x.m(i, i * i) for i in range(4)]
print(ms)
gs = list(map(x.pair, range(3), "abc"))
print(gs)
keys = sorted([3, 1, 2], key=x.m)
print(keys)


class K:
    # a key whose hash and equality run Python code: a builtin bound
    # method (dict.setdefault, list.index) calls back into Python and reads
    # its own arguments afterwards
    def __init__(self, v):
        self.v = v

    def helper(self, a, b, c):
        return a + b + c

    def __hash__(self):
        h = self.helper  # a bound-method value: called through the argument stack
        return h(self.v, 0, 0)

    def __eq__(self, other):
        h = self.helper
        return h(0, 0, 0) == 0 and self.v == other.v


dd = {}
sd = dd.setdefault
print(sd(K(1), "one"), sd(K(2), "two"), sd(K(1), "uno"))
ix = [K(5), K(6), K(7)].index
print(ix(K(7)), ix(K(6), 1), ix(K(7), 0, 3))
cnt = [K(1), K(2), K(1)].count
print(cnt(K(1)))
