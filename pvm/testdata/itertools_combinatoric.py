from itertools import product, permutations, combinations, combinations_with_replacement

print(list(product("AB", [1, 2])))
print(list(product([0, 1], repeat=3)))
print(len(list(product(range(3), range(4)))), list(product()))
print(list(permutations("ABC", 2)))
print(list(permutations(range(3))))
print(list(permutations([1, 2], 3)))
print(list(combinations("ABCD", 2)))
print(list(combinations(range(4), 3)), list(combinations([1], 2)))
print(list(combinations_with_replacement("ABC", 2)))
print(list(combinations_with_replacement([1, 2], 3)))
bids = [("a", 5), ("b", 7), ("c", 3)]
best = max(combinations(bids, 2), key=lambda p: p[0][1] + p[1][1])
print(best)
print(sum(1 for _ in permutations(range(5))))
