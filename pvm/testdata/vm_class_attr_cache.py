# Attribute and method lookups on classes through the interpreter's
# inline caches (LOAD_ATTR and LOAD_METHOD on a class): each result must
# be what a plain getattr gives, before and after the class changes.


class Strength:
    REQUIRED = 0
    WEAK = 5

    def __init__(self, v):
        self.v = v

    @classmethod
    def stronger(cls, a, b):
        return (cls.__name__, a < b)

    @staticmethod
    def weakest(a, b):
        return max(a, b)

    @property
    def prop(self):
        return self.v

    def plain(self):
        return ("plain", self.v)


class Sub(Strength):
    pass


class Desc:
    def __get__(self, obj, owner):
        return ("desc", owner.__name__, obj is None)


class Meta(type):
    greeting = "from the metaclass"

    def hello(cls):
        return "hello " + cls.__name__


class WithMeta(metaclass=Meta):
    d = Desc()


def run(k):
    out = []
    for i in range(3):
        out.append(k.stronger(i, 1))
        out.append(k.weakest(i, 2))
        out.append(k.REQUIRED + i)
        out.append(k.plain(Strength(i)))
        out.append(type(k.prop).__name__)
        out.append(k.__name__)
        m = k.stronger
        out.append(m(i, 0))
        out.append(k.stronger is k.stronger)
    return out


print(run(Strength))
print(run(Sub))
# The class changes: every cached answer must follow.
Strength.REQUIRED = 10
Sub.REQUIRED = 20
Strength.stronger = classmethod(lambda cls, a, b: ("replaced", cls.__name__, a, b))
print(run(Strength))
print(run(Sub))
Sub.weakest = staticmethod(lambda a, b: "sub's")
Sub.plain = lambda self: "sub plain"
print(run(Sub))
del Sub.REQUIRED
print(run(Sub)[2])
del Strength.REQUIRED
try:
    print(run(Sub))
except AttributeError as e:
    print("AttributeError", e)
for i in range(2):
    print(WithMeta.d, WithMeta.hello(), WithMeta.greeting, WithMeta.__name__)
print(dict.fromkeys("ab", i), int.from_bytes(b"\x01\x02", "big"))
for k in (Strength, Sub, int):
    try:
        print(k.missing)
    except AttributeError as e:
        print("AttributeError", e)
