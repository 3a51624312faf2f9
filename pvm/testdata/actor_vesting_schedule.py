# Token vesting with cliffs, computed per block.
from dataclasses import dataclass


@dataclass(frozen=True)
class Grant:
    beneficiary: str
    total: int
    start: int
    cliff: int
    duration: int

    def vested(self, block):
        if block < self.start + self.cliff:
            return 0
        if block >= self.start + self.duration:
            return self.total
        return self.total * (block - self.start) // self.duration


class Vesting:
    def __init__(self):
        self.grants = []
        self.claimed = {}

    def add(self, grant):
        self.grants.append(grant)

    def claim(self, who, block):
        vested = sum(g.vested(block) for g in self.grants if g.beneficiary == who)
        amount = vested - self.claimed.get(who, 0)
        self.claimed[who] = vested
        return amount


v = Vesting()
v.add(Grant("ann", 1200, start=100, cliff=50, duration=400))
v.add(Grant("bob", 1000, start=0, cliff=0, duration=100))
v.add(Grant("ann", 300, start=200, cliff=100, duration=100))
for block in [0, 50, 149, 150, 250, 300, 499, 500, 1000]:
    print(block, v.claim("ann", block), v.claim("bob", block))
print(v.claimed)
g = v.grants[0]
print(g)
try:
    g.total = 5
except Exception as e:
    print(type(e).__name__, e)
print(g == Grant("ann", 1200, 100, 50, 400), g != v.grants[2])
print(sorted(v.grants, key=lambda g: (g.start, g.total))[0].beneficiary)
