# Set algebra printed through sorted() (set order is a documented PVM difference).
a, b = {1, 2, 3, 4}, {3, 4, 5}
print(sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b), sorted(b - a))
print(a <= a, {1} < a, a >= {2, 3}, a > a, a.isdisjoint({9}), a.issubset(range(10)), a.issuperset([1, 2]))
s = set()
s.add(3)
s.update([1, 2], (7,))
s.discard(99)
s.remove(7)
print(sorted(s), len(s), 2 in s, 9 not in s)
print(sorted(a.union([9], "x" and [8])), sorted(a.intersection(b, {4})), sorted(a.difference({1}, {2})), sorted(a.symmetric_difference(b)))
c = a.copy()
c -= {1}
c |= {10}
c &= {2, 3, 10}
c ^= {3, 11}
print(sorted(c), sorted(a))
fs = frozenset("hello")
print(sorted(fs), len(fs), frozenset([1, 2]) == {1, 2}, {frozenset([1]): "k"}[frozenset([1])], sorted(fs | {"z"}))
words = "the cat and the hat and the bat".split()
seen, dupes = set(), set()
for w in words:
    (dupes if w in seen else seen).add(w)
print(sorted(seen), sorted(dupes), len(set(words)))
print(sorted({x % 5 for x in range(20)}), sorted({w[0] for w in words}), set() == set(), bool(set()))
p = {1, 2, 3}
print(p.pop() in {1, 2, 3}, len(p), sorted(set("banana")), sorted(set([3, 1, 2]) - {2}))
try:
    set().remove(1)
except KeyError as e:
    print("KeyError", e)
