# An English auction with a reserve price, minimum increments and refunds.
from dataclasses import dataclass, field
from enum import Enum


class Phase(Enum):
    OPEN = "open"
    CLOSED = "closed"
    SETTLED = "settled"


class AuctionError(Exception):
    pass


@dataclass
class Auction:
    item: str
    reserve: int
    increment: int
    phase: Phase = Phase.OPEN
    high_bidder: str = ""
    high_bid: int = 0
    refunds: dict = field(default_factory=dict)
    log: list = field(default_factory=list)

    def bid(self, who, amount):
        if self.phase is not Phase.OPEN:
            raise AuctionError(f"auction is {self.phase.value}")
        floor = max(self.reserve, self.high_bid + self.increment) if self.high_bid else self.reserve
        if amount < floor:
            raise AuctionError(f"bid {amount} below {floor}")
        if who == self.high_bidder:
            raise AuctionError("already the high bidder")
        if self.high_bidder:
            self.refunds[self.high_bidder] = self.refunds.get(self.high_bidder, 0) + self.high_bid
        self.high_bidder, self.high_bid = who, amount
        self.log.append((who, amount))

    def close(self):
        self.phase = Phase.CLOSED
        return (self.high_bidder, self.high_bid) if self.high_bid else None

    def withdraw(self, who):
        amount = self.refunds.pop(who, 0)
        return amount


a = Auction("deed #7", reserve=100, increment=10)
attempts = [("ann", 90), ("ann", 100), ("ben", 105), ("ben", 110), ("ben", 125),
            ("cy", 200), ("ann", 210), ("ann", 300), ("cy", 220)]
for who, amt in attempts:
    try:
        a.bid(who, amt)
        print(f"{who} bids {amt}: ok")
    except AuctionError as e:
        print(f"{who} bids {amt}: {e}")
print("winner", a.close())
try:
    a.bid("dan", 1000)
except AuctionError as e:
    print("late:", e)
print("refunds", dict(sorted(a.refunds.items())))
print("ben gets", a.withdraw("ben"), "then", a.withdraw("ben"))
print(a.phase, a.phase.name, repr(a.phase))
print(len(a.log), a.log[-1])
