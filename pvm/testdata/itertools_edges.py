import itertools as it

print(list(it.islice(it.count(), 0)), list(it.islice([], 3)), list(it.islice("abc", 5, 10)))
print(list(it.product("ab", repeat=2)), list(it.product([], [1])), list(it.product([1], repeat=0)))
print(list(it.permutations([])), list(it.permutations([1], 0)), list(it.combinations([1, 2], 0)))
print(list(it.combinations_with_replacement([], 2)), list(it.combinations_with_replacement("ab", 0)))
print(list(it.zip_longest()), list(it.zip_longest([1, 2])), list(it.chain()), list(it.repeat(1, 0)))
print(list(it.takewhile(bool, [])), list(it.dropwhile(bool, [0, 1, 0])), list(it.accumulate([5])))
print([list(g) for k, g in it.groupby([])], [(k, len(list(g))) for k, g in it.groupby("aabbbc")])
groups = it.groupby([1, 1, 2, 2, 3])
k1, g1 = next(groups)
k2, g2 = next(groups)
print(k1, list(g1), k2, list(g2))
print(list(it.starmap(max, [(1, 5), (7, 2)])), list(it.pairwise([])), list(it.filterfalse(None, [])))
try:
    list(it.combinations([1, 2], -1))
except ValueError as e:
    print("ValueError", e)
try:
    it.islice([1], 1, 2, 0)
except ValueError as e:
    print("ValueError", e)
try:
    list(it.product([1], repeat=-1))
except ValueError as e:
    print("ValueError", e)
a, = it.tee([1, 2], 1)
print(list(a), it.tee([1], 0))
cyc = it.cycle([])
print(list(it.islice(cyc, 3)))
print(sum(1 for _ in it.combinations(range(10), 3)), len(list(it.permutations(range(4), 2))))
