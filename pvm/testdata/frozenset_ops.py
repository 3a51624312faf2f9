a = frozenset({1, 2, 3})
b = frozenset([3, 4])
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b), type(a | b).__name__)
print(a.issuperset({1, 2}), a.isdisjoint(b), frozenset() == set(), len(a))
s = {a, b, frozenset([1, 2, 3])}
print(len(s))
d = {a: "a"}
print(d[frozenset([3, 2, 1])])
m = set(range(5))
m -= {0, 1}
m |= {9}
m &= {2, 3, 9}
m ^= {3, 7}
print(sorted(m))
m.intersection_update({2, 9, 11})
print(sorted(m), sorted(m.union([1], (0,))), sorted(m.difference({2})))
