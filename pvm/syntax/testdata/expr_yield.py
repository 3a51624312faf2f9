def g():
    yield
    yield 1
    yield 1, 2
    x = yield
    y = yield z
    yield from range(3)
    z = yield from g()
    await_ = (yield)
    f((yield))
    return (yield x)
