# abc: abstract base classes as actor interfaces.
from abc import ABC, abstractmethod


class Asset(ABC):
    def __init__(self, symbol):
        self.symbol = symbol

    @abstractmethod
    def value(self, qty):
        ...

    @property
    @abstractmethod
    def decimals(self):
        ...

    def describe(self, qty):
        return f"{qty} {self.symbol} = {self.value(qty)} (decimals {self.decimals})"


class Stable(Asset):
    decimals = 6

    def value(self, qty):
        return qty


class Volatile(Asset):
    def __init__(self, symbol, price):
        super().__init__(symbol)
        self.price = price

    @property
    def decimals(self):
        return 18

    def value(self, qty):
        return qty * self.price


class Half(Asset):
    def value(self, qty):
        return 0


for cls in [Asset, Half]:
    try:
        cls("X")
    except TypeError as e:
        print("TypeError:", e)
assets = [Stable("USDC"), Volatile("ETH", 3000)]
for a in assets:
    print(a.describe(2), isinstance(a, Asset))
print(issubclass(Volatile, Asset), issubclass(int, Asset), sorted(Asset.__abstractmethods__))
