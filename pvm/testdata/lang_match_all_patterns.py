# match/case with every pattern kind.
from dataclasses import dataclass
from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2


@dataclass
class Point:
    x: int
    y: int


class Transfer:
    __match_args__ = ("src", "dst", "amount")

    def __init__(self, src, dst, amount):
        self.src, self.dst, self.amount = src, dst, amount

    def __repr__(self):
        return f"Transfer({self.src!r}, {self.dst!r}, {self.amount})"


def describe(msg):
    match msg:
        case None:
            return "none"
        case True:
            return "true"
        case 0 | 1 | 2:
            return f"small int {msg}"
        case int(n) if n < 0:
            return f"negative {n}"
        case float() | int():
            return f"number {msg}"
        case "ping" | "PING":
            return "pong"
        case str(s) if s.startswith("cmd:"):
            return f"command {s[4:]!r}"
        case str():
            return f"text of {len(msg)}"
        case Color.RED:
            return "red!"
        case Color():
            return f"color {msg.name}"
        case []:
            return "empty list"
        case [x]:
            return f"one item {x}"
        case [x, y] if x == y:
            return f"pair of equal {x}"
        case (first, *rest) if isinstance(msg, tuple):
            return f"tuple head {first} rest {rest}"
        case [first, *_, last]:
            return f"list {first}..{last}"
        case {"op": "transfer", "amount": int(amt), **extra}:
            return f"transfer {amt} extra={sorted(extra)}"
        case {"op": op}:
            return f"op {op}"
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0) | Point(y=0):
            return "on an axis"
        case Point(x=px, y=py) as p:
            return f"point {px},{py} {p}"
        case Transfer(src, dst, amount=a) if a > 100:
            return f"big transfer {src}->{dst} {a}"
        case Transfer(_, "treasury", _):
            return "to treasury"
        case Transfer():
            return "transfer"
        case {}:
            return "empty-ish mapping"
        case _:
            return f"unknown {type(msg).__name__}"


samples = [None, True, 0, 2, -5, 7, 2.5, "ping", "cmd:halt", "hello", Color.RED, Color.GREEN,
           [], [9], [3, 3], [3, 4], (1, 2, 3), [1, 2, 3, 4], {"op": "transfer", "amount": 5, "memo": "x", "a": 1},
           {"op": "burn"}, {"x": 1}, Point(0, 0), Point(0, 5), Point(2, 3), Transfer("a", "b", 500),
           Transfer("a", "treasury", 5), Transfer("a", "b", 5), {1, 2}, b"raw", (), False]
for s in samples:
    print(repr(s)[:40], "=>", describe(s))


def nested(cmd):
    match cmd.split():
        case ["go", ("north" | "south") as d]:
            return f"moving {d}"
        case ["take", *items] if items:
            return f"taking {', '.join(items)}"
        case ["say", *words]:
            return " ".join(words) or "(silence)"
        case [("q" | "quit")]:
            return "bye"
        case _:
            return "?"


for c in ["go north", "go west", "take a b", "take", "say", "say hi there", "q", ""]:
    print(repr(c), nested(c))

match {"a": [1, {"b": (2, 3)}]}:
    case {"a": [_, {"b": (x, y)}]}:
        print("deep", x, y)
