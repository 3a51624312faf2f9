# ABCs with dataclasses and enums.
from abc import ABC, abstractmethod
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    CALL = "call"
    SEND = "send"


class Action(ABC):
    @abstractmethod
    def gas(self) -> int:
        ...

    @classmethod
    def kinds(cls):
        return [k.value for k in Kind]


@dataclass
class Call(Action):
    target: str
    data: bytes = b""

    def gas(self):
        return 21000 + 16 * len(self.data)


@dataclass
class Send(Action):
    to: str
    value: int

    def gas(self):
        return 21000


actions = [Call("0xabc", b"\x01\x02"), Send("bob", 5), Call("0xdef")]
print([a.gas() for a in actions], sum(a.gas() for a in actions), Action.kinds())
print(actions[0], isinstance(actions[1], Action))
try:
    @dataclass
    class Broken(Action):
        x: int = 0

    Broken()
except TypeError as e:
    print("TypeError", e)


class Visitor(ABC):
    def visit(self, node):
        return getattr(self, "visit_" + type(node).__name__.lower())(node)

    @abstractmethod
    def visit_call(self, node):
        ...


class GasCounter(Visitor):
    def visit_call(self, node):
        return node.gas()

    def visit_send(self, node):
        return 1


gc = GasCounter()
print([gc.visit(a) for a in actions])
