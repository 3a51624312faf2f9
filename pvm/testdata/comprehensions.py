print([x * x for x in range(6)])
print([x for x in range(20) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(3) for y in range(x)])
print({x: x ** 2 for x in range(4)})
print(sorted({c for c in "mississippi"}))
print([[j for j in range(i)] for i in range(4)])
m = [[1, 2, 3], [4, 5, 6]]
print([row[i] for i in range(3) for row in m], [list(r) for r in zip(*m)])
x = 100
print([x for x in range(3)], x)
print(any(v > 2 for v in [1, 2, 3]), all(v > 0 for v in [1, 2, 0]), any([]), all([]))
print(dict((k, len(k)) for k in ["a", "bb"]), max((len(w), w) for w in "a bb ccc".split()))
print([y for x in [[1, 2], [3]] for y in x], [i if i % 2 else -i for i in range(5)])
print([(lambda v: v + n)(1) for n in range(3)])
