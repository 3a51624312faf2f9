# Subscription billing by block height with proration in Decimal.
from decimal import Decimal, ROUND_HALF_EVEN
from dataclasses import dataclass

PERIOD = 1000
Q = Decimal("0.01")


@dataclass
class Plan:
    name: str
    price: Decimal


@dataclass
class Sub:
    user: str
    plan: Plan
    start: int
    paid_until: int


PLANS = {p.name: p for p in [Plan("basic", Decimal("9.99")), Plan("pro", Decimal("29.00"))]}


def prorate(price, blocks):
    return (price * blocks / PERIOD).quantize(Q, rounding=ROUND_HALF_EVEN)


subs = {}
ledger = []


def subscribe(user, plan, now):
    subs[user] = Sub(user, PLANS[plan], now, now + PERIOD)
    ledger.append((now, user, PLANS[plan].price))


def upgrade(user, plan, now):
    s = subs[user]
    credit = prorate(s.plan.price, s.paid_until - now)
    charge = prorate(PLANS[plan].price, s.paid_until - now)
    s.plan = PLANS[plan]
    ledger.append((now, user, charge - credit))


def renew_due(now):
    for s in subs.values():
        while s.paid_until <= now:
            s.paid_until += PERIOD
            ledger.append((s.paid_until - PERIOD, s.user, s.plan.price))


subscribe("ann", "basic", 0)
subscribe("bob", "pro", 250)
upgrade("ann", "pro", 400)
renew_due(2100)
for row in ledger:
    print(*row)
totals = {}
for _, u, amt in ledger:
    totals[u] = totals.get(u, Decimal(0)) + amt
print({u: str(v) for u, v in totals.items()}, sum(totals.values()))
print(prorate(Decimal("10"), 333), prorate(Decimal("10"), 335), prorate(Decimal("0.05"), 500))
