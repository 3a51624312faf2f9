from dataclasses import dataclass, field, InitVar, KW_ONLY, fields, make_dataclass


@dataclass
class Config:
    name: str
    _: KW_ONLY
    retries: int = 3
    verbose: bool = False


c = Config("svc", retries=5)
print(c)
try:
    Config("svc", 5)
except TypeError as e:
    print("TypeError", e)


@dataclass(kw_only=True)
class Opts:
    a: int
    b: int = 2


print(Opts(a=1), Opts(b=3, a=0))
try:
    Opts()
except TypeError as e:
    print("TypeError", e)


@dataclass
class Secret:
    user: str
    password: InitVar[str]
    digest: int = field(init=False)

    def __post_init__(self, password):
        self.digest = len(password) * 7


s = Secret("ann", "hunter2")
print(s, s.digest, [f.name for f in fields(s)])
Point3 = make_dataclass("Point3", [("x", int), ("y", int), ("z", int, field(default=0))])
print(Point3(1, 2), Point3(1, 2, 3) == Point3(1, 2, 3))


@dataclass
class WithClassVar:
    count: int = 0
    total = 10


print(WithClassVar(), WithClassVar.total, [f.name for f in fields(WithClassVar)])


@dataclass(repr=False)
class Quiet:
    x: int

    def __repr__(self):
        return "Quiet!"


print(Quiet(1), Quiet(1) == Quiet(1))
