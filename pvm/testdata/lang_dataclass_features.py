# dataclasses: defaults, factories, __post_init__, ordering, frozen, asdict, replace.
from dataclasses import dataclass, field, asdict, astuple, fields, replace


@dataclass
class Order:
    oid: int
    side: str
    price: int
    qty: int = 1
    tags: list = field(default_factory=list)
    notional: int = field(init=False, repr=False)

    def __post_init__(self):
        if self.side not in ("buy", "sell"):
            raise ValueError(f"bad side {self.side}")
        self.notional = self.price * self.qty


@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int = 0
    patch: int = 0

    def bump(self):
        return replace(self, patch=self.patch + 1)


o = Order(1, "buy", 100, 3)
print(o, o.notional)
o.tags.append("vip")
print(Order(2, "sell", 50), o == Order(1, "buy", 100, 3, ["vip"]), o != Order(1, "buy", 100, 3))
print(asdict(o), astuple(Version(1, 2)))
print([f.name for f in fields(Order)])
try:
    Order(3, "hold", 1)
except ValueError as e:
    print("ValueError:", e)
vs = [Version(1, 2, 3), Version(1, 0), Version(0, 9, 9), Version(1, 2)]
print(sorted(vs), max(vs), Version(1) < Version(1, 0, 1), vs[0].bump())
try:
    vs[0].major = 2
except Exception as e:
    print(type(e).__name__, e)
print(hash(Version(1, 2)) == hash(Version(1, 2)), len({Version(1), Version(1, 0, 0)}))
try:
    Order()
except TypeError as e:
    print("TypeError:", e)


@dataclass
class Node:
    name: str
    children: list = field(default_factory=list)

    def walk(self, depth=0):
        yield depth, self.name
        for c in self.children:
            yield from c.walk(depth + 1)


tree = Node("root", [Node("a", [Node("a1")]), Node("b")])
print(list(tree.walk()))
print(asdict(tree))
print(replace(o, qty=10).notional, o.qty)
