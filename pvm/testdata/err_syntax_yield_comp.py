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
def gen_list():
    return [(yield i) for i in range(0)] if False else (yield 1)
print(list(gen_list()))
