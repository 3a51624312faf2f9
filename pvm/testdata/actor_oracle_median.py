# A price oracle: reporters submit, the actor takes a median and rejects outliers.
from decimal import Decimal


def median(xs):
    s = sorted(xs)
    n = len(s)
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) / 2


class Oracle:
    MAX_DEV = Decimal("0.05")

    def __init__(self, reporters):
        self.reporters = set(reporters)
        self.rounds = {}

    def submit(self, rnd, who, price):
        if who not in self.reporters:
            return f"{who} not a reporter"
        subs = self.rounds.setdefault(rnd, {})
        if who in subs:
            return f"{who} already reported in {rnd}"
        subs[who] = Decimal(price)
        return "ok"

    def finalize(self, rnd):
        subs = self.rounds.get(rnd, {})
        if len(subs) < 3:
            return None, sorted(subs)
        m = median(list(subs.values()))
        good = {w: p for w, p in subs.items() if abs(p - m) / m <= self.MAX_DEV}
        return median(list(good.values())), sorted(set(subs) - set(good))


o = Oracle(["r1", "r2", "r3", "r4", "r5"])
subs = [(1, "r1", "100.0"), (1, "r2", "101.5"), (1, "r3", "99.8"), (1, "r4", "150"), (1, "r1", "1"), (1, "x", "5"),
        (2, "r1", "200"), (2, "r2", "201")]
for s in subs:
    print(s, o.submit(*s))
print(o.finalize(1), o.finalize(2), o.finalize(3))
print(median([3, 1, 2]), median([4, 1, 3, 2]), median([Decimal("1.1"), Decimal("2.2")]))
