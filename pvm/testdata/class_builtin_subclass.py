# Subclasses of builtin types: dict, list, tuple, int, str, set.

class Registry(dict):
    def register(self, name, value):
        self[name] = value
        return self

    def __missing__(self, key):
        return "<unknown %s>" % key


r = Registry(a=1)
r.register("b", 2).register("c", 3)
print(r, len(r), r["b"], r["zzz"], "a" in r, isinstance(r, dict))
print(sorted(r.keys()), list(r.items()), r.get("zzz", "dflt"))
print(type(r).__name__, dict(r), r == {"a": 1, "b": 2, "c": 3})
del r["a"]
print(r, repr(r))


class Stack(list):
    def push(self, x):
        self.append(x)

    def peek(self):
        return self[-1]


s = Stack([1, 2])
s.push(3)
print(s, s.peek(), len(s), s[0:2], sum(s), s.pop(), s)
s += [9, 8]
print(s, type(s).__name__, sorted(s), s * 2, [0] + s)
for x in s:
    print("item", x, end=" ")
print()


class Pair(tuple):
    def __new__(cls, a, b):
        return super().__new__(cls, (a, b))

    @property
    def first(self):
        return self[0]

    def swap(self):
        return Pair(self[1], self[0])


p = Pair(1, 2)
print(p, p.first, p.swap(), p == (1, 2), hash(p) == hash((1, 2)), len(p))
d = {p: "pair"}
print(d[(1, 2)], tuple(p), p + (3,), p.count(1), p.index(2))
a, b = p
print(a, b, isinstance(p, tuple))


class Money(int):
    def __repr__(self):
        return "Money(%d)" % int(self)

    def __add__(self, other):
        return Money(int(self) + int(other))


m = Money(5)
print(m, repr(m), m + 3, m * 2, m > 3, m == 5, -m, abs(Money(-2)), str(m))
print([10, 20, 30][Money(1)], f"{m:04d}", int(m), float(m), bool(Money(0)))


class Tag(str):
    def shout(self):
        return self.upper() + "!"


t = Tag("hi")
print(t, t.shout(), t + " there", len(t), t == "hi", t.startswith("h"), "%s" % t, f"[{t:>5}]")
print({t: 1}["hi"], ",".join([t, t]))


class Uniq(set):
    def add_all(self, *xs):
        for x in xs:
            self.add(x)


u = Uniq([1])
u.add_all(2, 3, 2)
print(sorted(u), len(u), 2 in u, u | {9} == {1, 2, 3, 9})


class Counted(dict):
    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.hits = 0

    def __getitem__(self, k):
        self.hits += 1
        return super().__getitem__(k)

    def __setitem__(self, k, v):
        super().__setitem__(k, v * 10)


c = Counted({"x": 1})
c["y"] = 2
print(c["x"], c["y"], c.hits, c)
print(issubclass(Counted, dict), Counted.__mro__)
