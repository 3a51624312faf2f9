# Captures are bound only when the whole pattern matches (before the guard);
# an or-pattern binds only the successful alternative's names.


def is_bound(get):
    try:
        get()
        return True
    except NameError:
        return False


def partial_sequence():
    match (1, 2):
        case (x, 3):
            print("no")
        case _:
            pass
    try:
        print(x)
    except NameError as e:
        print("NameError", e)


partial_sequence()


match (1, 2):
    case (gx, 3):
        print("no")
    case _:
        pass
print(is_bound(lambda: gx))

# Guard failure keeps the bindings.
match (1, 2):
    case (a, b) if a > b:
        print("no")
    case _:
        print("guard failed, a =", a, "b =", b)


# Or-pattern: only the successful alternative binds.
def orpat(v):
    match v:
        case (1, p) | (p, 2):
            return p
        case [q, r] | {"q": q, "r": r}:
            return (q, r)
        case {"k": [k1, *ks]} | [k1, *ks]:
            return k1, ks
    return None


print(orpat((1, 5)), orpat((7, 2)), orpat([3, 4]), orpat({"q": 1, "r": 2}))
print(orpat({"k": [1, 2, 3]}), orpat((9, 8, 7)))


# Different order of names in the alternatives.
def order(v):
    match v:
        case (a, b, c) | [c, b, a, _] | {"c": c, "a": a, "b": b}:
            return a, b, c
    return "none"


print(order((1, 2, 3)), order([1, 2, 3, 4]), order({"a": 1, "b": 2, "c": 3}), order(5))


def order2(v):
    match v:
        case ((a, b, c, d, e) | [e, d, c, b, a, _] | (e, (a, b), (c, d))) as whole:
            return a, b, c, d, e, whole
    return "none"


print(order2((1, 2, 3, 4, 5)))
print(order2([1, 2, 3, 4, 5, 6]))
print(order2((1, (2, 3), (4, 5))))


# A mapping pattern that fails on the second key binds nothing.
def mapping_partial():
    match {"a": 1, "b": 2}:
        case {"a": m1, "b": 3}:
            pass
        case {"a": 1, **rest} if False:
            pass
    try:
        print(m1)
    except NameError:
        print("m1 unbound")
    print(rest)


mapping_partial()


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def cls_partial():
    match Point(1, 2):
        case Point(px, 3):
            pass
        case Point(x=qx, y=qy) if qx == 1:
            print("class", qx, qy)
    try:
        print(px)
    except NameError:
        print("px unbound")


cls_partial()


# As-patterns.
def as_partial():
    match [1, [2, 3]]:
        case [a1, [b1, 4] as inner]:
            pass
        case [a2, [b2, c2] as inner2]:
            print("as", a2, b2, c2, inner2)
    for get in (lambda: a1, lambda: b1, lambda: inner, lambda: a2):
        try:
            print(get())
        except NameError as e:
            print(e)


as_partial()


# Nested or inside sequence with captures before and after.
def nested(v):
    match v:
        case [first, (1 | 2) as mid, *rest, last] if last != 0:
            return first, mid, rest, last
        case [first, ("x", y) | ("y", y), last]:
            return "xy", first, y, last
    return "none"


print(nested([0, 1, 5, 6, 7]), nested([0, 3, 1]), nested([0, 2, 0]))
print(nested(["f", ("y", 9), "l"]), nested(["f", ("z", 9), "l"]))


# A failing later case does not overwrite an earlier guard-failed binding.
def keep(v):
    match v:
        case [z] if z > 10:
            return "big"
        case [z, 1]:
            return "pair"
    return z


print(keep([5]))


# Many captures (deep rotations).
match (1, 2, 3, 4, 5, 6, 7, 8):
    case (c1, c2, c3, c4, c5, c6, c7, 9):
        print("no")
    case (d1, d2, d3, d4, d5, d6, d7, d8):
        print(d1, d2, d3, d4, d5, d6, d7, d8)
print(is_bound(lambda: c1), is_bound(lambda: c7), is_bound(lambda: d8))

# Captures in a closure cell.


def cell():
    match (1, 2):
        case (u, 3):
            pass
        case (u, v):
            pass

    def inner():
        return u + v
    return inner()


print(cell())
