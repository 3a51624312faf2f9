def make_bank():
    balance = 0
    log = []
    def deposit(n):
        nonlocal balance
        balance += n
        log.append(("dep", n))
        return balance
    def withdraw(n):
        nonlocal balance
        if n > balance:
            raise ValueError("insufficient")
        balance -= n
        log.append(("wd", n))
        return balance
    def report():
        return balance, list(log)
    return deposit, withdraw, report
dep, wd, rep = make_bank()
dep(100)
wd(30)
try:
    wd(1000)
except ValueError as e:
    print(e)
print(rep())
