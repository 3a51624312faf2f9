s = {3, 1, 2}
print(sorted(s), len(s), 2 in s, 5 in s)
s.add(4)
s.discard(1)
s.remove(2)
print(sorted(s))
a = {1, 2, 3}
b = {2, 3, 4}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b))
print(sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)))
print(a <= {1, 2, 3, 4}, a < a, a == {3, 2, 1}, a.isdisjoint({9}), a.issubset(b))
f = frozenset([1, 2])
print(sorted(f), f == frozenset({2, 1}), hash(f) == hash(frozenset([2, 1])))
print(set(), frozenset(), sorted({x % 3 for x in range(10)}), len(set("hello")))
c = set()
c.update([1, 2], [3])
print(sorted(c))
try:
    c.remove(99)
except KeyError as e:
    print("KeyError", e)
