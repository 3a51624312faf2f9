from typing import NamedTuple, TypedDict, Optional, List


class Position(NamedTuple):
    symbol: str
    qty: int
    price: float = 0.0

    def value(self) -> float:
        return self.qty * self.price


p = Position("ABC", 10, 2.5)
print(p, p.value(), p.symbol, p._fields, p._replace(qty=1), Position("X", 1))
print(isinstance(p, tuple), Position.__annotations__, p == ("ABC", 10, 2.5), tuple(p))
sym, qty, price = p
print(sym, qty, price, Position._field_defaults)
Employee = NamedTuple("Employee", [("name", str), ("id", int)])
print(Employee("guido", 3), Employee._fields)


class Movie(TypedDict):
    title: str
    year: int


m = Movie(title="Blade Runner", year=1982)
print(m, type(m), m["year"], Movie.__annotations__)
m["year"] += 1
print(m)


class Partial(TypedDict, total=False):
    note: Optional[str]


print(Partial(), Partial(note="x"), Partial.__total__)
Point = TypedDict("Point", {"x": int, "y": int})
print(Point(x=1, y=2), Point.__annotations__)


class Book(NamedTuple):
    title: str
    authors: List[str] = []


print(Book("T"), Book("U", ["a"]).authors)
