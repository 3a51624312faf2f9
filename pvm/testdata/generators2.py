def countdown(n):
    while n > 0:
        yield n
        n -= 1
print(list(countdown(5)), max(countdown(3)), sorted(countdown(4)))
def take(n, it):
    out = []
    for x in it:
        if len(out) == n:
            break
        out.append(x)
    return out
def naturals():
    n = 0
    while True:
        yield n
        n += 1
print(take(5, naturals()), take(3, (x * x for x in naturals())))
def pipeline(xs):
    evens = (x for x in xs if x % 2 == 0)
    squares = (x * x for x in evens)
    return sum(squares)
print(pipeline(range(10)))
def chain(*its):
    for it in its:
        yield from it
print(list(chain([1, 2], "ab", range(2))))
def accumulate():
    total = 0
    while True:
        x = yield total
        if x is None:
            return total
        total += x
acc = accumulate()
next(acc)
for v in [1, 2, 3]:
    print(acc.send(v))
def gen_with_state():
    state = []
    for i in range(3):
        state.append(i)
        yield list(state)
print(list(gen_with_state()))
g = countdown(2)
print(next(g), next(g), next(g, "end"), list(g))
print(list(zip(countdown(3), naturals())), dict(enumerate(countdown(2))))
