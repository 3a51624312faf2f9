# Fee schedules and aggregation with functools.reduce, partial and lru_cache.
from functools import reduce, partial, lru_cache, wraps


def apply_fee(amount, bps, minimum=0):
    return max(amount * bps // 10_000, minimum)


taker_fee = partial(apply_fee, bps=30, minimum=1)
maker_fee = partial(apply_fee, bps=10)
print(taker_fee(50), taker_fee(100_000), maker_fee(100_000), maker_fee(5))
print(taker_fee.func.__name__, taker_fee.keywords, taker_fee.args)

fills = [120, 4000, 75, 990, 12000]
print(reduce((lambda a, b: a + b), fills), reduce(lambda a, b: a + taker_fee(b), fills, 0))
print(reduce(max, fills), reduce((lambda a, b: a * b), [1, 2, 3, 4, 5], 1))
print(reduce(lambda acc, x: acc + [acc[-1] + x], fills, [0]))
try:
    reduce((lambda a, b: a + b), [])
except TypeError as e:
    print("TypeError:", e)


@lru_cache(maxsize=None)
def tier_price(level):
    if level <= 1:
        return 100
    return tier_price(level - 1) * 11 // 10 + tier_price(level - 2) // 20


print([tier_price(i) for i in range(12)])
print(tier_price.cache_info())
tier_price.cache_clear()
print(tier_price.cache_info().currsize)


@lru_cache(maxsize=2)
def lookup(key):
    print("  miss", key)
    return key * 2


for k in [1, 2, 1, 3, 2, 1]:
    lookup(k)
print(lookup.cache_info())

calls = []


def audited(fn):
    @wraps(fn)
    def inner(*args, **kw):
        calls.append(fn.__name__)
        return fn(*args, **kw)
    return inner


@audited
def settle(a, b=2):
    """Settle a trade."""
    return a * b


print(settle(3), settle(4, b=5), calls, settle.__name__, settle.__doc__, settle.__wrapped__(1))
pow2 = partial(pow, 2)
print(list(map(pow2, range(8))), partial(int, base=16)("ff"))
