# Properties with setters/deleters, classmethods, staticmethods, class state.
class Account:
    _count = 0
    FEE = 2

    def __init__(self, owner, balance=0):
        self.owner = owner
        self._balance = balance
        Account._count += 1

    @property
    def balance(self):
        return self._balance

    @balance.setter
    def balance(self, value):
        if value < 0:
            raise ValueError("negative balance")
        self._balance = value

    @balance.deleter
    def balance(self):
        print("closing", self.owner)
        self._balance = 0

    @property
    def label(self):
        return f"{self.owner}:{self._balance}"

    @classmethod
    def count(cls):
        return cls._count

    @classmethod
    def from_string(cls, s):
        owner, bal = s.split("=")
        return cls(owner, int(bal))

    @staticmethod
    def fee_for(amount):
        return max(1, amount * Account.FEE // 100)


class Premium(Account):
    FEE = 1

    @staticmethod
    def fee_for(amount):
        return amount * Premium.FEE // 100


a = Account("ann", 100)
a.balance = 150
print(a.balance, a.label)
try:
    a.balance = -1
except ValueError as e:
    print("ValueError", e)
try:
    a.label = "x"
except AttributeError as e:
    print("AttributeError", e)
del a.balance
print(a.balance)
b = Account.from_string("bob=77")
p = Premium.from_string("cy=1000")
print(type(p).__name__, p.label, Account.count(), Premium.count())
print(Account.fee_for(10), Premium.fee_for(1000), p.fee_for(500), a.fee_for(500))
print(isinstance(Account.__dict__["count"], classmethod), isinstance(Account.__dict__["fee_for"], staticmethod))
print(type(Account.balance).__name__, Account.balance.fget(b))
print(hasattr(a, "label"), getattr(a, "missing", "default"))
setattr(a, "extra", 5)
print(a.extra, vars(a) == a.__dict__, sorted(vars(a)))
