def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b

def take(n, it):
    return [x for _, x in zip(range(n), it)]

def chain(*its):
    for it in its:
        yield from it
