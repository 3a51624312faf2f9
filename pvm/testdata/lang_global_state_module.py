# Module-level state mutated by functions, as actors keep storage.
OWNER = "0xowner"
balances = {}
total_supply = 0
paused = False
history = []


def only_owner(fn):
    def wrapper(caller, *args):
        if caller != OWNER:
            raise PermissionError(f"{fn.__name__}: {caller} is not owner")
        return fn(caller, *args)
    wrapper.__name__ = fn.__name__
    return wrapper


@only_owner
def mint(caller, to, amount):
    global total_supply
    total_supply += amount
    balances[to] = balances.get(to, 0) + amount
    history.append(("mint", to, amount))


@only_owner
def set_paused(caller, value):
    global paused
    paused = value


def transfer(caller, to, amount):
    if paused:
        raise RuntimeError("paused")
    if balances.get(caller, 0) < amount:
        raise ValueError("insufficient")
    balances[caller] -= amount
    balances[to] = balances.get(to, 0) + amount
    history.append(("transfer", caller, to, amount))


calls = [(mint, OWNER, "a", 100), (mint, "a", "a", 5), (transfer, "a", "b", 30), (set_paused, OWNER, True),
         (transfer, "a", "b", 1), (set_paused, OWNER, False), (transfer, "b", "c", 31), (transfer, "b", "c", 30)]
for fn, *args in calls:
    try:
        fn(*args)
        print(fn.__name__, "ok")
    except (PermissionError, RuntimeError, ValueError) as e:
        print(fn.__name__, type(e).__name__, e)
print(balances, total_supply, paused, len(history), history[-1])
