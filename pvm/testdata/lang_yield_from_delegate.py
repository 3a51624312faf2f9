# yield from: delegation, return values, send/throw pass-through.
def inner(tag):
    received = []
    while True:
        x = yield f"{tag}:{len(received)}"
        if x == "stop":
            return received
        received.append(x)


def outer():
    a = yield from inner("A")
    print("A returned", a)
    b = yield from inner("B")
    print("B returned", b)
    return len(a) + len(b)


g = outer()
print(next(g))
print(g.send(1))
print(g.send(2))
print(g.send("stop"))
print(g.send("x"))
try:
    g.send("stop")
except StopIteration as e:
    print("total", e.value)


def flatten(x):
    if isinstance(x, (list, tuple)):
        for item in x:
            yield from flatten(item)
    else:
        yield x


print(list(flatten([1, [2, (3, [4, 5])], [], [[6]]])))


def chain(*its):
    for it in its:
        yield from it


print(list(chain(range(3), "ab", {"k": 1}, (x * x for x in range(3)))))


def catcher():
    while True:
        try:
            yield
        except ValueError as e:
            print("inner caught", e)


def wrapper():
    yield from catcher()


w = wrapper()
next(w)
w.throw(ValueError("via outer"))
w.close()
print("closed ok")


def sub():
    yield 1
    raise KeyError("from sub")


def top():
    try:
        yield from sub()
    except KeyError as e:
        yield f"caught {e}"


print(list(top()))


def gen_ret():
    yield from []
    return "empty"


def use():
    r = yield from gen_ret()
    yield r


print(list(use()))
