import asyncio

trace = []


class Ticker:
    """An asynchronous iterator: __aiter__ returns self, __anext__ is a
    coroutine that raises StopAsyncIteration at the end."""

    def __init__(self, n):
        self.i = 0
        self.n = n

    def __aiter__(self):
        trace.append('aiter')
        return self

    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i


class Resource:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    async def __aenter__(self):
        trace.append('enter ' + self.name)
        await asyncio.sleep(0)
        return self.name.upper()

    async def __aexit__(self, exc_type, exc, tb):
        trace.append('exit %s %s %s' % (self.name, exc_type.__name__ if exc_type else None, exc))
        await asyncio.sleep(0)
        return self.suppress


class Ready:
    """A plain awaitable: __await__ returns an iterator (a generator)."""

    def __init__(self, value):
        self.value = value

    def __await__(self):
        yield
        return self.value * 3


async def loops():
    out = []
    async for v in Ticker(4):
        if v == 2:
            continue
        out.append(v)
    else:
        out.append('else')
    async for v in Ticker(10):
        if v == 3:
            break
        out.append(v * 10)
    else:
        out.append('not reached')
    async for a in Ticker(0):
        out.append('never')
    else:
        out.append('empty else')
    return out


async def withs():
    async with Resource('a') as name:
        trace.append('body ' + name)
    async with Resource('outer') as o, Resource('inner') as i:
        trace.append('both %s %s' % (o, i))
    try:
        async with Resource('raises'):
            raise KeyError('k')
    except KeyError as e:
        trace.append('propagated %r' % e)
    async with Resource('swallow', suppress=True):
        raise ValueError('hidden')
    trace.append('after suppressed')
    return 'done'


async def early():
    for i in range(3):
        async with Resource('loop%d' % i):
            if i == 1:
                return 'returned in ' + str(i)
            if i == 0:
                continue
    return 'not reached'


async def main():
    print(await loops())
    print(await withs())
    print(await early())
    print(await Ready(14))
    r = Resource('manual')
    print(await r.__aenter__(), await r.__aexit__(None, None, None))
    return len(trace)


print(asyncio.run(main()))
for line in trace:
    print(line)


# Driving coroutines by hand: send, throw, close.
async def echo():
    got = []
    try:
        while True:
            v = await Ready(1)
            got.append(v)
            if len(got) == 3:
                return got
    except GeneratorExit:
        print('closing')
        raise


c = echo()
print(c.send(None), c.send(None), c.send(None))
try:
    c.send(None)
except StopIteration as e:
    print('returned', e.value)

c = echo()
c.send(None)
c.close()
c = echo()
c.send(None)
try:
    c.throw(ValueError('thrown in'))
except ValueError as e:
    print('throw raised', e)


async def catcher():
    try:
        await Ready(0)
    except KeyError as e:
        return 'caught %r' % e


c = catcher()
c.send(None)
try:
    c.throw(KeyError('x'))
except StopIteration as e:
    print(e.value)
print(StopAsyncIteration.__mro__[1].__name__)
