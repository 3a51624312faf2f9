from typing import Any, Optional, Union, List, Dict, Tuple, Callable, TypeVar, Generic, Set, ClassVar
from typing import cast, get_type_hints, Iterable, Sequence, Mapping, Literal, Final
import typing

T = TypeVar("T")
K = TypeVar("K")


def total(amounts: List[int], fee: Optional[int] = None) -> int:
    return sum(amounts) - (fee or 0)


def lookup(table: Dict[str, int], key: str, default: Union[int, None] = None) -> Optional[int]:
    return table.get(key, default)


print(total([1, 2, 3]), total([5, 5], fee=2), lookup({"a": 1}, "a"), lookup({}, "b", 7))
print(Any, Optional[int], Union[int, str], Union[int, None], List[int], Dict[str, int])
print(Tuple[int, ...], Callable[[int], str], T, List, Optional[List[int]], Set[str])
print(Union[int, str, None], Union[int], Union[int, int], ClassVar[int], Literal["a", 1], Final[int])
print(cast(int, "not checked"), isinstance([], List), isinstance({}, Dict), typing.TYPE_CHECKING)


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: List[T] = []

    def push(self, item: T) -> None:
        self.items.append(item)

    def pop(self) -> T:
        return self.items.pop()


s = Stack[int]()
s.push(1)
s.push(2)
print(s.pop(), s.items, Stack[int], Stack.__mro__, isinstance(s, Stack))


class Pair(Generic[K, T]):
    def __init__(self, k: K, v: T):
        self.k, self.v = k, v


print(Pair("a", 1).k, Pair[str, int])


class Config:
    name: str
    retries: int = 3
    ratio: float = 0.5
    tags: List[str]


print(Config.__annotations__, get_type_hints(Config)["retries"], Config.retries)
Handler = Callable[[str], None]
Registry = Dict[str, Handler]
print(Registry)


def apply(f: Callable[..., T], *args: Any) -> T:
    return f(*args)


print(apply(max, 3, 9), list[int], dict[str, list[int]], int | None, isinstance(3, int | str))
try:
    List()
except TypeError as e:
    print("TypeError", e)
