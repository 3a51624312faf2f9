# The object model's cached dunder lookups (__bool__, __len__, __iter__,
# __next__, __hash__ on instances) must follow every change of the class
# or its bases, as a plain lookup does.


class Base:
    pass


class Node(Base):
    def __init__(self, n):
        self.n = n


def probe(x):
    out = [bool(x)]
    try:
        out.append(len(x))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(list(x))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(hash(x) == hash(x))
    except TypeError as e:
        out.append(str(e))
    return out


a = Node(3)
for step in range(2):
    print(step, probe(a))
Base.__len__ = lambda self: self.n
print("len on the base", probe(a))
Node.__bool__ = lambda self: False
print("bool", probe(a))
Base.__iter__ = lambda self: iter(range(self.n))
print("iter", probe(a))


def stop(self):
    raise StopIteration


Node.__iter__ = lambda self: self
Node.__next__ = stop
print("next", probe(a))
del Node.__iter__
print("iter from the base again", probe(a))
Node.__hash__ = None
print("unhashable", probe(a))
del Node.__hash__
del Node.__bool__
print("back", probe(a), bool(Node(0)))


class Counter:
    def __init__(self):
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.i += 1
        if self.i > 3:
            raise StopIteration
        return self.i


c = Counter()
print(list(c), next(iter(Counter())))
Counter.__next__ = lambda self: 1 / 0
try:
    next(Counter())
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)


class Made:
    def __init__(self):
        self.how = "init"


print([Made().how for _ in range(2)])
Made.__init__ = lambda self: setattr(self, "how", "replaced init")
print(Made().how)


def new(cls):
    o = object.__new__(cls)
    o.how = "new"
    return o


Made.__new__ = new
del Made.__init__
print(Made().how, isinstance(Made(), Made))
