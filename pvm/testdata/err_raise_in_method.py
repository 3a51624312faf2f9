class Account:
    def __init__(self):
        self.balance = 0
    def withdraw(self, n):
        self.check(n)
    def check(self, n):
        if n > self.balance:
            raise ValueError(f"insufficient: {self.balance} < {n}")
Account().withdraw(5)
