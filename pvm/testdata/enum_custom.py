from enum import Enum, IntEnum, auto


class Coin(Enum):
    PENNY = 1
    NICKEL = 5
    DIME = 10

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            for m in cls:
                if m.name == value.upper():
                    return m
        return None

    def __lt__(self, other):
        if self.__class__ is other.__class__:
            return self.value < other.value
        return NotImplemented


print(Coin("dime"), Coin(5), sorted([Coin.DIME, Coin.PENNY, Coin.NICKEL]))
try:
    Coin("quarter")
except ValueError as e:
    print("ValueError", e)


class Unit(Enum):
    def __new__(cls, symbol, factor):
        obj = object.__new__(cls)
        obj._value_ = symbol
        obj.factor = factor
        return obj

    GRAM = ("g", 1)
    KILO = ("kg", 1000)


print(Unit.KILO, Unit.KILO.value, Unit.KILO.factor, Unit("g"), [u.factor for u in Unit])


class Ordered(Enum):
    def _generate_next_value_(name, start, count, last_values):
        return name.lower() + str(count)

    FIRST = auto()
    SECOND = auto()


print([m.value for m in Ordered])


class Level(IntEnum):
    DEBUG = 10
    INFO = 20
    WARN = 30
    WARNING = 30


print(Level.WARNING, Level.WARNING is Level.WARN, list(Level), Level(30).name, len(Level))
print(Level.INFO < 25, Level.DEBUG + Level.INFO, -Level.INFO, Level.WARN // 7, abs(Level.INFO))
print(Coin.PENNY.__class__.__name__, type(Coin).__name__, isinstance(Coin.DIME, Enum), issubclass(Level, int))
try:
    class Extend(Coin):
        QUARTER = 25
except TypeError as e:
    print("TypeError", e)
