from enum import Enum, IntEnum, auto, unique


class Status(Enum):
    PENDING = 1
    ACTIVE = 2
    CLOSED = 3

    def is_open(self):
        return self is not Status.CLOSED

    @property
    def label(self):
        return self.name.lower()


print(Status.ACTIVE, repr(Status.ACTIVE), Status.ACTIVE.name, Status.ACTIVE.value)
print(Status(2), Status["CLOSED"], Status(2) is Status.ACTIVE, list(Status), len(Status))
print([s.label for s in Status], Status.PENDING.is_open(), Status.CLOSED.is_open())
print(Status.ACTIVE == Status.ACTIVE, Status.ACTIVE == 2, Status.ACTIVE != Status.CLOSED)
print(isinstance(Status.ACTIVE, Status), type(Status.ACTIVE), Status, Status.__members__)
print(Status.ACTIVE in Status, f"{Status.PENDING}", "%s" % Status.CLOSED)
try:
    Status(9)
except ValueError as e:
    print("ValueError", e)
try:
    Status["NOPE"]
except KeyError as e:
    print("KeyError", e)
try:
    Status.ACTIVE = 5
except AttributeError as e:
    print("AttributeError", e)
try:
    Status.ACTIVE < Status.CLOSED
except TypeError as e:
    print("TypeError", e)
d = {Status.ACTIVE: "a", Status.CLOSED: "c"}
print(d[Status.ACTIVE], sorted(s.value for s in d))


class Color(Enum):
    RED = auto()
    GREEN = auto()
    BLUE = auto()


print(list(Color), Color.BLUE.value)


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 5
    HIGH = 10


print(Priority.HIGH, repr(Priority.HIGH), Priority.HIGH > Priority.LOW, Priority.LOW + 1, Priority.MEDIUM == 5)
print(sorted([Priority.HIGH, Priority.LOW, Priority.MEDIUM]), Priority(5), int(Priority.HIGH), f"{Priority.LOW:03d}")
print([10, 20, 30][Priority.LOW], max(Priority), Priority.MEDIUM * 2, isinstance(Priority.LOW, int))


class Shape(Enum):
    SQUARE = 2
    DIAMOND = 1
    CIRCLE = 3
    ALIAS_FOR_SQUARE = 2


print(Shape.ALIAS_FOR_SQUARE, Shape(2), list(Shape), len(Shape), Shape.__members__["ALIAS_FOR_SQUARE"])
try:
    @unique
    class Mistake(Enum):
        ONE = 1
        TWO = 2
        THREE = 2
except ValueError as e:
    print("ValueError", e)


class Planet(Enum):
    MERCURY = (3.303e+23, 2.4397e6)
    EARTH = (5.976e+24, 6.37814e6)

    def __init__(self, mass, radius):
        self.mass = mass
        self.radius = radius


print(Planet.EARTH.mass, Planet.EARTH.value, Planet((3.303e+23, 2.4397e6)))
match Status.ACTIVE:
    case Status.PENDING:
        print("pending")
    case Status.ACTIVE:
        print("active")
