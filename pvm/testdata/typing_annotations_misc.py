from typing import Optional, Union, List, Dict, Any, Callable, TypeVar, ClassVar, Final, Literal
from typing import get_origin, get_args, Iterable, Tuple, Set, FrozenSet, Type, NewType
import typing

UserId = NewType("UserId", int)
uid = UserId(42)
print(uid, uid + 1, type(uid).__name__)


class Service:
    instances: ClassVar[int] = 0
    name: str
    limit: Final[int] = 10
    mode: Literal["fast", "safe"] = "safe"

    def __init__(self, name: str) -> None:
        Service.instances += 1
        self.name = name

    def run(self, jobs: Iterable[Callable[[], int]]) -> List[int]:
        return [j() for j in jobs]


s = Service("a")
print(s.run([lambda: 1, lambda: 2]), Service.instances, Service.limit, s.mode)
print(Service.__annotations__)
print(get_origin(List[int]), get_args(Dict[str, int]), get_origin(Optional[int]) is Union, get_args(Optional[int]))
print(Tuple[int, str], Set[int], FrozenSet[str], Type[Service], typing.Iterable[int])
print(Union[List[int], Dict[str, Any]], Optional[Union[int, str]])
print(Optional[int] == Optional[int], Union[int, str] == Union[str, int], List[int] == List[int])


def handler(event: Dict[str, Any], ctx: Optional["Service"] = None) -> Union[int, str]:
    return len(event)


print(handler({"a": 1}), handler.__name__)
Vector = List[float]


def scale(k: float, v: Vector) -> Vector:
    return [k * x for x in v]


print(scale(2.0, [1.0, 2.5]), Vector)
