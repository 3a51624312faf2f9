# Closures: cells, nonlocal, late binding, factories.
def make_counter(start=0, step=1):
    n = start

    def inc():
        nonlocal n
        n += step
        return n

    def get():
        return n

    return inc, get


inc, get = make_counter(10, 5)
print(inc(), inc(), get())
inc2, get2 = make_counter()
print(inc2(), get(), get2())

fs = [lambda: i for i in range(3)]
print([f() for f in fs])
fs = [lambda i=i: i for i in range(3)]
print([f() for f in fs])


def adders():
    return [(lambda x, k=k: x + k) for k in range(4)]


print([a(10) for a in adders()])


def outer():
    x = "outer"

    def middle():
        def inner():
            return x
        return inner

    x = "rebound"
    return middle()()


print(outer())


def memo():
    cache = {}

    def fib(n):
        if n in cache:
            return cache[n]
        r = n if n < 2 else fib(n - 1) + fib(n - 2)
        cache[n] = r
        return r

    return fib, cache


fib, cache = memo()
print(fib(25), len(cache))
print(fib.__name__, fib.__qualname__)


def acc():
    total = []

    def add(x):
        total.append(x)
        return sum(total)

    return add


a = acc()
print(a(1), a(2), a(3))


def shadow():
    v = 1

    def f():
        v = 2
        return v

    return f(), v


print(shadow())


def unbound():
    def f():
        print(y)
        y = 1
    try:
        f()
    except UnboundLocalError as e:
        print("UnboundLocalError:", e)


unbound()
