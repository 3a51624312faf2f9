# A money type implementing arithmetic, reflected ops, comparisons and hashing.
import functools


@functools.total_ordering
class Money:
    def __init__(self, cents, cur="USD"):
        self.cents, self.cur = cents, cur

    def _check(self, other):
        if isinstance(other, Money):
            if other.cur != self.cur:
                raise ValueError(f"currency mismatch {self.cur}/{other.cur}")
            return other.cents
        if isinstance(other, int):
            return other
        return NotImplemented

    def __add__(self, other):
        c = self._check(other)
        if c is NotImplemented:
            return c
        return Money(self.cents + c, self.cur)

    __radd__ = __add__

    def __sub__(self, other):
        c = self._check(other)
        return NotImplemented if c is NotImplemented else Money(self.cents - c, self.cur)

    def __rsub__(self, other):
        return Money(other - self.cents, self.cur)

    def __mul__(self, k):
        if not isinstance(k, int):
            return NotImplemented
        return Money(self.cents * k, self.cur)

    __rmul__ = __mul__

    def __neg__(self):
        return Money(-self.cents, self.cur)

    def __abs__(self):
        return Money(abs(self.cents), self.cur)

    def __eq__(self, other):
        return isinstance(other, Money) and (self.cents, self.cur) == (other.cents, other.cur)

    def __lt__(self, other):
        return self.cents < self._check(other)

    def __hash__(self):
        return hash((self.cents, self.cur))

    def __bool__(self):
        return self.cents != 0

    def __repr__(self):
        return f"Money({self.cents}, {self.cur!r})"

    def __str__(self):
        sign = "-" if self.cents < 0 else ""
        return f"{sign}${abs(self.cents) // 100}.{abs(self.cents) % 100:02d}"


a, b = Money(1050), Money(299)
print(a + b, a - b, b - a, -a, abs(-a), a * 3, 2 * b, 100 + a, 1000 - a)
print(sum([a, b, Money(1)]), repr(sum([a, b], Money(0))))
print(a > b, a >= b, a <= b, a == Money(1050), a != b, sorted([a, b, Money(5)]))
print(bool(Money(0)), bool(a), len({a, Money(1050), b}))
try:
    a + Money(1, "EUR")
except ValueError as e:
    print("ValueError", e)
try:
    a * 1.5
except TypeError as e:
    print("TypeError", e)
try:
    a + "x"
except TypeError as e:
    print("TypeError", e)
print(max(a, b), min([a, b]), str(Money(-5)))
