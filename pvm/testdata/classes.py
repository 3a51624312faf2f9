class Animal:
    kind = "animal"
    count = 0
    def __init__(self, name):
        self.name = name
        Animal.count += 1
    def speak(self):
        return f"{self.name} makes a sound"
    def __repr__(self):
        return f"Animal({self.name!r})"
class Dog(Animal):
    kind = "dog"
    def speak(self):
        return super().speak() + " (woof)"
d = Dog("Rex")
a = Animal("Generic")
print(d.speak(), a.speak(), d.kind, a.kind, Animal.count, d)
print(isinstance(d, Animal), isinstance(a, Dog), issubclass(Dog, Animal), type(d).__name__, type(d) is Dog)
print(Dog.__mro__, Dog.__bases__, Dog.__name__)
class A:
    def who(self): return "A"
class B(A):
    def who(self): return "B" + super().who()
class C(A):
    def who(self): return "C" + super().who()
class D(B, C):
    def who(self): return "D" + super().who()
print(D().who(), [k.__name__ for k in D.__mro__])
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, o):
        return isinstance(o, Point) and (self.x, self.y) == (o.x, o.y)
    def __hash__(self):
        return hash((self.x, self.y))
    def __add__(self, o):
        return Point(self.x + o.x, self.y + o.y)
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __lt__(self, o):
        return (self.x, self.y) < (o.x, o.y)
p = Point(1, 2) + Point(3, 4)
print(p, p == Point(4, 6), p != Point(0, 0), {p: 1}[Point(4, 6)], sorted([Point(2, 1), Point(1, 5)]))
class WithClassStuff:
    factor = 3
    @staticmethod
    def s(x): return x * 2
    @classmethod
    def c(cls, x): return cls.factor * x
    @property
    def p(self): return "prop"
w = WithClassStuff()
print(w.s(2), WithClassStuff.s(3), w.c(2), WithClassStuff.c(3), w.p)
class Temp:
    def __init__(self): self._c = 0
    @property
    def c(self): return self._c
    @c.setter
    def c(self, v): self._c = v * 10
t = Temp()
t.c = 4
print(t.c)
print(getattr(t, "_c"), getattr(t, "nope", "dflt"), hasattr(t, "c"), hasattr(t, "zz"))
setattr(t, "new", 1)
print(t.new)
