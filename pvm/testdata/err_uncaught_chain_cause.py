# An uncaught exception raised "from" another: the traceback shows the chain.
class SettlementError(Exception):
    pass


def load(balances, who):
    return balances[who]


def settle(balances, who, amount):
    try:
        bal = load(balances, who)
    except KeyError as e:
        raise SettlementError(f"unknown account {who}") from e
    return bal - amount


print(settle({"a": 10}, "a", 3))
print(settle({"a": 10}, "b", 1))
