# Metaclasses: registries, class-level protocols, __call__ control.


class RegistryMeta(type):
    registry = {}

    def __new__(mcs, name, bases, ns, **kw):
        cls = super().__new__(mcs, name, bases, ns)
        if bases:
            mcs.registry[name.lower()] = cls
        return cls

    def __iter__(cls):
        return iter(sorted(RegistryMeta.registry))

    def __len__(cls):
        return len(RegistryMeta.registry)

    def __getitem__(cls, key):
        return RegistryMeta.registry[key]

    def __contains__(cls, key):
        return key in RegistryMeta.registry

    def __repr__(cls):
        return "<handler %s>" % cls.__name__


class Handler(metaclass=RegistryMeta):
    def handle(self, msg):
        return "%s handled %s" % (type(self).__name__, msg)


class Deposit(Handler):
    pass


class Withdraw(Handler):
    pass


print(list(Handler), len(Handler), "deposit" in Handler, "loan" in Handler)
print(Handler["withdraw"], Handler["deposit"]().handle("m1"), type(Deposit) is RegistryMeta)
print(isinstance(Deposit, RegistryMeta), isinstance(Deposit, type), Deposit.registry is RegistryMeta.registry)


class Singleton(type):
    _instances = {}

    def __call__(cls, *args, **kw):
        if cls not in Singleton._instances:
            Singleton._instances[cls] = super().__call__(*args, **kw)
        return Singleton._instances[cls]


class Ledger(metaclass=Singleton):
    def __init__(self, name="main"):
        self.name = name
        self.entries = []


a = Ledger("x")
b = Ledger("y")
a.entries.append(1)
print(a is b, b.name, b.entries)


class Validated(type):
    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        cls.fields = sorted(k for k in ns if not k.startswith("_"))


class Record(metaclass=Validated):
    amount = 0
    owner = ""

    def _private(self):
        pass


print(Record.fields)
Dyn = type("Dyn", (Record,), {"extra": 1, "hello": lambda self: "hi " + self.owner})
d = Dyn()
d.owner = "ann"
print(Dyn.fields, d.hello(), Dyn.__name__, Dyn.__bases__, type(Dyn).__name__)
Plain = type("Plain", (), {"x": 5})
print(Plain.x, Plain().x, Plain, type(Plain))


def upper_attrs(name, bases, ns):
    return type(name, bases, {k.upper() if not k.startswith("__") else k: v for k, v in ns.items()})


class Shout(metaclass=upper_attrs):
    greeting = "hello"


print(Shout.GREETING, hasattr(Shout, "greeting"))
try:
    class M1(type):
        pass

    class M2(type):
        pass

    class A(metaclass=M1):
        pass

    class B(metaclass=M2):
        pass

    class C(A, B):
        pass
except TypeError as e:
    print("TypeError", e)
