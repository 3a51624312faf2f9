# An escrow actor as an explicit state machine over an Enum.
from enum import Enum, auto


class State(Enum):
    CREATED = auto()
    FUNDED = auto()
    DELIVERED = auto()
    RELEASED = auto()
    REFUNDED = auto()
    DISPUTED = auto()


TRANSITIONS = {
    (State.CREATED, "fund"): State.FUNDED,
    (State.FUNDED, "deliver"): State.DELIVERED,
    (State.FUNDED, "cancel"): State.REFUNDED,
    (State.DELIVERED, "confirm"): State.RELEASED,
    (State.DELIVERED, "dispute"): State.DISPUTED,
    (State.DISPUTED, "rule_buyer"): State.REFUNDED,
    (State.DISPUTED, "rule_seller"): State.RELEASED,
}


class Escrow:
    def __init__(self, buyer, seller, amount):
        self.buyer, self.seller, self.amount = buyer, seller, amount
        self.state = State.CREATED
        self.history = [self.state]

    def fire(self, action):
        key = (self.state, action)
        if key not in TRANSITIONS:
            raise RuntimeError(f"cannot {action} in {self.state.name}")
        self.state = TRANSITIONS[key]
        self.history.append(self.state)
        return self.state

    def payout(self):
        if self.state == State.RELEASED:
            return {self.seller: self.amount}
        if self.state == State.REFUNDED:
            return {self.buyer: self.amount}
        return {}


scripts = [
    ["fund", "deliver", "confirm"],
    ["fund", "cancel"],
    ["fund", "deliver", "dispute", "rule_buyer"],
    ["deliver"],
    ["fund", "deliver", "dispute", "confirm"],
]
for i, script in enumerate(scripts):
    e = Escrow("b%d" % i, "s%d" % i, 100 * (i + 1))
    try:
        for act in script:
            e.fire(act)
    except RuntimeError as err:
        print("error:", err)
    print(i, " -> ".join(s.name for s in e.history), e.payout())

print([s.value for s in State])
print(State(3), State["DISPUTED"], State.FUNDED in State, len(State))
print(sorted({s.name for s in TRANSITIONS.values()}))
counts = {}
for (src, _), dst in TRANSITIONS.items():
    counts[src.name] = counts.get(src.name, 0) + 1
print(counts)
