# typing annotations used in actor code: they must not change behaviour.
from typing import Dict, List, Optional, Tuple, Union, Any, Callable, Iterator


Balance = Dict[str, int]


def transfer(bal: Balance, src: str, dst: str, amt: int) -> Optional[str]:
    if bal.get(src, 0) < amt:
        return "insufficient"
    bal[src] -= amt
    bal[dst] = bal.get(dst, 0) + amt
    return None


def pairs(xs: List[int]) -> Iterator[Tuple[int, int]]:
    for i in range(len(xs) - 1):
        yield xs[i], xs[i + 1]


def apply(fn: Callable[[int], int], v: Union[int, str]) -> Any:
    return fn(int(v))


b: Balance = {"a": 10}
print(transfer(b, "a", "b", 4), transfer(b, "b", "c", 5), b)
print(list(pairs([1, 4, 9, 16])), apply(lambda x: x * 3, "7"), apply(abs, -2))
x: int
y: List[str] = []
y.append("ok")
print(y, "x" in dir() if False else True)


class Ledger:
    entries: List[Tuple[str, int]]
    limit: int = 3

    def __init__(self) -> None:
        self.entries = []

    def add(self, who: str, amt: int) -> "Ledger":
        self.entries.append((who, amt))
        return self


l = Ledger().add("a", 1).add("b", 2)
print(l.entries, Ledger.limit, Ledger.__annotations__ if hasattr(Ledger, "__annotations__") else {})
print(Optional[int] == Union[int, None], List[int] == List[int])
