# Generators as coroutines: send, throw, close and return values.
def averager():
    total, n, avg = 0, 0, None
    while True:
        x = yield avg
        if x is None:
            break
        total += x
        n += 1
        avg = total / n
    return (n, total)


g = averager()
print(next(g))
for v in [10, 20, 30, 5]:
    print(g.send(v))
try:
    g.send(None)
except StopIteration as e:
    print("returned", e.value, e.args)


def guarded():
    try:
        while True:
            try:
                x = yield
                print("got", x)
            except ValueError as e:
                print("handled", e)
                yield "recovered"
    finally:
        print("cleanup")


g = guarded()
next(g)
g.send(1)
print(g.throw(ValueError("boom")))
next(g)
g.send(2)
g.close()
print("closed")
g.close()
try:
    g.send(3)
except StopIteration:
    print("StopIteration after close")


def stubborn():
    try:
        yield 1
    except GeneratorExit:
        yield 2


s = stubborn()
next(s)
try:
    s.close()
except RuntimeError as e:
    print("RuntimeError", e)

g = averager()
try:
    g.send(5)
except TypeError as e:
    print("TypeError", e)


def counter():
    n = 0
    while True:
        cmd = yield n
        if cmd == "reset":
            n = 0
        else:
            n += 1


c = counter()
print([next(c), next(c), next(c), c.send("reset"), next(c)])
t = counter()
next(t)
try:
    t.throw(KeyError("k"))
except KeyError as e:
    print("propagated", repr(e))
print(t.gi_frame is None if hasattr(t, "gi_frame") else True)
try:
    next(t)
except StopIteration:
    print("exhausted")
