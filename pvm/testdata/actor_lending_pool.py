# A lending pool with collateral ratios and liquidation (integer math, bps).
class Pool:
    LTV_BPS = 7500
    LIQ_BPS = 8500
    BONUS_BPS = 500

    def __init__(self, price):
        self.price = price
        self.collateral = {}
        self.debt = {}

    def deposit(self, who, amount):
        self.collateral[who] = self.collateral.get(who, 0) + amount

    def value(self, who):
        return self.collateral.get(who, 0) * self.price

    def borrow(self, who, amount):
        limit = self.value(who) * self.LTV_BPS // 10_000
        if self.debt.get(who, 0) + amount > limit:
            raise ValueError(f"{who}: borrow {amount} exceeds limit {limit - self.debt.get(who, 0)}")
        self.debt[who] = self.debt.get(who, 0) + amount

    def health(self, who):
        d = self.debt.get(who, 0)
        return None if d == 0 else self.value(who) * self.LIQ_BPS // 10_000 * 100 // d

    def liquidate(self, who, repay):
        h = self.health(who)
        if h is None or h >= 100:
            return f"{who} healthy ({h})"
        repay = min(repay, self.debt[who])
        seize = repay * (10_000 + self.BONUS_BPS) // 10_000 // self.price
        self.debt[who] -= repay
        self.collateral[who] -= seize
        return f"liquidated {who}: repaid {repay}, seized {seize}"


p = Pool(price=20)
p.deposit("ann", 100)
p.deposit("bob", 50)
p.borrow("ann", 1200)
p.borrow("bob", 700)
try:
    p.borrow("bob", 100)
except ValueError as e:
    print(e)
print(p.health("ann"), p.health("bob"), p.health("cy"))
p.price = 16
print(p.health("ann"), p.health("bob"))
print(p.liquidate("ann", 500))
print(p.liquidate("bob", 400))
print(p.health("bob"), p.collateral, p.debt)
