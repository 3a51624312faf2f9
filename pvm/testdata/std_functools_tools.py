# functools: total_ordering, cmp_to_key, partial objects, reduce, wraps, cache.
from functools import total_ordering, cmp_to_key, partial, reduce, wraps, lru_cache, cache


@total_ordering
class Bid:
    def __init__(self, price, seq):
        self.price, self.seq = price, seq

    def __eq__(self, o):
        return (self.price, self.seq) == (o.price, o.seq)

    def __lt__(self, o):
        return (-self.price, self.seq) < (-o.price, o.seq)

    def __repr__(self):
        return f"Bid({self.price}, {self.seq})"


bids = [Bid(10, 1), Bid(12, 2), Bid(10, 0), Bid(12, 3)]
print(sorted(bids), Bid(1, 0) > Bid(2, 0), Bid(2, 0) >= Bid(2, 0), Bid(1, 1) <= Bid(1, 0))
print(sorted(["b", "A", "c"], key=cmp_to_key(lambda a, b: (a.lower() > b.lower()) - (a.lower() < b.lower()))))
p = partial(int, base=2)
print(p("1010"), p("11", base=3), p.func is int, p.keywords)
p2 = partial(partial(max, 5), 10)
print(p2(7), p2(), p2(20, 30))
print(reduce(lambda acc, kv: {**acc, kv[0]: kv[1]}, [("a", 1), ("b", 2)], {}))
print(reduce(lambda a, b: a if len(a) >= len(b) else b, ["ab", "abcd", "abc", "wxyz"]))


@cache
def paths(r, c):
    if r == 0 or c == 0:
        return 1
    return paths(r - 1, c) + paths(r, c - 1)


print([paths(r, c) for r in range(17) for c in range(17)][-1], paths(10, 10))


@lru_cache(maxsize=3)
def sq(x):
    return x * x


for x in [1, 2, 3, 1, 4, 1, 2]:
    sq(x)
print(sq.cache_info())


def timed(label):
    def deco(fn):
        @wraps(fn)
        def inner(*a):
            return f"{label}:{fn(*a)}"
        return inner
    return deco


@timed("T")
def add(a, b):
    "Adds."
    return a + b


print(add(1, 2), add.__name__, add.__doc__, add.__wrapped__(3, 4))
