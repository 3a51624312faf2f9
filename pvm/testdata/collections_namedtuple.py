from collections import namedtuple

Point = namedtuple("Point", ["x", "y"])
p = Point(1, 2)
print(p, p.x, p.y, p[0], len(p), p == (1, 2))
print(Point._fields, p._asdict(), p._replace(y=5))
q = Point(x=3, y=4)
x, y = q
print(x + y, sum(q), max(q), tuple(q), isinstance(q, tuple))
Account = namedtuple("Account", "owner balance currency", defaults=["USD"])
acct = Account("ann", 100)
print(acct, acct.currency, Account._field_defaults)
print(Account._make(["bob", 5, "EUR"]))
try:
    Point(1)
except TypeError as e:
    print("TypeError", e)
try:
    Point(1, 2, 3)
except TypeError as e:
    print("TypeError", e)
try:
    p._replace(z=1)
except ValueError as e:
    print("ValueError", e)
ledger = {Point(0, 0): "origin", Point(1, 2): "p"}
print(ledger[(1, 2)], sorted([Point(2, 1), Point(1, 5), Point(1, 2)]))
try:
    p.x = 9
except AttributeError:
    print("read-only")
Row = namedtuple("Row", "a, b", rename=True)
print(Row(1, 2), type(p).__name__)
class Vec(namedtuple("Vec", "x y")):
    def norm2(self):
        return self.x * self.x + self.y * self.y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
v = Vec(3, 4)
print(v, v.norm2(), v + Vec(1, 1))
match p:
    case Point(x=1, y=yy):
        print("matched", yy)
