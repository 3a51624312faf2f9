# str.join and bytes.join make a list of an iterable that is not a list or
# tuple before they look at any item (CPython's PySequence_Fast): the
# iterator runs to its end, and an error it raises comes before the type
# error of an earlier item.


def gen(items, log):
    for x in items:
        log.append(x)
        yield x


def boom(items):
    for x in items:
        yield x
    raise ValueError("iterator failed after %d items" % len(items))


def show(label, f):
    try:
        print(label, repr(f()))
    except Exception as e:
        print(label, type(e).__name__, e)


# A wrong item early: the whole generator is consumed first.
log = []
g = gen(["a", 1, "b", "c"], log)
show("str wrong item", lambda: "-".join(g))
print("consumed", log, "left", list(g))

log = []
g = gen([b"a", 1, b"b"], log)
show("bytes wrong item", lambda: b"-".join(g))
print("consumed", log, "left", list(g))

log = []
g = gen([b"a", "x", b"b"], log)
show("bytearray wrong item", lambda: bytearray(b"-").join(g))
print("consumed", log, "left", list(g))

# The iterator's own error wins over an earlier wrong item.
show("str iterator error", lambda: ",".join(boom(["a", 2])))
show("bytes iterator error", lambda: b",".join(boom([b"a", 2])))

# Successful joins over every kind of iterable.
show("str gen", lambda: "+".join(str(i) for i in range(5)))
show("str map", lambda: "".join(map(str.upper, "abc")))
show("str dict", lambda: ",".join({"x": 1, "y": 2}))
show("str dict values", lambda: ",".join({"x": "1", "y": "2"}.values()))
show("str set of one", lambda: "/".join({"only"}))
show("str iter of list", lambda: "|".join(iter(["p", "q"])))
show("str string", lambda: ".".join("xyz"))
show("str empty gen", lambda: ".".join(x for x in ""))
show("bytes gen", lambda: b" ".join(bytes([65 + i]) for i in range(3)))
show("bytes mixed", lambda: b"".join(iter([b"a", bytearray(b"b"), b"c"])))
show("bytearray gen", lambda: bytearray(b":").join(x for x in [b"1", b"2"]))

# Wrong items in lists and tuples: the first wrong one is named.
show("str list", lambda: "".join(["a", "b", 3, None]))
show("str tuple", lambda: "".join(("a", b"b")))
show("bytes list", lambda: b"".join([b"a", "b"]))

# Not iterable at all.
show("str int", lambda: "".join(5))
show("bytes int", lambda: b"".join(5))
show("bytearray None", lambda: bytearray().join(None))


# A class whose __iter__ is Python code, with a wrong item.
class Bag:
    def __init__(self, items):
        self.items = items
        self.calls = 0

    def __iter__(self):
        self.calls += 1
        return iter(self.items)


b = Bag(["x", "y"])
show("str bag", lambda: "&".join(b))
print("bag iter calls", b.calls)
b = Bag(["x", 9, "y"])
show("str bag wrong", lambda: "&".join(b))
print("bag iter calls", b.calls)


# __iter__ raising: its own error passes through, except a TypeError,
# which becomes the join's message.
class Broken:
    def __init__(self, exc):
        self.exc = exc

    def __iter__(self):
        raise self.exc


show("str iter raises ValueError", lambda: "".join(Broken(ValueError("no"))))
show("str iter raises TypeError", lambda: "".join(Broken(TypeError("no"))))
show("bytes iter raises KeyError", lambda: b"".join(Broken(KeyError("k"))))
