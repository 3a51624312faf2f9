def compute():
    return totl * 2
total = 1
compute()
