from functools import reduce, partial, wraps, update_wrapper, cmp_to_key, total_ordering
import functools

print(reduce(lambda a, b: a + b, [1, 2, 3, 4]), reduce(lambda a, b: a * b, [1, 2, 3], 10))
print(reduce(max, [3, 9, 2]), functools.reduce(lambda acc, kv: acc + kv[1], {"a": 1, "b": 2}.items(), 0))
try:
    reduce(lambda a, b: a, [])
except TypeError as e:
    print("TypeError", e)


def transfer(sender, receiver, amount, fee=1):
    return "%s->%s %d (fee %d)" % (sender, receiver, amount, fee)


from_alice = partial(transfer, "alice")
print(from_alice("bob", 10), from_alice("carol", 5, fee=0))
cheap = partial(from_alice, fee=0)
print(cheap("dan", 3), cheap.args, cheap.keywords, cheap.func is transfer)
to_int = partial(int, base=2)
print(to_int("1011"), list(map(partial(pow, 2), range(5))))


def logged(fn):
    @wraps(fn)
    def wrapper(*args, **kw):
        print("calling", fn.__name__)
        return fn(*args, **kw)
    return wrapper


@logged
def add(a, b):
    """Add two numbers."""
    return a + b


print(add(2, 3), add.__name__, add.__doc__, add.__wrapped__(1, 1))


def compare_len(a, b):
    return len(a) - len(b)


print(sorted(["ccc", "a", "bb"], key=cmp_to_key(compare_len)))
print(sorted([3, 1, 2], key=cmp_to_key(lambda a, b: b - a)))


@total_ordering
class Version:
    def __init__(self, major, minor):
        self.major, self.minor = major, minor

    def __eq__(self, other):
        return (self.major, self.minor) == (other.major, other.minor)

    def __lt__(self, other):
        return (self.major, self.minor) < (other.major, other.minor)

    def __repr__(self):
        return "v%d.%d" % (self.major, self.minor)


a, b = Version(1, 2), Version(1, 10)
print(a < b, a <= b, a > b, a >= b, a == Version(1, 2), max(a, b), sorted([b, a]))


def plain():
    pass


w = update_wrapper(lambda: None, plain)
print(w.__name__, w.__wrapped__ is plain)
