# namedtuple: fields, defaults, _replace, _asdict, _make, unpacking, sorting.
from collections import namedtuple

Trade = namedtuple("Trade", ["sym", "px", "qty"])
Point = namedtuple("Point", "x y", defaults=[0])
t = Trade("ETH", 3000, 2)
print(t, t.sym, t[1], t[-1], len(t), t._fields, Point(1), Point._fields)
sym, px, qty = t
print(sym, px * qty, t._asdict(), t._replace(qty=5), Trade._make(["BTC", 60000, 1]))
print(t == ("ETH", 3000, 2), isinstance(t, tuple), t + (1,), t[:2], list(t))
trades = [Trade("SOL", 100, 5), Trade("ETH", 3000, 1), Trade("BTC", 60000, 2), Trade("ETH", 2900, 3)]
print(sorted(trades), sorted(trades, key=lambda x: x.px * x.qty)[-1].sym)
print(max(trades, key=lambda x: x.qty), {tr.sym for tr in trades} == {"SOL", "ETH", "BTC"})
try:
    t.px = 1
except AttributeError as e:
    print("AttributeError:", e)
try:
    Trade("A", 1)
except TypeError as e:
    print("TypeError:", e)
print(Point(3, 4)._replace(x=0), Point(y=2, x=1), hash(Point(1, 2)) == hash((1, 2)))


class Vec(namedtuple("Vec", "x y")):
    __slots__ = ()

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def norm2(self):
        return self.x ** 2 + self.y ** 2


v = Vec(1, 2) + Vec(3, 4)
print(v, v.norm2(), type(v).__name__, v._asdict())
by_sym = {}
for tr in trades:
    by_sym.setdefault(tr.sym, []).append(tr.qty)
print(by_sym, dict(zip(Trade._fields, t)))
