adders = {n: (lambda x, n=n: x + n) for n in range(3)}
print([adders[k](10) for k in adders])
compose = lambda f, g: lambda x: f(g(x))
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5))
def memo(fn):
    cache = {}
    def w(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    w.cache = cache
    return w
@memo
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib(14), len(fib.cache))
def counter_factory(start):
    def counter(step=1):
        nonlocal start
        start += step
        return start
    return counter
c = counter_factory(10)
print(c(), c(5), c())
print((lambda: "no args")(), (lambda *a, **k: (a, k))(1, x=2))
