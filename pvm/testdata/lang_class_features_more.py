# Class features: class vs instance attrs, __init_subclass__, __class_getitem__-free
# registries, __eq__/__hash__ interplay, __repr__/__str__ fallbacks, isinstance.
class Base:
    registry = {}
    kind = "base"

    def __init_subclass__(cls, kind=None, **kw):
        super().__init_subclass__(**kw)
        cls.kind = kind or cls.__name__.lower()
        Base.registry[cls.kind] = cls

    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"{type(self).__name__}({self.v!r})"

    def describe(self):
        return f"{self.kind}:{self.v}"


class Mint(Base, kind="mint"):
    pass


class Burn(Base):
    def describe(self):
        return "burn! " + super().describe()


class BigBurn(Burn, kind="big"):
    pass


print(sorted(Base.registry), Mint.kind, Burn.kind, BigBurn.kind, Base.kind)
objs = [Base.registry[k](i) for i, k in enumerate(["mint", "burn", "big"])]
print(objs, [o.describe() for o in objs])
print(isinstance(objs[2], Burn), isinstance(objs[1], BigBurn), type(objs[2]) is BigBurn, BigBurn.__mro__[1].__name__)
print(str(objs[0]), f"{objs[0]}", [str(o) for o in objs])


class NoRepr:
    pass


n = NoRepr()
print(type(n).__name__, str(type(n)), NoRepr.__name__, NoRepr.__qualname__, NoRepr.__module__)


class Key:
    def __init__(self, k):
        self.k = k

    def __eq__(self, other):
        return isinstance(other, Key) and self.k.lower() == other.k.lower()

    def __hash__(self):
        return hash(self.k.lower())


d = {Key("ABC"): 1}
d[Key("abc")] = 2
print(len(d), d[Key("aBc")], Key("x") == Key("X"), Key("x") != Key("y"), Key("x") == "x")


class EqOnly:
    def __eq__(self, other):
        return True


try:
    hash(EqOnly())
except TypeError as e:
    print("TypeError:", e)


class Counter:
    count = 0

    def __init__(self):
        Counter.count += 1
        self.id = Counter.count


a, b, c = Counter(), Counter(), Counter()
print(a.id, c.id, Counter.count, a.count)
a.count = 100
print(a.count, b.count, Counter.count)
print(hasattr(Counter, "__init__"), "id" in vars(a), getattr(Counter, "count"))
