# Large values reachable only through objects written in Go (a regex
# match's subject, a map iterator's source, a closure cell, a suspended
# generator's frame) still count as live.
import re


def run(make):
    keep = []
    try:
        for i in range(400):
            keep.append(make(i))
    except MemoryError:
        return len(keep)
    return -1


def closure(i):
    s = str(i) * 50000

    def f():
        return s
    return f


def gen(i):
    s = str(i % 10) * 100000
    yield len(s)
    yield s


def suspended(i):
    g = gen(i)
    next(g)
    return g


print("re.match", run(lambda i: re.match("a", "a" * 100000)))
print("map", run(lambda i: map(len, ["b" * 100000])))
print("closure", run(closure))
print("generator", run(suspended))


# Containers a builtin is still filling while a generator runs.
def building(make):
    try:
        c = make()
        return "built %d" % len(c)
    except MemoryError:
        return "MemoryError while building"


print("list(gen)", building(lambda: list("z" * 100000 for i in range(200))))
print("set(gen)", building(lambda: set(str(i) * 20000 for i in range(1000))))
print("dict(gen)", building(lambda: dict((i, "d" * 100000) for i in range(200))))


# A running function's own cell variable (no closure object exists).
def cell_in_running_frame():
    big = "c" * 9000000
    if big == "":
        def peek():
            return big
    keep = []
    try:
        for i in range(100):
            keep.append("k" * 100000)
    except MemoryError:
        return len(keep)
    return -1


print("cell of a running frame", cell_in_running_frame())
