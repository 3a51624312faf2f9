# An order lifecycle as an Enum with allowed transitions and auto values.
from enum import Enum, auto


class OrderState(Enum):
    NEW = auto()
    PARTIAL = auto()
    FILLED = auto()
    CANCELLED = auto()

    def can_go(self, other):
        return other in ALLOWED[self]

    @property
    def terminal(self):
        return not ALLOWED[self]


ALLOWED = {
    OrderState.NEW: {OrderState.PARTIAL, OrderState.FILLED, OrderState.CANCELLED},
    OrderState.PARTIAL: {OrderState.PARTIAL, OrderState.FILLED, OrderState.CANCELLED},
    OrderState.FILLED: set(),
    OrderState.CANCELLED: set(),
}


class Order:
    def __init__(self, qty):
        self.qty, self.filled, self.state = qty, 0, OrderState.NEW

    def _move(self, st):
        if not self.state.can_go(st):
            raise ValueError(f"{self.state.name} -> {st.name} not allowed")
        self.state = st

    def fill(self, n):
        self.filled += n
        self._move(OrderState.FILLED if self.filled >= self.qty else OrderState.PARTIAL)

    def cancel(self):
        self._move(OrderState.CANCELLED)


o = Order(10)
for action in [("fill", 3), ("fill", 3), ("fill", 4), ("cancel",), ("fill", 1)]:
    try:
        getattr(o, action[0])(*action[1:])
        print(action, "->", o.state.name, o.filled)
    except ValueError as e:
        print(action, "ValueError:", e)
print([s.name for s in OrderState if s.terminal], [s.value for s in OrderState], OrderState.NEW.can_go(OrderState.FILLED))
o2 = Order(5)
o2.cancel()
print(o2.state, o2.state.terminal)
