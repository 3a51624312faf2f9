from dataclasses import dataclass, field, fields, asdict, FrozenInstanceError


@dataclass
class Event:
    kind: str
    height: int = 0


@dataclass
class Transfer(Event):
    amount: int = 0
    to: str = "nobody"

    def describe(self):
        return "%s %d -> %s @%d" % (self.kind, self.amount, self.to, self.height)


t = Transfer("transfer", 7, 100, "bob")
print(t, t.describe(), [f.name for f in fields(t)], isinstance(t, Event))
print(Transfer("x") == Transfer("x"), Transfer("x") == Event("x"), asdict(t))


@dataclass
class Mint(Event):
    kind: str = "mint"
    amount: int = 1


print(Mint(), Mint(height=3), [f.name for f in fields(Mint)])


@dataclass(frozen=True)
class Key:
    ns: str
    id: int


@dataclass(frozen=True)
class Versioned(Key):
    version: int = 1


v = Versioned("acct", 5)
print(v, hash(v) == hash(Versioned("acct", 5)), v == Versioned("acct", 5, 1))
try:
    v.version = 2
except FrozenInstanceError as e:
    print("FrozenInstanceError", e)
try:
    @dataclass
    class Thawed(Key):
        extra: int = 0
except TypeError as e:
    print("TypeError", e)


@dataclass
class Counter:
    counts: dict = field(default_factory=dict)
    total: int = 0

    def add(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n
        self.total += n


c1, c2 = Counter(), Counter()
c1.add("a")
c1.add("b", 3)
print(c1, c2, c1.counts is not c2.counts)


@dataclass
class Plain:
    def method(self):
        return 1


print(Plain(), Plain() == Plain(), fields(Plain))
try:
    fields(5)
except TypeError as e:
    print("TypeError", e)
