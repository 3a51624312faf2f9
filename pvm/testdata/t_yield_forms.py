def g():
    x = yield
    print("got", x)
    y = yield x * 2
    print("got", y)
    yield (x, y)
it = g()
print(next(it))
print(it.send(5))
print(it.send("y"))
def h():
    total = 0
    while True:
        v = (yield total)
        if v is None:
            break
        total += v
gen = h()
print(next(gen), gen.send(3), gen.send(4), next(gen, "done"))
