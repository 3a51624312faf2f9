class Account:
    def __init__(self):
        self.balance = 10
    def deposit(self, n):
        self.balance += n
a = Account()
a.deposit(5)
print(a.balance)
print(a.balanse)
