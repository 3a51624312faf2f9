# Staking with reward-per-share accounting (integer fixed point).
SCALE = 10**12


class Staking:
    def __init__(self):
        self.stake = {}
        self.debt = {}
        self.pending = {}
        self.total = 0
        self.acc = 0

    def distribute(self, reward):
        if self.total == 0:
            return
        self.acc += reward * SCALE // self.total

    def _settle(self, who):
        owed = self.stake.get(who, 0) * self.acc // SCALE - self.debt.get(who, 0)
        self.pending[who] = self.pending.get(who, 0) + owed

    def deposit(self, who, amount):
        self._settle(who)
        self.stake[who] = self.stake.get(who, 0) + amount
        self.total += amount
        self.debt[who] = self.stake[who] * self.acc // SCALE

    def withdraw(self, who, amount):
        if amount > self.stake.get(who, 0):
            raise ValueError("withdraw exceeds stake")
        self._settle(who)
        self.stake[who] -= amount
        self.total -= amount
        self.debt[who] = self.stake[who] * self.acc // SCALE

    def claim(self, who):
        self._settle(who)
        self.debt[who] = self.stake.get(who, 0) * self.acc // SCALE
        out, self.pending[who] = self.pending.get(who, 0), 0
        return out


s = Staking()
s.deposit("a", 100)
s.distribute(1000)
s.deposit("b", 300)
s.distribute(1000)
print(s.claim("a"), s.claim("b"))
s.withdraw("a", 50)
s.distribute(700)
print(s.claim("a"), s.claim("b"), s.claim("c"))
try:
    s.withdraw("b", 301)
except ValueError as e:
    print("ValueError", e)
s.withdraw("b", 300)
s.distribute(99)
print(s.claim("a"), s.claim("b"), s.total, s.acc)
print(sorted(s.stake.items()), divmod(s.acc, SCALE))
