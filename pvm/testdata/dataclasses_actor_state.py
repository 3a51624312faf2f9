# Actor state modelled with dataclasses, enums and typing.
from dataclasses import dataclass, field, asdict, replace, fields
from enum import Enum
from typing import Dict, List, Optional


class Status(Enum):
    OPEN = "open"
    FILLED = "filled"
    CANCELLED = "cancelled"


@dataclass
class Order:
    id: int
    owner: str
    amount: int
    status: Status = Status.OPEN
    note: Optional[str] = None


@dataclass
class Book:
    name: str
    orders: Dict[int, Order] = field(default_factory=dict)
    log: List[str] = field(default_factory=list)
    next_id: int = 1

    def place(self, owner: str, amount: int) -> Order:
        o = Order(self.next_id, owner, amount)
        self.orders[o.id] = o
        self.next_id += 1
        self.log.append("place %d" % o.id)
        return o

    def fill(self, oid: int) -> None:
        self.orders[oid] = replace(self.orders[oid], status=Status.FILLED)
        self.log.append("fill %d" % oid)

    def open_total(self) -> int:
        return sum(o.amount for o in self.orders.values() if o.status is Status.OPEN)


b = Book("main")
b.place("ann", 10)
b.place("bob", 20)
b.place("ann", 5)
b.fill(2)
print(b.open_total(), b.orders[2], b.log)
state = asdict(b)
print(state["orders"][1], state["next_id"])
print([f.name for f in fields(Order)], [f.type for f in fields(Order)][:3])
print(Order(9, "z", 1) == Order(9, "z", 1, Status.OPEN, None), Order(1, "a", 2).status.value)
