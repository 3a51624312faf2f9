# Custom iterators and iterables, iterator exhaustion, itertools-like helpers.
class Countdown:
    def __init__(self, start):
        self.start = start

    def __iter__(self):
        return CountdownIter(self.start)


class CountdownIter:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


c = Countdown(3)
print(list(c), list(c), [x for x in c if x != 2], sum(c), max(c))
it = iter(c)
print(next(it), next(it), next(it), next(it, "done"))
it2 = CountdownIter(2)
print(list(it2), list(it2))


class Fib:
    def __init__(self, limit):
        self.limit = limit

    def __iter__(self):
        a, b = 0, 1
        while a < self.limit:
            yield a
            a, b = b, a + b


print(list(Fib(100)), 55 in Fib(100), 56 in Fib(100))
print(dict(enumerate(Fib(10), start=1)), list(zip(Fib(10), "abcdef")))


def take(n, iterable):
    out = []
    for x in iterable:
        if len(out) == n:
            break
        out.append(x)
    return out


def naturals():
    n = 0
    while True:
        yield n
        n += 1


evens = (x for x in naturals() if x % 2 == 0)
print(take(5, evens), take(3, evens))
squares = map(lambda x: x * x, naturals())
print(take(4, squares), next(squares))
g = (i for i in range(3))
print(list(g), list(g), type(g).__name__)
r = reversed([1, 2, 3])
print(next(r), list(r))
e = enumerate("ab")
print(next(e), list(e))
z = zip([1, 2, 3], "ab")
print(list(z), list(z))
f = filter(str.isdigit, "a1b2c3")
print("".join(f))
print(list(map(pow, [2, 3], [5, 2])), list(map(str.upper, ["a", "b"])))
print(sorted(Countdown(5)), tuple(Countdown(2)), set(Countdown(1)), "".join(map(str, Countdown(4))))
