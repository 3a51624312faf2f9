# A class knows its __qualname__ (PEP 3155): Outer.Inner, f.<locals>.C,
# shown by its repr and by reprs built on it (dataclasses, enum errors).
class Outer:
    class Inner:
        class Deep:
            pass
    def f(self):
        class L:
            pass
        return L
print(Outer.Inner.__qualname__, Outer.Inner.Deep.__qualname__, Outer().f().__qualname__)
print(Outer.Inner, Outer().f(), Outer.Inner.__name__)
def make():
    class Local:
        pass
    return Local
print(make(), make().__qualname__)
T = type('T', (), {})
print(T, T.__qualname__)
U = type('U', (), {'__qualname__': 'Custom.U'})
print(U, U.__qualname__, U.__name__)
try:
    type('V', (), {'__qualname__': 5})
except TypeError as e:
    print('TypeError', e)
Outer.Inner.__name__ = 'Renamed'
print(Outer.Inner.__name__, Outer.Inner.__qualname__, Outer.Inner)
Outer.Inner.__qualname__ = 'Q.R'
print(Outer.Inner.__name__, Outer.Inner.__qualname__, Outer.Inner)
try:
    Outer.Inner.__qualname__ = 3
except TypeError as e:
    print('TypeError', e)
print(int.__qualname__, int, ValueError.__qualname__)
import dataclasses
class Box:
    @dataclasses.dataclass
    class Item:
        n: int
print(Box.Item(3))
import enum
class Holder:
    class Color(enum.Enum):
        RED = 1
try:
    Holder.Color(5)
except ValueError as e:
    print('ValueError', e)
print(Holder.Color.RED, repr(Holder.Color.RED), Holder.Color)
class M(type):
    pass
class WithMeta(metaclass=M):
    class N(metaclass=M):
        pass
print(WithMeta.N, WithMeta.N.__qualname__)
