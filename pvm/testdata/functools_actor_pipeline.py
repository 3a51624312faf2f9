# Composing validation steps with functools.
from functools import reduce, partial, wraps, lru_cache


def compose(*fns):
    return reduce(lambda f, g: lambda x: g(f(x)), fns, lambda x: x)


def require(field, msg):
    def check(tx):
        if field not in tx:
            raise ValueError(msg)
        return tx
    return check


def clamp(field, lo, hi, tx):
    tx = dict(tx)
    tx[field] = max(lo, min(hi, tx[field]))
    return tx


validate = compose(require("to", "missing recipient"), require("amount", "missing amount"),
                   partial(clamp, "amount", 1, 1000))
print(validate({"to": "bob", "amount": 5000}), validate({"to": "x", "amount": 0}))
try:
    validate({"amount": 1})
except ValueError as e:
    print("ValueError", e)

calls = []


def audited(action):
    def deco(fn):
        @wraps(fn)
        def inner(*a, **kw):
            calls.append((action, fn.__name__))
            return fn(*a, **kw)
        return inner
    return deco


@audited("write")
def set_owner(state, owner):
    """Change the owner."""
    state["owner"] = owner
    return state


print(set_owner({}, "ann"), set_owner.__name__, set_owner.__doc__, calls)


@lru_cache(maxsize=64)
def fee_for(amount, tier="basic"):
    rate = {"basic": 30, "pro": 10}[tier]
    return amount * rate // 10000


print([fee_for(a) for a in (100000, 5000, 100000)], fee_for(100000, tier="pro"), fee_for.cache_info())
total = reduce(lambda acc, tx: acc + tx["amount"], [{"amount": 3}, {"amount": 4}], 0)
print(total, reduce(lambda a, b: a if a > b else b, [4, 8, 1]))
