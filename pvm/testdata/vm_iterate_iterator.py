# Builtins that consume an iterable element by element (object.Iterate)
# over every kind of iterator: generators, list, tuple, range and str
# iterators, map/filter/zip/enumerate/reversed, dict view iterators,
# itertools, and user classes with __next__ (the slow path). Also
# partial consumption, exhaustion, and errors raised by the iterator or
# by the consumer in the middle.
import itertools


def gen(n):
    for i in range(n):
        yield i * 3 % 7


def kinds():
    return [
        ("generator", gen(6)),
        ("genexpr", (x * x for x in range(5))),
        ("list_iter", iter([4, 1, 4, 2])),
        ("tuple_iter", iter((9, 8, 9))),
        ("range_iter", iter(range(2, 12, 3))),
        ("neg_range_iter", iter(range(5, -5, -2))),
        ("str_iter", iter("banana")),
        ("map", map(abs, [-3, 2, -1])),
        ("filter", filter(None, [0, 1, 0, 2, 3])),
        ("zip", zip([1, 2, 3], "ab")),
        ("enumerate", enumerate("xyz", 10)),
        ("reversed", reversed([1, 2, 3])),
        ("dict_keys", iter({"a": 1, "b": 2})),
        ("dict_values", iter({"a": 1, "b": 2}.values())),
        ("dict_items", iter({"a": 1, "b": 2}.items())),
        ("permutations", itertools.permutations(range(3), 2)),
        ("chain", itertools.chain([1], (2, 3), range(4, 6))),
    ]


def consumers():
    return [
        ("list", list),
        ("tuple", tuple),
        ("sorted", sorted),
        ("set", lambda it: sorted(set(it), key=repr)),
        ("frozenset", lambda it: sorted(frozenset(it), key=repr)),
        ("min", lambda it: min(it, default=None)),
        ("max", lambda it: max(it, default=None)),
        ("any", any),
        ("all", all),
        ("join", lambda it: "|".join(str(x) for x in it)),
        ("dict_fromkeys", lambda it: sorted(dict.fromkeys(it), key=repr)),
    ]


for cname, consume in consumers():
    for kname, it in kinds():
        print(cname, kname, consume(it))


# sum over numbers only
print("sum", sum(gen(6)), sum(iter(range(10))), sum(map(int, "123")), sum(x / 2 for x in range(4)))

# A partly consumed iterator gives the rest; an exhausted one gives nothing.
it = iter([1, 2, 3, 4, 5])
next(it)
next(it)
print("rest", list(it), list(it), tuple(it), set(it))
g = gen(5)
print("first", next(g), "rest", tuple(g), "again", list(g))
r = iter(range(6))
print("range rest", next(r), set(r), sorted(r))


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n


class ViaGenerator:
    def __iter__(self):
        yield "p"
        yield "q"


print("user", list(Countdown(4)), tuple(Countdown(3)), sorted(set(Countdown(5))), sum(Countdown(4)))
print("user gen", list(ViaGenerator()), "".join(ViaGenerator()), set(ViaGenerator()) == {"p", "q"})


# The iterator raises in the middle: the consumer stops there and the
# error propagates; a generator is finished after raising.
def failing(n):
    for i in range(n):
        if i == 2:
            raise ValueError("boom at %d" % i)
        yield i


for cname, consume in consumers():
    g = failing(5)
    try:
        print(cname, consume(g))
    except ValueError as e:
        print(cname, "ValueError", e, list(g))


# The consumer fails on an element: the generator stays suspended
# after it and can go on.
g = (x for x in [1, [2], 3, 4])
try:
    set(g)
except TypeError as e:
    print("set TypeError", e, "then", list(g))
g = (x for x in [1, 2, "a", 3, 4])
try:
    sum(g)
except TypeError as e:
    print("sum TypeError", e, "then", list(g))
g = (x for x in [(1, 2), (3,), (4, 5)])
try:
    dict(g)
except ValueError as e:
    print("dict ValueError", e, "then", list(g))


# StopIteration raised inside a generator is a RuntimeError (PEP 479).
def stops():
    yield 1
    raise StopIteration


try:
    list(stops())
except RuntimeError as e:
    print("RuntimeError", e)


# An iterator object that is not an iterable of itself.
class NotIter:
    def __next__(self):
        return 1


try:
    tuple(NotIter())
except TypeError as e:
    print("TypeError", e)
