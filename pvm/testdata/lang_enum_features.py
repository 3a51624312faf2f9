# Enum, IntEnum and auto: iteration, lookup, aliases, methods.
from enum import Enum, IntEnum, auto


class Status(Enum):
    PENDING = "pending"
    ACTIVE = "active"
    CLOSED = "closed"

    @property
    def is_open(self):
        return self is not Status.CLOSED

    @classmethod
    def parse(cls, s):
        return cls(s.lower())


class Priority(IntEnum):
    LOW = 1
    MEDIUM = 2
    HIGH = 3


class Step(Enum):
    FIRST = auto()
    SECOND = auto()
    THIRD = auto()
    ALIAS = 1


print(list(Status), [s.value for s in Status], Status.ACTIVE.name, Status("closed"))
print(Status.parse("ACTIVE"), Status["PENDING"], Status.ACTIVE.is_open, Status.CLOSED.is_open)
print(repr(Status.ACTIVE), str(Status.ACTIVE), f"{Status.ACTIVE}", type(Status.ACTIVE).__name__)
print(Priority.HIGH > Priority.LOW, Priority.MEDIUM + 1, Priority(2), sorted([Priority.HIGH, Priority.LOW]))
print(Priority.HIGH == 3, int(Priority.LOW), [p.name for p in Priority], max(Priority))
print(list(Step), Step.ALIAS is Step.FIRST, Step.THIRD.value, len(Step))
try:
    Status("archived")
except ValueError as e:
    print("ValueError:", e)
try:
    Status["ARCHIVED"]
except KeyError as e:
    print("KeyError:", e)
counts = {s: 0 for s in Status}
counts[Status.ACTIVE] += 2
print({s.name: n for s, n in counts.items()})
print(Status.ACTIVE in Status, isinstance(Status.ACTIVE, Status), Status.ACTIVE == "active")
match Status.parse("closed"):
    case Status.PENDING | Status.ACTIVE:
        print("still going")
    case Status.CLOSED:
        print("done")
print(Status.__members__.keys() if hasattr(Status, "__members__") else "", Priority.HIGH.value * 10)
