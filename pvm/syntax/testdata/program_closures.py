def make_adders(n):
    adders = []
    for i in range(n):
        def add(x, i=i):
            return x + i
        adders.append(add)
    return adders

def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
