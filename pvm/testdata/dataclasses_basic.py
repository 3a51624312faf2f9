from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass


@dataclass
class Transfer:
    sender: str
    receiver: str
    amount: int
    memo: str = ""
    tags: list = field(default_factory=list)


t = Transfer("alice", "bob", 10)
print(t)
print(t.amount, t.memo, t.tags, t == Transfer("alice", "bob", 10), t == Transfer("alice", "bob", 11))
t.tags.append("urgent")
print(Transfer("a", "b", 1).tags, t.tags)
print([f.name for f in fields(Transfer)], asdict(t), astuple(t))
t2 = replace(t, amount=99, memo="refund")
print(t2, t is not t2, is_dataclass(t), is_dataclass(Transfer), is_dataclass(5))
try:
    Transfer("x")
except TypeError as e:
    print("TypeError", e)
try:
    Transfer("x", "y", 1, "m", [], 5)
except TypeError as e:
    print("TypeError", e)
try:
    Transfer("x", "y", 1, bogus=2)
except TypeError as e:
    print("TypeError", e)
try:
    hash(t)
except TypeError as e:
    print("TypeError", e)
print(Transfer(sender="s", amount=3, receiver="r"))


@dataclass
class Account:
    owner: str
    balance: int = 0
    history: list = field(default_factory=list, repr=False)
    nonce: int = field(default=0, compare=False)

    def deposit(self, amount):
        self.balance += amount
        self.history.append(("deposit", amount))
        return self

    @property
    def is_empty(self):
        return self.balance == 0


a = Account("carol")
a.deposit(5).deposit(7)
print(a, a.history, a.is_empty, Account("x", 1, nonce=5) == Account("x", 1, nonce=9))


@dataclass
class Wallet:
    name: str
    accounts: list = field(default_factory=list)


w = Wallet("main", [Account("a", 1), Account("b", 2)])
print(asdict(w))
print(astuple(w))
try:
    @dataclass
    class Bad:
        items: list = []
except ValueError as e:
    print("ValueError", e)
try:
    @dataclass
    class Bad2:
        a: int = 1
        b: int
except TypeError as e:
    print("TypeError", e)
print(Transfer.__annotations__)
