class Base:
    def __init__(self, v):
        self.v = v
    def describe(self):
        return f"{type(self).__name__}:{self.v}:{self.extra()}"
    def extra(self):
        return "base"
class Mid(Base):
    def __init__(self, v, w):
        super().__init__(v)
        self.w = w
    def extra(self):
        return "mid" + str(self.w)
class Leaf(Mid):
    pass
print(Leaf(1, 2).describe(), Base(0).describe())
class Left:
    def hello(self): return "left"
class Right:
    def hello(self): return "right"
    def only_right(self): return "only right"
class Both(Left, Right): pass
b = Both()
print(b.hello(), b.only_right(), [c.__name__ for c in Both.__mro__])
class Meta:
    registry = []
    @classmethod
    def register(cls, name):
        cls.registry.append(name)
        return cls
Meta.register("a").register("b")
print(Meta.registry)
class Shape:
    def area(self):
        raise NotImplementedError
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
try:
    Shape().area()
except NotImplementedError:
    print("abstract")
print(Sq(3).area(), isinstance(Sq(1), Shape))
class Cnt:
    n = 0
    def __init__(self):
        type(self).n += 1
Cnt(); Cnt()
print(Cnt.n)
