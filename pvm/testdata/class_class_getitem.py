# __class_getitem__, builtin generic aliases and X | Y unions.


class Box:
    def __init__(self, v):
        self.v = v

    def __class_getitem__(cls, item):
        return "%s of %s" % (cls.__name__, getattr(item, "__name__", item))


print(Box[int], Box["anything"], Box(3).v)


class TypedList:
    @classmethod
    def __class_getitem__(cls, item):
        return (cls.__name__, item)


print(TypedList[str])
print(list[int], dict[str, int], tuple[int, ...], set[str], type(list[int]).__name__)
print(list[int]([1, 2]), dict[str, int](a=1), list[int].__origin__, dict[str, int].__args__)
print(int | None, int | str | None, (int | str).__args__, isinstance(5, int | str), isinstance(None, int | None))
print(issubclass(bool, int | str), isinstance("x", list | dict))


class Holder(list[int]):
    pass


h = Holder([1, 2])
h.append(3)
print(h, type(h).__name__, Holder.__mro__)


def f(x: list[int] | None = None) -> dict[str, int]:
    return {"n": len(x or [])}


print(f([1, 2]), f())
