from functools import lru_cache, cache, cached_property


@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(12), fib.cache_info())
fib.cache_clear()
print(fib.cache_info())


@lru_cache(maxsize=2)
def square(x):
    print("compute", x)
    return x * x


for v in [1, 2, 1, 3, 2, 1]:
    print(square(v))
print(square.cache_info(), square.__name__)


@cache
def balance_of(account):
    print("load", account)
    return len(account) * 100


print(balance_of("alice"), balance_of("alice"), balance_of("bob"))
print(balance_of.cache_info().hits, balance_of.cache_info().misses)


@lru_cache
def kw(a, b=1):
    return a + b


print(kw(1), kw(1, b=2), kw(a=1), kw.cache_info())


class Pool:
    def __init__(self, reserves):
        self.reserves = reserves
        self.computed = 0

    @cached_property
    def total(self):
        self.computed += 1
        return sum(self.reserves)


p = Pool([5, 10, 20])
print(p.total, p.total, p.computed)
p.total = 1
print(p.total)
try:
    square([1])
except TypeError as e:
    print("TypeError", e)
