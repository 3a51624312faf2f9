log = []
def managed():
    log.append("start")
    try:
        yield 1
        yield 2
    except GeneratorExit:
        log.append("exit")
        raise
    finally:
        log.append("finally")
g = managed()
print(next(g))
g.close()
print(log)
def thrower():
    try:
        yield "a"
    except KeyError as e:
        yield f"handled {e}"
t = thrower()
print(next(t), t.throw(KeyError("k")))
