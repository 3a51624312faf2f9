class Matrix:
    def __init__(self, rows):
        self.rows = rows
    def __matmul__(self, other):
        cols = list(zip(*other.rows))
        return Matrix([[sum(a * b for a, b in zip(r, c)) for c in cols] for r in self.rows])
    def __eq__(self, other):
        return self.rows == other.rows
    def __repr__(self):
        return f"Matrix({self.rows})"
    def __iter__(self):
        return iter(self.rows)
    def __reversed__(self):
        return iter(self.rows[::-1])
a = Matrix([[1, 2], [3, 4]])
b = Matrix([[0, 1], [1, 0]])
print(a @ b, a @ b == Matrix([[2, 1], [4, 3]]), list(a), list(reversed(a)))
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __add__(self, o):
        if isinstance(o, int):
            return Money(self.cents + o)
        return Money(self.cents + o.cents)
    __radd__ = __add__
    def __lt__(self, o):
        return self.cents < o.cents
    def __le__(self, o):
        return self.cents <= o.cents
    def __repr__(self):
        return f"${self.cents // 100}.{self.cents % 100:02d}"
    def __bool__(self):
        return self.cents != 0
wallet = [Money(150), Money(275), Money(5)]
print(sum(wallet), sum(wallet, Money(0)), max(wallet), min(wallet), sorted(wallet), bool(Money(0)))
class Lazy:
    def __init__(self):
        self.calls = 0
    def __getattr__(self, name):
        self.calls += 1
        if name.startswith("x"):
            return len(name)
        raise AttributeError(name)
lz = Lazy()
print(lz.x, lz.xxx, hasattr(lz, "y"), getattr(lz, "y", "default"), lz.calls)
