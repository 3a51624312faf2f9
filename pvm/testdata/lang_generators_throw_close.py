# Generator throw/close protocols with cleanup and re-yield.
def worker(log):
    log.append("start")
    try:
        while True:
            try:
                job = yield
                log.append(f"job {job}")
            except KeyError as e:
                log.append(f"skip {e.args[0]}")
    except GeneratorExit:
        log.append("exit")
        raise
    finally:
        log.append("finally")


log = []
w = worker(log)
next(w)
w.send(1)
w.throw(KeyError("bad"))
w.send(2)
w.close()
print(log)


def once():
    yield "only"


g = once()
print(next(g))
try:
    g.throw(ValueError("after last yield"))
except ValueError as e:
    print("raised out:", e)
try:
    next(g)
except StopIteration:
    print("exhausted")
g2 = once()
try:
    g2.throw(RuntimeError("before start"))
except RuntimeError as e:
    print("unstarted throw:", e)
print(list(g2))


def returning():
    try:
        yield 1
    except ValueError:
        return "handled"


r = returning()
next(r)
try:
    r.throw(ValueError)
except StopIteration as s:
    print("StopIteration value:", s.value)


def gen_with_finally():
    try:
        yield 1
        yield 2
    finally:
        print("  cleanup ran")


gg = gen_with_finally()
next(gg)
gg.close()
print("closed explicitly")
