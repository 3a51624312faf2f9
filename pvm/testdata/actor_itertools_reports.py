# Building reports over trade records with itertools pipelines.
from itertools import groupby, accumulate, chain, islice, starmap, takewhile, dropwhile, zip_longest, product, combinations, count, pairwise, compress, tee, repeat, cycle, filterfalse

trades = [
    ("2024-01", "ETH", 3), ("2024-01", "BTC", 1), ("2024-01", "ETH", 2),
    ("2024-02", "ETH", 5), ("2024-02", "SOL", 9), ("2024-03", "BTC", 4),
]
for month, group in groupby(trades, key=lambda t: t[0]):
    g = list(group)
    print(month, len(g), sum(q for _, _, q in g))
by_asset = sorted(trades, key=(lambda t: t[1]))
print({k: [q for _, _, q in g] for k, g in groupby(by_asset, key=(lambda t: t[1]))})
qtys = [q for *_, q in trades]
print(list(accumulate(qtys)), list(accumulate(qtys, max)), list(accumulate(qtys, (lambda a, b: a * b), initial=1)))
print(list(chain([1, 2], (3,), "ab")), list(chain.from_iterable([[1], [2, 3], []])))
print(list(islice(count(100, 5), 4)), list(islice("abcdefg", 1, 6, 2)))
print(list(starmap(pow, [(2, 3), (3, 2), (10, 0)])))
print(list(takewhile(lambda x: x < 4, qtys)), list(dropwhile(lambda x: x < 4, qtys)))
print(list(zip_longest("ab", [1, 2, 3], fillvalue="-")))
print(list(product("xy", range(2))), len(list(product(range(3), repeat=3))))
print(list(combinations([1, 2, 3, 4], 2)))
print(list(pairwise([1, 4, 9, 16])), [b - a for a, b in pairwise([1, 4, 9, 16])])
print(list(compress("ABCDEF", [1, 0, 1, 0, 1, 1])), list(filterfalse(lambda x: x % 2, range(10))))
a, b = tee(iter([1, 2, 3]))
print(list(a), list(b), list(repeat("z", 3)), list(islice(cycle("ab"), 5)))
# a small pipeline: running balance, flag the first overdraft
moves = [50, -20, -40, 100, -200, 30]
balances = accumulate(moves, initial=0)
first_bad = next(((i, b) for i, b in enumerate(balances) if b < 0), None)
print(first_bad)
window = list(zip(*(islice(qtys, i, None) for i in range(3))))
print(window, [sum(w) for w in window])
