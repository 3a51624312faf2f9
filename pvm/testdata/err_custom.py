class InsufficientFunds(Exception):
    pass
def withdraw(balance, amount):
    if amount > balance:
        raise InsufficientFunds(f"need {amount - balance} more")
    return balance - amount
print(withdraw(10, 3))
withdraw(1, 5)
