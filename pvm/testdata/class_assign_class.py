# obj.__class__ = Other changes the object's class (CPython's
# object_set_class); incompatible targets raise TypeError.


class Animal:
    sound = "..."

    def __init__(self, name):
        self.name = name

    def speak(self):
        return f"{self.name} says {self.sound}"


class Dog(Animal):
    sound = "woof"


class Cat(Animal):
    sound = "meow"

    def speak(self):
        return "cat: " + super().speak()


a = Dog("rex")
print(a.speak(), type(a).__name__, isinstance(a, Dog))
a.__class__ = Cat
print(a.speak(), type(a).__name__, isinstance(a, Dog), isinstance(a, Cat))
print(a.__class__ is Cat, "__class__" in a.__dict__, a.__dict__)
setattr(a, "__class__", Dog)
print(a.speak(), type(a) is Dog)
object.__setattr__(a, "__class__", Animal)
print(a.speak(), type(a) is Animal)

# Method caches follow the new class.
objs = [Dog("a"), Dog("b")]
for i in range(3):
    for o in objs:
        print(o.speak(), end="; ")
    objs[0].__class__ = Cat if i % 2 == 0 else Dog
print()


# A state machine by class switching.
class Closed:
    def toggle(self):
        self.__class__ = Open
        return "opened"


class Open:
    def toggle(self):
        self.__class__ = Closed
        return "closed"


door = Closed()
print([door.toggle() for _ in range(4)], type(door).__name__)


# A user __setattr__ that delegates to object.__setattr__.
class Logged:
    def __setattr__(self, name, value):
        print("set", name, getattr(value, "__name__", value))
        super().__setattr__(name, value)


class Other:
    pass


lg = Logged()
lg.x = 1
lg.__class__ = Other
print(type(lg).__name__, lg.x)


# Builtin subclasses keep their value.
class L1(list):
    def total(self):
        return sum(self)


class L2(list):
    def total(self):
        return -sum(self)


lst = L1([1, 2, 3])
print(lst.total())
lst.__class__ = L2
print(lst.total(), lst, len(lst))


class E1(Exception):
    pass


class E2(Exception):
    pass


err = E1("boom")
err.__class__ = E2
try:
    raise err
except E2 as e:
    print("caught E2", e.args)


class Slotted:
    __slots__ = ("a",)


class Meta(type):
    pass


class Meta2(type):
    pass


class WithMeta(metaclass=Meta):
    pass


tests = [
    (lambda: Dog("d"), 5),
    (lambda: Dog("d"), int),
    (lambda: Dog("d"), object),
    (lambda: Dog("d"), E1),
    (lambda: Dog("d"), L1),
    (lambda: Dog("d"), Slotted),
    (lambda: E1(), ValueError),
    (lambda: L1(), dict),
    (lambda: L1(), E1),
    (lambda: 1, bool),
    (lambda: [], L1),
    (lambda: "s", str),
    (lambda: (1,), tuple),
    (lambda: {}, Dog),
    (lambda: Dog, Meta),
    (lambda: int, Meta),
    (lambda: Dog, 3),
]
for make, target in tests:
    obj = make()
    try:
        obj.__class__ = target
        print("ok", type(obj).__name__)
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)

WithMeta.__class__ = Meta2
print(type(WithMeta).__name__)
try:
    del a.__class__
except TypeError as e:
    print("TypeError", e)
