def classify(cmd):
    match cmd.split():
        case ["go", direction]:
            return f"going {direction}"
        case ["pick", "up", item] | ["take", item]:
            return f"taking {item}"
        case ["drop", *items] if items:
            return f"dropping {', '.join(items)}"
        case ["quit" | "exit"]:
            return "bye"
        case []:
            return "empty"
        case _:
            return "unknown"
for c in ["go north", "pick up lamp", "take key", "drop a b", "drop", "quit", "exit", "", "dance"]:
    print(repr(c), "->", classify(c))
def shape(v):
    match v:
        case {"kind": "circle", "r": r}:
            return f"circle r={r}"
        case {"kind": "rect", "w": w, "h": h} if w == h:
            return f"square {w}"
        case {"kind": "rect", "w": w, "h": h}:
            return f"rect {w}x{h}"
        case {"kind": kind}:
            return f"unknown kind {kind}"
        case {}:
            return "empty mapping"
        case bool(b):
            return f"bool {b}"
        case int(i) | float(i):
            return f"number {i}"
        case True:
            return "never"
for v in [{"kind": "circle", "r": 2}, {"kind": "rect", "w": 3, "h": 3}, {"kind": "rect", "w": 1, "h": 2}, {"kind": "tri"}, {"x": 1}, True, 5, 2.5]:
    print(shape(v))
match 42:
    case x if x > 100:
        print("big")
    case x:
        print("captured", x)
