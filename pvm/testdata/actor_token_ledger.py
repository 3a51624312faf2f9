# A fungible token ledger with allowances, as an actor author would write it.
class InsufficientBalance(Exception):
    pass


class Token:
    def __init__(self, name, symbol, supply, owner):
        self.name = name
        self.symbol = symbol
        self.total_supply = supply
        self.balances = {owner: supply}
        self.allowances = {}
        self.events = []

    def balance_of(self, who):
        return self.balances.get(who, 0)

    def transfer(self, sender, to, amount):
        if amount <= 0:
            raise ValueError(f"amount must be positive, got {amount}")
        bal = self.balance_of(sender)
        if bal < amount:
            raise InsufficientBalance(f"{sender} has {bal}, needs {amount}")
        self.balances[sender] = bal - amount
        self.balances[to] = self.balance_of(to) + amount
        self.events.append(("Transfer", sender, to, amount))

    def approve(self, owner, spender, amount):
        self.allowances[(owner, spender)] = amount
        self.events.append(("Approval", owner, spender, amount))

    def transfer_from(self, spender, owner, to, amount):
        allowed = self.allowances.get((owner, spender), 0)
        if allowed < amount:
            raise InsufficientBalance(f"allowance {allowed} < {amount}")
        self.transfer(owner, to, amount)
        self.allowances[(owner, spender)] = allowed - amount

    def mint(self, to, amount):
        self.total_supply += amount
        self.balances[to] = self.balance_of(to) + amount

    def burn(self, who, amount):
        self.transfer(who, "0x0", amount)
        self.total_supply -= amount
        del self.balances["0x0"]


tok = Token("Cowboy Dollar", "CWD", 1_000_000, "alice")
tok.transfer("alice", "bob", 2500)
tok.transfer("bob", "carol", 700)
tok.approve("alice", "dex", 10_000)
tok.transfer_from("dex", "alice", "dave", 4000)
tok.mint("erin", 123)
tok.burn("alice", 1000)
for bad in [("carol", "bob", 701), ("bob", "carol", 0), ("bob", "carol", -5)]:
    try:
        tok.transfer(*bad)
    except (InsufficientBalance, ValueError) as e:
        print(type(e).__name__, e)
try:
    tok.transfer_from("dex", "alice", "bob", 6001)
except InsufficientBalance as e:
    print("allowance:", e)

for who in sorted(tok.balances):
    print(f"{who:>6} {tok.balances[who]:>10,}")
print("supply", tok.total_supply, "sum", sum(tok.balances.values()))
assert tok.total_supply == sum(tok.balances.values())
print("remaining allowance", tok.allowances[("alice", "dex")])
for ev in tok.events:
    print(*ev, sep=" | ")
rich = [w for w, b in sorted(tok.balances.items(), key=lambda kv: -kv[1]) if b > 1000]
print("rich:", rich)
