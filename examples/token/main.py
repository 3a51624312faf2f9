# A fungible token: balances, transfer, and ERC-20-style allowances.
# Balances and allowances live in storage under tuple keys, so each
# transfer touches only the entries it changes.
from cowboy_sdk import actor, address, context, emit_event


@actor
class Token:
    def __init__(self, name, symbol, supply):
        if supply < 0:
            raise ValueError("supply must not be negative")
        self.storage["name"] = name
        self.storage["symbol"] = symbol
        self.storage["supply"] = supply
        self._set_balance(context.sender, supply)
        emit_event("Transfer", {"from": None, "to": context.sender, "value": supply})

    def name(self):
        return self.storage["name"]

    def symbol(self):
        return self.storage["symbol"]

    def total_supply(self):
        return self.storage["supply"]

    def balance_of(self, owner):
        return self.storage.get(("balance", address(owner)), 0)

    def allowance(self, owner, spender):
        return self.storage.get(("allowance", address(owner), address(spender)), 0)

    def transfer(self, to, amount):
        self._move(context.sender, address(to), amount)
        return True

    def approve(self, spender, amount):
        if amount < 0:
            raise ValueError("amount must not be negative")
        spender = address(spender)
        self.storage[("allowance", context.sender, spender)] = amount
        emit_event("Approval", {"owner": context.sender, "spender": spender, "value": amount})
        return True

    def transfer_from(self, owner, to, amount):
        owner = address(owner)
        key = ("allowance", owner, context.sender)
        allowed = self.storage.get(key, 0)
        if amount > allowed:
            raise PermissionError(f"allowance {allowed} is less than {amount}")
        self.storage[key] = allowed - amount
        self._move(owner, address(to), amount)
        return True

    def _set_balance(self, owner, value):
        if value == 0:
            self.storage.delete(("balance", owner))
        else:
            self.storage[("balance", owner)] = value

    def _move(self, frm, to, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        have = self.storage.get(("balance", frm), 0)
        if amount > have:
            raise ValueError(f"balance {have} is less than {amount}")
        self._set_balance(frm, have - amount)
        self._set_balance(to, self.storage.get(("balance", to), 0) + amount)
        emit_event("Transfer", {"from": frm, "to": to, "value": amount})
