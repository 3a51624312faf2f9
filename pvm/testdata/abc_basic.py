from abc import ABC, ABCMeta, abstractmethod


class Shape(ABC):
    @abstractmethod
    def area(self):
        ...

    @abstractmethod
    def perimeter(self):
        ...

    def describe(self):
        return "%s with area %s" % (type(self).__name__, self.area())


class Square(Shape):
    def __init__(self, side):
        self.side = side

    def area(self):
        return self.side * self.side

    def perimeter(self):
        return 4 * self.side


try:
    Shape()
except TypeError as e:
    print("TypeError", e)


class HalfDone(Shape):
    def area(self):
        return 0


try:
    HalfDone()
except TypeError as e:
    print("TypeError", e)
sq = Square(3)
print(sq.area(), sq.perimeter(), sq.describe(), isinstance(sq, Shape), issubclass(Square, Shape))
print(sorted(Shape.__abstractmethods__), sorted(Square.__abstractmethods__), type(Shape) is ABCMeta)


class Storage(metaclass=ABCMeta):
    @abstractmethod
    def get(self, key):
        pass

    @property
    @abstractmethod
    def name(self):
        pass

    @classmethod
    @abstractmethod
    def create(cls):
        pass


class Memory(Storage):
    def __init__(self):
        self.d = {}

    def get(self, key):
        return self.d.get(key)

    @property
    def name(self):
        return "memory"

    @classmethod
    def create(cls):
        return cls()


try:
    Storage()
except TypeError as e:
    print("TypeError", e)
m = Memory.create()
print(m.name, m.get("x"), isinstance(m, Storage))


class Plugin(ABC):
    pass


class Ext:
    pass


Plugin.register(Ext)
print(isinstance(Ext(), Plugin), issubclass(Ext, Plugin), isinstance(3, Plugin), type(Plugin()).__name__)


class Base(ABC):
    @abstractmethod
    def run(self):
        return "base-run"


class Impl(Base):
    def run(self):
        return "impl+" + super().run()


print(Impl().run())
