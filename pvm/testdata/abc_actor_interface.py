# An actor plugin interface with abc.
from abc import ABC, abstractmethod


class Token(ABC):
    def __init__(self):
        self.balances = {}

    @property
    @abstractmethod
    def symbol(self):
        ...

    @abstractmethod
    def fee(self, amount):
        ...

    def transfer(self, src, dst, amount):
        cost = amount + self.fee(amount)
        if self.balances.get(src, 0) < cost:
            raise ValueError("insufficient %s balance" % self.symbol)
        self.balances[src] -= cost
        self.balances[dst] = self.balances.get(dst, 0) + amount
        return cost


class Cow(Token):
    symbol = "COW"

    def fee(self, amount):
        return max(1, amount // 100)


class Free(Cow):
    def fee(self, amount):
        return 0


for cls in (Cow, Free):
    t = cls()
    t.balances["ann"] = 500
    print(cls.__name__, t.transfer("ann", "bob", 200), t.balances)
try:
    Token()
except TypeError as e:
    print("TypeError", e)


class NoSymbol(Token):
    def fee(self, amount):
        return 0


try:
    NoSymbol()
except TypeError as e:
    print("TypeError", e)
try:
    c = Cow()
    c.transfer("nobody", "x", 1)
except ValueError as e:
    print("ValueError", e)
print(isinstance(Cow(), Token), Token.__abstractmethods__ == frozenset({"symbol", "fee"}))
