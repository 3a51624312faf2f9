from itertools import chain, compress, filterfalse, groupby, pairwise, starmap, tee, zip_longest

print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3], []])))
print(list(compress("ABCDEF", [1, 0, 1, 0, 1, 1])), list(filterfalse(lambda x: x % 2, range(10))))
print(list(filterfalse(None, [0, 1, "", "x"])))
for key, grp in groupby("AAAABBBCCDAABBB"):
    print(key, list(grp))
print([k for k, g in groupby([1, 1, 2, 3, 3])])
txs = [("alice", 5), ("alice", 7), ("bob", 1), ("carol", 2), ("carol", 9)]
for who, items in groupby(txs, key=lambda t: t[0]):
    print(who, sum(v for _, v in items))
groups = [(k, list(g)) for k, g in groupby(sorted("mississippi"))]
print(groups)
print(list(pairwise([1, 2, 4, 7])), list(pairwise("a")))
print(list(starmap(pow, [(2, 5), (3, 2), (10, 3)])))
a, b = tee([1, 2, 3])
print(list(a), list(b))
x, y, z = tee(iter(range(4)), 3)
print(next(x), next(x), list(y), list(z), list(x))
print(list(zip_longest("ABCD", "xy", fillvalue="-")), list(zip_longest([1], [2, 3], [4, 5, 6])))
prices = [10, 12, 11, 15]
print([b - a for a, b in pairwise(prices)])
