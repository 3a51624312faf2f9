# A generator's __name__ and __qualname__ are its function's when the
# generator is made: the code's names, or the names a decorator or an
# assignment gave the function before. Renaming the function afterwards
# leaves the generators already made alone (the PVM keeps the names only
# when they differ from the code's).


def gen():
    yield 1


class Box:
    def items(self):
        yield from (1, 2)

    async def fetch(self):
        return 3


g = gen()
print(g.__name__, g.__qualname__, repr(g).split(" at ")[0].rstrip(">"))
print(Box().items().__qualname__)
print((x for x in ()).__name__, (x for x in ()).__qualname__)

gen.__name__ = "renamed"
h = gen()
print(g.__name__, g.__qualname__, h.__name__, h.__qualname__)
gen.__qualname__ = "Other.renamed"
k = gen()
print(h.__qualname__, k.__name__, k.__qualname__, repr(k).split(" at ")[0].rstrip(">"))
gen.__name__ = "gen"
gen.__qualname__ = "gen"
print(gen().__name__, gen().__qualname__, k.__name__, k.__qualname__)


def wraps_like(fn):
    def wrapper():
        yield from fn()
    wrapper.__name__ = fn.__name__
    wrapper.__qualname__ = "wrapped." + fn.__qualname__
    return wrapper


w = wraps_like(gen)()
print(w.__name__, w.__qualname__, list(w))

c = Box().fetch()
print(c.__name__, c.__qualname__, repr(c).split(" at ")[0].rstrip(">"))
Box.fetch.__qualname__ = "Box.fetched"
print(c.__qualname__, Box.fetch.__qualname__)
try:
    c.send(None)
except StopIteration as e:
    print("returned", e.value)

# The state flags: running, done, a finished generator.
def count():
    yield 1
    yield 2


it = count()
print(next(it), list(it), list(it), it.__name__)
