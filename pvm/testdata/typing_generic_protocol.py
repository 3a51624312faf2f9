from typing import Generic, TypeVar, Protocol, Iterator, Iterable, Callable, Optional, Dict, List, Tuple, Any

K = TypeVar("K")
V = TypeVar("V")


class Cache(Generic[K, V]):
    def __init__(self, loader: Callable[[K], V], capacity: int = 2) -> None:
        self.loader = loader
        self.capacity = capacity
        self.data: Dict[K, V] = {}
        self.order: List[K] = []

    def get(self, key: K) -> V:
        if key not in self.data:
            if len(self.order) >= self.capacity:
                old = self.order.pop(0)
                del self.data[old]
            self.data[key] = self.loader(key)
            self.order.append(key)
        return self.data[key]


c: Cache[str, int] = Cache(len)
print(c.get("ab"), c.get("abc"), c.get("x"), sorted(c.data), Cache[str, int])


class SupportsClose(Protocol):
    def close(self) -> None:
        ...


class Conn:
    def __init__(self):
        self.closed = False

    def close(self) -> None:
        self.closed = True


def shutdown(things: Iterable[SupportsClose]) -> int:
    n = 0
    for t in things:
        t.close()
        n += 1
    return n


conns = [Conn(), Conn()]
print(shutdown(conns), all(x.closed for x in conns))


def pairs(d: Dict[str, Any]) -> Iterator[Tuple[str, Any]]:
    for k in sorted(d):
        yield k, d[k]


print(list(pairs({"b": 2, "a": 1})))
T = TypeVar("T", int, str)
B = TypeVar("B", bound=Conn, covariant=True)
print(T, B, T.__constraints__, B.__bound__)


def first(xs: List[T]) -> Optional[T]:
    return xs[0] if xs else None


print(first([3, 4]), first([]))
