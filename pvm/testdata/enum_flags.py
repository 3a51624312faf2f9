from enum import Flag, IntFlag, auto, Enum, StrEnum


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()


rw = Perm.READ | Perm.WRITE
print(Perm.READ, Perm.WRITE.value, Perm.EXEC.value, rw, repr(rw), rw.value)
print(Perm.READ in rw, Perm.EXEC in rw, bool(rw & Perm.EXEC), rw & Perm.READ, list(rw))
print(repr(Perm(0)), bool(Perm(0)), repr(~Perm.READ), Perm(7), list(Perm))


class Role(IntFlag):
    USER = 1
    ADMIN = 2
    OWNER = 4


r = Role.USER | Role.ADMIN
print(r, int(r), r == 3, Role.ADMIN in r, r | 4, repr(Role.OWNER))


class Network(StrEnum):
    MAIN = auto()
    TEST = auto()


print(Network.MAIN, repr(Network.TEST), Network.MAIN == "main", Network("test"), Network.MAIN.upper())


class State(Enum):
    OPEN = "open"
    CLOSED = "closed"

    @classmethod
    def parse(cls, s):
        return cls(s.lower())

    def __str__(self):
        return self.value.upper()


print(State.parse("OPEN"), repr(State.CLOSED), [str(s) for s in State], f"{State.OPEN}")
Color = Enum("Color", "RED GREEN BLUE")
print(list(Color), Color.GREEN.value, Color(3))
Level = Enum("Level", [("LOW", 10), ("HIGH", 20)])
print(Level.HIGH, Level(10), Level["LOW"].value)
