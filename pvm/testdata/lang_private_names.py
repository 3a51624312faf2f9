# Private name mangling (Language Reference §6.2.1): inside a class body,
# and in the functions, lambdas and comprehensions nested in it, an
# identifier __name (not ending in __) is rewritten to _Class__name.


class Account:
    __count = 0  # class attribute: stored as _Account__count

    def __init__(self, owner, balance):
        self.__owner = owner
        self.__balance = balance
        Account.__count += 1

    def __check(self, amount):
        if amount > self.__balance:
            raise ValueError("insufficient: " + self.__owner)
        return True

    def withdraw(self, amount):
        self.__check(amount)
        self.__balance -= amount
        return self.__balance

    def close(self):
        del self.__balance

    @classmethod
    def count(cls):
        return cls.__count

    def peek(self):
        return [k for k in sorted(vars(self))]


a = Account("ann", 10)
print(a.withdraw(3), Account.count())
print(a.peek())
print(a._Account__balance, a._Account__owner)
print(hasattr(a, "__balance"), hasattr(a, "_Account__check"))
print(sorted(k for k in vars(Account) if "Account" in k))
try:
    a.withdraw(100)
except ValueError as e:
    print("ValueError", e)
try:
    a.__balance
except AttributeError as e:
    print("AttributeError", e)
a.close()
try:
    a.withdraw(1)
except AttributeError as e:
    print("AttributeError", e)


class Savings(Account):
    def steal(self):
        # A subclass's __balance is _Savings__balance, not the base's.
        try:
            return self.__balance
        except AttributeError as e:
            return "AttributeError " + str(e)

    def base_view(self):
        return self._Account__balance


s = Savings("bob", 50)
print(s.steal(), s.base_view(), Account.count(), Savings.count())


# The function keeps its own name; only the binding is mangled.
class Named:
    def __helper(self):
        return 1

    def __dunder__(self):
        return 2

    alias = __helper

print(Named.alias.__name__, Named.alias.__qualname__, Named._Named__helper is Named.alias)
print(Named().__dunder__(), "__dunder__" in vars(Named))


# Class names: leading underscores are stripped; a class named only by
# underscores mangles nothing.
class _Lead:
    __v = 1


class __Twice:
    __v = 2


class ___:
    __v = 3


print("_Lead__v" in vars(_Lead), "_Twice__v" in vars(__Twice), "__v" in vars(___))


# Nested classes mangle with the innermost class name; the nested class's
# own binding is mangled with the outer one.
class Outer:
    class __Inner:
        __x = 10

        def get(self):
            return self.__x

    def make(self):
        return self.__Inner()


print(Outer().make().get(), Outer._Outer__Inner.__name__)
print("_Inner__x" in vars(Outer._Outer__Inner))


# Parameters, keyword-only parameters and their defaults are mangled;
# keyword arguments in a call are not.
class Params:
    def f(self, __a, *, __k=5):
        return __a + __k

    def g(self, **kw):
        return sorted(kw)

    def call_g(self):
        return self.g(__z=1, y=2)

    def call_f(self):
        try:
            return self.f(1, __k=2)
        except TypeError as e:
            return "TypeError " + str(e)


p = Params()
print(p.f(1), p.f(1, _Params__k=10), p.call_g(), p.call_f())
print(Params.f.__kwdefaults__)
try:
    p.f(__a=1)
except TypeError as e:
    print("TypeError", e)


# Nested functions, lambdas and comprehensions in a method are mangled
# too; a name mangles in a method's body exactly as in the class body.
class Nested:
    __k = 3

    def run(self):
        __local = 4

        def inner():
            return __local + self.__k

        f = lambda __p=2: __p * self.__k
        squares = [__i * self.__k for __i in range(3)]
        gen = sum(__j for __j in range(4))
        d = {__a: __b for __a, __b in [(1, 2)]}
        return inner(), f(), f(__p=3) if False else f(_Nested__p=3), squares, gen, d


print(Nested().run())


# A module-level __x is not visible as __x inside a method: there it is
# _Class__x, a different global.
__shared = "module"
_Reader__shared = "mangled global"


class Reader:
    def read(self):
        return __shared

    def set_global(self):
        global __counter
        __counter = 7
        return __counter


print(Reader().read(), __shared)
print(Reader().set_global(), _Reader__counter)


class Missing:
    def read(self):
        try:
            return __nowhere
        except NameError as e:
            return "NameError " + str(e)


print(Missing().read())


# Closures over a private local of an enclosing method, nonlocal, walrus.
class Counter:
    def make(self):
        __n = 0

        def bump():
            nonlocal __n
            __n += 1
            return __n

        bump()
        bump()
        return bump(), [(__w := x) for x in range(3)], __w


print(Counter().make())


# Annotations in a class body record the mangled name.
class Ann:
    __a: int = 1
    b: str = "x"


print(sorted(Ann.__annotations__), Ann._Ann__a)


# getattr/setattr strings are not mangled; __dunder__ names are not.
class Dyn:
    def __init__(self):
        setattr(self, "__raw", 1)
        self.__cooked = 2
        self.__len__ = lambda: 9


d = Dyn()
print(getattr(d, "__raw"), getattr(d, "_Dyn__cooked"), sorted(vars(d)))


# Exception names, for targets, with targets, del, augmented assignment
# and import aliases inside a class body are all mangled.
class Body:
    try:
        raise KeyError("k")
    except KeyError as __e:
        __msg = str(__e)
    for __i in range(2):
        pass
    __total = 0
    __total += 5
    __tmp = 1
    del __tmp
    import math as __m
    from math import floor as __fl
    __pi = round(__m.pi, 2)
    __flo = __fl(2.5)


print(sorted(k for k in vars(Body) if k.startswith("_Body")))


# match captures are mangled; keyword attribute names of a class pattern
# are not.
class Point:
    __match_args__ = ("x",)

    def __init__(self, x):
        self.x = x
        setattr(self, "__tag", "raw-tag")


class Matcher:
    def m(self, v):
        match v:
            case Point(__tag=__t):
                return "tag", __t
            case [__first, *__rest]:
                return __first, __rest
            case {"k": __val, **__others}:
                return __val, __others
            case _:
                return None


mt = Matcher()
print(mt.m(Point(1)), mt.m([1, 2, 3]), mt.m({"k": 1, "j": 2}))


# Mangling happens at compile time, so a class made later with the
# same name does not see another class's private names.
class Twin:
    def __init__(self):
        self.__v = "first"


first = Twin()


class Twin:
    def get(self, other):
        try:
            return other.__v
        except AttributeError as e:
            return "AttributeError " + str(e)


print(Twin().get(first))
print(first._Twin__v)


# A private walrus target that rebinds a comprehension variable is no
# error in a class (CPython checks the name as written, not mangled).
class Rebind:
    def f(self):
        r = [(__i := 7) for __i in range(2)]
        return r, __i


print(Rebind().f())
