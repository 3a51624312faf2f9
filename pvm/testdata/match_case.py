def describe(x):
    match x:
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case int(n) if n < 0:
            return f"negative {n}"
        case str() as s:
            return f"string {s}"
        case [a, b]:
            return f"pair {a} {b}"
        case [first, *rest]:
            return f"list starting {first} with {len(rest)} more"
        case {"type": "point", "x": px, **others}:
            return f"point x={px} others={others}"
        case (1, _):
            return "never (tuple is sequence above)"
        case None:
            return "none"
        case _:
            return "other"
for v in [0, 2, -5, "hi", [1, 2], [1, 2, 3], (9,), {"type": "point", "x": 1, "y": 2}, None, 3.5, {}]:
    print(describe(v))
class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
def where(p):
    match p:
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x, 0):
            return f"on x axis at {x}"
        case Point():
            return "elsewhere"
for p in [Point(0, 0), Point(0, 5), Point(3, 0), Point(1, 1)]:
    print(where(p))
match (1, "a"):
    case (1, "b"):
        print("no")
    case (1, "a"):
        print("tuple matched")
