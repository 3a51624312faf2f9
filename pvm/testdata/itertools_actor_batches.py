# Batching and windowing payouts with itertools.
from itertools import islice, groupby, accumulate, chain, zip_longest, count, starmap, tee, compress


def batched(iterable, n):
    it = iter(iterable)
    while True:
        batch = tuple(islice(it, n))
        if not batch:
            return
        yield batch


payouts = [("ann", 5), ("bob", 3), ("ann", 2), ("cy", 9), ("bob", 1), ("dee", 4), ("eve", 7)]
for i, b in zip(count(1), batched(payouts, 3)):
    print("batch", i, b)
by_user = {k: sum(v for _, v in g) for k, g in groupby(sorted(payouts), key=lambda p: p[0])}
print(by_user)
running = list(accumulate(v for _, v in payouts))
print(running, running[-1])
cols = list(zip_longest(*batched(range(7), 3), fillvalue=0))
print(cols)
print(list(starmap(lambda u, v: "%s:%d" % (u, v), payouts[:3])))
a, b = tee(v for _, v in payouts)
next(b)
print([y - x for x, y in zip(a, b)])
print(list(chain.from_iterable(batched("abcdefg", 2))))
print(list(compress([u for u, _ in payouts], [v > 3 for _, v in payouts])))
