# More builtin subclassing: overriding, super() chains, isinstance and sorting.


class Balance(int):
    def __new__(cls, value, currency="COW"):
        obj = super().__new__(cls, value)
        obj.currency = currency
        return obj

    def __str__(self):
        return "%d %s" % (int(self), self.currency)


b = Balance(42, "ETH")
print(b, repr(b), b + 1, b.currency, isinstance(b, int), b == 42, sorted([Balance(3), 1, Balance(2)]))
print(hash(b) == hash(42), {42: "x"}[b], divmod(b, 5), b // 4, b % 5, 2 ** Balance(3), b.bit_length())


class Symbol(str):
    def __new__(cls, s):
        return super().__new__(cls, s.upper())


s = Symbol("cow")
print(s, repr(s), s.lower(), s + "!", s == "COW", s in {"COW": 1}, s[1:], len(s), s.split("O"))


class Amounts(list):
    def total(self):
        return sum(self)

    def __getitem__(self, i):
        r = super().__getitem__(i)
        return Amounts(r) if isinstance(i, slice) else r


a = Amounts([5, 1, 4])
a.sort()
print(a, a.total(), a[0], a[1:], type(a[1:]).__name__, a.index(4), a == [1, 4, 5], list(reversed(a)))
a.extend([9])
a.insert(0, 0)
print(a, len(a), 9 in a, a.copy(), min(a), sorted(a, reverse=True))


class Frozen(frozenset):
    def describe(self):
        return "{" + ",".join(sorted(self)) + "}"


f = Frozen(["b", "a"])
print(f.describe(), "a" in f, len(f), f | {"c"} == {"a", "b", "c"}, hash(f) == hash(frozenset(["a", "b"])))


class Rate(float):
    def pct(self):
        return "%.1f%%" % (self * 100)


r = Rate(0.125)
print(r.pct(), r * 2, r > 0.1, round(r, 2), float(r), int(Rate(3.9)))


class Chain(dict):
    def __init__(self, parent=None, **kw):
        super().__init__(**kw)
        self.parent = parent

    def __missing__(self, key):
        if self.parent is None:
            raise KeyError(key)
        return self.parent[key]


root = Chain(a=1, b=2)
child = Chain(root, b=20)
print(child["a"], child["b"], child.get("a"), "a" in child, len(child))
try:
    child["zz"]
except KeyError as e:
    print("KeyError", e)
