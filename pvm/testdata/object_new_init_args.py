# object.__new__ and object.__init__ refuse excess arguments only as
# CPython's object_new and object_init do (Objects/typeobject.c).
from abc import ABC, abstractmethod


def attempt(label, f):
    try:
        r = f()
        print(label, 'ok', type(r).__name__)
    except TypeError as e:
        print(label, 'TypeError', e)


class NewOnly:
    def __new__(cls, x):
        return super().__new__(cls)


attempt('new only', lambda: NewOnly(1))


class NewOnlyKw:
    def __new__(cls, *args, **kw):
        inst = super().__new__(cls)
        inst.kw = kw
        return inst


attempt('new only kw', lambda: NewOnlyKw(1, a=2))
print(NewOnlyKw(a=3).kw)


class InitOnly:
    def __init__(self, x):
        self.x = x


attempt('init only', lambda: InitOnly(5))
print(InitOnly(6).x)


class Neither:
    pass


attempt('neither', lambda: Neither(1))
attempt('neither kw', lambda: Neither(a=1))
attempt('neither none', lambda: Neither())


class NewPassesArgs:
    def __new__(cls, x):
        return super().__new__(cls, x)


attempt('new passes args', lambda: NewPassesArgs(1))


class InitPassesArgs:
    def __init__(self, x):
        super().__init__(x)


attempt('init passes args', lambda: InitPassesArgs(1))


class Both:
    def __new__(cls, x):
        return super().__new__(cls)

    def __init__(self, x):
        super().__init__()
        self.x = x


attempt('both', lambda: Both(2))
print(Both(3).x)


class BothPassInit:
    def __new__(cls, x):
        return super().__new__(cls)

    def __init__(self, x):
        super().__init__(x)


attempt('both pass init', lambda: BothPassInit(2))


class Sub(NewOnly):
    pass


attempt('inherited new', lambda: Sub(1))

attempt('object.__new__ extra', lambda: object.__new__(Neither, 1))
attempt('object.__new__ new-only extra', lambda: object.__new__(NewOnly, 1))
attempt('object.__new__ init-only extra', lambda: object.__new__(InitOnly, 1))
attempt('object.__init__ new-only', lambda: object.__init__(NewOnly(0), 1))
attempt('object.__init__ neither', lambda: object.__init__(Neither(), 1))
attempt('object.__init__ init-only', lambda: object.__init__(InitOnly(0), 1))
attempt('object()', lambda: object(1))


class Abstract(ABC):
    @abstractmethod
    def f(self):
        pass


attempt('abstract', lambda: Abstract())
attempt('abstract with args', lambda: Abstract(1))


class Singleton:
    _inst = None

    def __new__(cls, *args, **kwargs):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst


a = Singleton(1, b=2)
print(a is Singleton('x'))
