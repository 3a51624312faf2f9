class InsufficientBalance(Exception):
    pass
class Token:
    def __init__(self, supply):
        self.balances = {"owner": supply}
        self.allowances = {}
        self.events = []
    def balance_of(self, who):
        return self.balances.get(who, 0)
    def transfer(self, frm, to, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        if self.balance_of(frm) < amount:
            raise InsufficientBalance(f"{frm} has {self.balance_of(frm)}, needs {amount}")
        self.balances[frm] -= amount
        self.balances[to] = self.balance_of(to) + amount
        self.events.append(("Transfer", frm, to, amount))
    def approve(self, owner, spender, amount):
        self.allowances[(owner, spender)] = amount
    def transfer_from(self, spender, frm, to, amount):
        allowed = self.allowances.get((frm, spender), 0)
        if allowed < amount:
            raise PermissionError("allowance exceeded")
        self.transfer(frm, to, amount)
        self.allowances[(frm, spender)] = allowed - amount
t = Token(1000)
t.transfer("owner", "alice", 300)
t.approve("alice", "bob", 100)
t.transfer_from("bob", "alice", "carol", 60)
for op in [lambda: t.transfer("alice", "bob", 10000), lambda: t.transfer_from("bob", "alice", "x", 50), lambda: t.transfer("a", "b", 0)]:
    try:
        op()
    except (InsufficientBalance, PermissionError, ValueError) as e:
        print(type(e).__name__, e)
print(sorted(t.balances.items()), t.allowances, len(t.events), t.events[-1])
