# Comprehensions: nesting, conditions, dict/set forms, scoping.
matrix = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print([[row[i] for row in matrix] for i in range(3)])
print([x for row in matrix for x in row if x % 2])
print([(i, j) for i in range(3) for j in range(i) if (i + j) % 2])
print({k: v for k, v in zip("abc", range(3)) if v})
print({x % 3 for x in range(10)} == {0, 1, 2}, sorted({c for c in "mississippi"}))
print({n: [d for d in range(1, n + 1) if n % d == 0] for n in (6, 10, 13)})
print([x if x > 2 else -x for x in range(5)], [y for y in (x * x for x in range(6)) if y > 5])
print(sum(x * y for x, y in zip([1, 2, 3], [4, 5, 6])), max(len(w) for w in ["a", "abc", "ab"]))
words = ["apple", "bob", "kayak", "level", "chain"]
print([w for w in words if w == w[::-1]], {w[0]: w for w in words})
print([[0] * 3 for _ in range(2)], [i * j for i in range(1, 4) for j in range(1, 4)])
flat = [c for w in ["ab", "", "cde"] for c in w]
print(flat, [(w, len(w)) for w in words if len(w) > 3 if "a" in w])
x = "outer"
print([x for x in range(3)], x)
inv = {v: k for k, v in {"a": 1, "b": 2}.items()}
print(inv, dict((k, k * 2) for k in range(3)))
print(list(filter(None, [[], [0], "", "x", 0, 1])), [bool(v) for v in [[], [0], "", " "]])
acc = []
_ = [acc.append(i) for i in range(3)]
print(acc, _)
print({(a, b) for a in range(2) for b in range(2)} == {(0, 0), (0, 1), (1, 0), (1, 1)})
print(sorted(((i, c) for i, c in enumerate("bca")), key=lambda t: t[1]))
