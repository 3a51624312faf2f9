def gen(n):
    for i in range(n):
        yield i * i
print(list(gen(5)), sum(gen(4)))
g = gen(3)
print(next(g), next(g), next(g), next(g, "done"))
def echo():
    got = yield "start"
    while True:
        got = yield f"got {got}"
e = echo()
print(next(e), e.send(1), e.send("x"))
def sub():
    yield 1
    yield 2
    return "subret"
def outer():
    r = yield from sub()
    yield r
    yield from [10, 20]
print(list(outer()))
print(list(x * 2 for x in range(4)), sum(x for x in range(101)))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
f = fib()
print([next(f) for _ in range(10)])
def with_return():
    yield 1
    return 5
try:
    g = with_return()
    next(g)
    next(g)
except StopIteration as s:
    print("stop", s.value)
def closer():
    try:
        yield 1
        yield 2
    finally:
        print("closed")
c = closer()
print(next(c))
c.close()
def catcher():
    while True:
        try:
            yield
        except ValueError as ex:
            print("caught in gen", ex)
ct = catcher()
next(ct)
ct.throw(ValueError("boom"))
gi = (i for i in range(3))
print(iter(gi) is gi, list(gi), list(gi))
