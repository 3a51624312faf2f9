# An assignment expression in a comprehension binds in the enclosing
# function (PEP 572) also when the comprehension mentions the name first
# there: the PVM compiled the store as a global, and the function's read
# of the name raised UnboundLocalError.


def last_square(xs):
    squares = [(last := x * x) for x in xs]
    return squares, last


print(last_square([1, 2, 3]))


def first_big(xs):
    if any((hit := x) > 10 for x in xs):
        return hit
    return None


print(first_big([3, 12, 40]), first_big([1]))


def running(xs):
    total = 0
    sums = [(total := total + x) for x in xs]
    return sums, total


print(running([1, 2, 3, 4]))


def nested(rows):
    out = [[(cell := v) for v in row] for row in rows]
    return out, cell


print(nested([[1, 2], [3]]))


def closure():
    vals = {k: (seen := k * 2) for k in range(3)}

    def get():
        return seen

    return vals, get()


print(closure())


class Holder:
    def scan(self, xs):
        found = [y for x in xs if (y := x % 3)]
        return found, y


print(Holder().scan([3, 4, 5]))

module_level = [(mv := i) for i in range(4)]
print(module_level, mv)
