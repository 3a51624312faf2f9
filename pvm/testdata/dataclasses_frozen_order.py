from dataclasses import dataclass, field, FrozenInstanceError, replace


@dataclass(frozen=True)
class Point:
    x: int
    y: int = 0

    def moved(self, dx, dy):
        return replace(self, x=self.x + dx, y=self.y + dy)


p = Point(1, 2)
print(p, hash(p) == hash(Point(1, 2)), {p: "here"}[Point(1, 2)], p.moved(3, 4))
try:
    p.x = 5
except FrozenInstanceError as e:
    print("FrozenInstanceError", e, isinstance(e, AttributeError))
try:
    del p.y
except FrozenInstanceError as e:
    print("FrozenInstanceError", e)
print(len({Point(0), Point(0), Point(1)}))


@dataclass(order=True)
class Bid:
    price: int
    bidder: str = field(compare=False)


bids = [Bid(5, "a"), Bid(9, "b"), Bid(7, "c")]
print(sorted(bids), max(bids), Bid(5, "x") == Bid(5, "y"), Bid(1, "a") < Bid(2, "a"), Bid(3, "q") >= Bid(3, "r"))
try:
    Bid(1, "a") < 5
except TypeError as e:
    print("TypeError", e)


@dataclass(order=True, frozen=True)
class Version:
    major: int
    minor: int
    patch: int = 0

    def __str__(self):
        return "%d.%d.%d" % (self.major, self.minor, self.patch)


vs = [Version(1, 10), Version(1, 2, 3), Version(0, 9)]
print([str(v) for v in sorted(vs)], Version(1, 2) < Version(1, 2, 1), repr(max(vs)))


@dataclass
class Order:
    item: str
    qty: int
    price: int
    total: int = field(init=False)

    def __post_init__(self):
        if self.qty <= 0:
            raise ValueError("qty must be positive")
        self.total = self.qty * self.price


o = Order("widget", 3, 4)
print(o, o.total)
try:
    Order("x", 0, 1)
except ValueError as e:
    print("ValueError", e)


@dataclass(eq=False)
class Node:
    name: str


n = Node("a")
print(n == Node("a"), n == n, hash(n) == hash(n))


@dataclass(unsafe_hash=True)
class Key:
    a: int
    b: str


print(hash(Key(1, "x")) == hash(Key(1, "x")), Key(1, "x") in {Key(1, "x")})


@dataclass
class Base:
    id: int
    kind: str = "base"


@dataclass
class Child(Base):
    extra: str = "e"


print(Child(1), Child(2, "c", "x"), [f for f in Child.__dataclass_fields__])
match Point(3, 0):
    case Point(x, 0):
        print("on axis", x)
