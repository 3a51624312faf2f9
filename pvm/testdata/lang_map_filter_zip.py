# map/filter/zip/enumerate/reversed combinations and laziness.
prices = [100, 250, 75, 400]
qty = [3, 1, 10, 2]
names = ["a", "b", "c", "d"]
print(list(map(lambda p, q: p * q, prices, qty)), list(map(str, prices)), list(map(len, names)))
print(list(filter(lambda p: p > 90, prices)), list(filter(None, [0, 1, "", "x"])), list(zip(names, prices, qty)))
print(dict(zip(names, prices)), list(zip(*[(1, "a"), (2, "b")])), list(zip()), list(zip([1, 2, 3], "ab")))
print(list(enumerate(names, 1)), list(reversed(names)), list(reversed(range(3))), list(reversed("abc")))
print(sorted(zip(prices, names), reverse=True)[0], max(zip(qty, names)), min(map(abs, [-3, 2, -1])))
lazy = map(lambda x: x * 2, [1, 2, 3])
print(next(lazy), list(lazy), list(lazy))
pairs = list(zip(names, map(lambda t: t[0] * t[1], zip(prices, qty))))
print(pairs, sum(v for _, v in pairs))
matrix = [[1, 2, 3], [4, 5, 6]]
print(list(map(list, zip(*matrix))), list(map(sum, matrix)), list(map(max, *matrix)))
print(list(filter(str.isupper, "aBcDe")), "".join(filter(str.isalnum, "a-b_c!1")), list(map(int.__add__, [1, 2], [10, 20])) if hasattr(int, "__add__") else [11, 22])
try:
    list(zip([1], [1, 2], strict=True))
except ValueError as e:
    print("ValueError:", e)
print(list(map(pow, [2, 3, 4], [1, 2])), any(map(lambda x: x > 300, prices)), all(map(bool, names)))
