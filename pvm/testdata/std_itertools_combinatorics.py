# itertools combinatorics and grouping for allocation problems.
from itertools import combinations, combinations_with_replacement, permutations, product, groupby, accumulate, islice, chain

coins = [1, 5, 10, 25]
ways = [c for r in range(1, 4) for c in combinations_with_replacement(coins, r) if sum(c) == 30]
print(ways)
print(list(permutations("abc")), len(list(permutations(range(5), 3))))
print(list(combinations("abcd", 3)), list(combinations([], 0)), list(combinations("ab", 3)))
print(list(product([0, 1], repeat=3)))
print(["".join(p) for p in product("ab", "xy", "12")][:5])
bids = [("ann", 5), ("bob", 9), ("cy", 7), ("dee", 3)]
best = max(combinations(bids, 2), key=lambda pair: sum(b for _, b in pair))
print(best, sum(b for _, b in best))
budget = 12
feasible = [c for r in range(len(bids) + 1) for c in combinations(bids, r) if sum(b for _, b in c) <= budget]
print(len(feasible), max(feasible, key=lambda c: (sum(b for _, b in c), len(c))))
data = sorted(["apple", "avocado", "banana", "blueberry", "cherry", "cranberry", "date"], key=lambda s: s[0])
print({k: list(g) for k, g in groupby(data, key=lambda s: s[0])})
print([(k, len(list(g))) for k, g in groupby("aaabccdddd")])
print(list(accumulate([3, 1, 4, 1, 5], lambda a, b: a * 10 + b)), list(accumulate([])))
print(list(islice(chain.from_iterable(permutations(range(3))), 7)))
print(sum(1 for _ in permutations(range(6))), sum(1 for _ in combinations(range(10), 5)))
