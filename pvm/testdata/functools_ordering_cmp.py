from functools import total_ordering, cmp_to_key, partial, reduce
import functools


@total_ordering
class Money:
    def __init__(self, cents, cur="USD"):
        self.cents, self.cur = cents, cur

    def __eq__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.cur, self.cents) == (other.cur, other.cents)

    def __le__(self, other):
        if not isinstance(other, Money):
            return NotImplemented
        return (self.cur, self.cents) <= (other.cur, other.cents)

    def __repr__(self):
        return "%s%d" % (self.cur, self.cents)


ms = [Money(5), Money(3), Money(9, "EUR"), Money(3, "EUR")]
print(sorted(ms), min(ms), max(ms), Money(3) < Money(4), Money(3) > Money(4), Money(3) >= Money(3))
try:
    Money(1) < 5
except TypeError as e:
    print("TypeError", e)


def by_priority_then_name(a, b):
    if a[0] != b[0]:
        return b[0] - a[0]
    return (a[1] > b[1]) - (a[1] < b[1])


tasks = [(1, "write"), (3, "deploy"), (1, "read"), (3, "audit")]
print(sorted(tasks, key=cmp_to_key(by_priority_then_name)))
key = cmp_to_key(lambda a, b: a - b)
print(key(1) < key(2), key(3) == key(3), max([4, 1, 7], key=key))
power = partial(pow, exp=2)
print(power(9), [partial(lambda a, b, c: a * 100 + b * 10 + c, 1, c=3)(b) for b in range(3)])
print(functools.reduce(lambda acc, x: acc * x, range(1, 6)), reduce(lambda s, c: c + s, "abc", ""))
try:
    @total_ordering
    class Nothing:
        pass
except ValueError as e:
    print("ValueError", e)
