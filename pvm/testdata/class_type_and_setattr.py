# type(name, bases, ns), object.__setattr__/__delattr__, renaming classes,
# class __annotations__ and __set_name__ through type().


class Base:
    def hello(self):
        return "hello from " + type(self).__name__


Derived = type("Derived", (Base,), {"x": 1, "double": lambda self: self.x * 2})
d = Derived()
print(d.hello(), d.double(), Derived.__bases__, Derived.__mro__, isinstance(d, Base))


class Named:
    def __set_name__(self, owner, name):
        self.where = owner.__name__ + "." + name


Made = type("Made", (), {"attr": Named()})
print(Made.attr.where)


class Guarded:
    def __init__(self):
        object.__setattr__(self, "locked", False)
        self.value = 1
        object.__setattr__(self, "locked", True)

    def __setattr__(self, name, value):
        if getattr(self, "locked", False):
            raise AttributeError("locked: " + name)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name == "value":
            raise AttributeError("cannot delete value")
        object.__delattr__(self, name)


g = Guarded()
print(g.value, g.locked)
try:
    g.value = 2
except AttributeError as e:
    print("AttributeError", e)
object.__setattr__(g, "extra", 3)
del g.extra
print(hasattr(g, "extra"))
try:
    del g.value
except AttributeError as e:
    print("AttributeError", e)


class Temp:
    pass


Temp.__name__ = "Renamed"
Temp.__qualname__ = "Renamed"
print(Temp.__name__, Temp, Temp().__class__.__name__)


class Annotated:
    a: int
    b: "str" = "x"
    c = 3


class Sub(Annotated):
    d: float = 1.0


print(Annotated.__annotations__, Sub.__annotations__, Annotated.b, hasattr(Annotated, "a"))
print(type(type), type(Annotated), type.__name__, isinstance(Annotated, type))
