import asyncio


async def value(x):
    return x


async def await_plain():
    return await 5


class NoAnext:
    def __aiter__(self):
        return self


class BadAwait:
    def __await__(self):
        return 42


class CoroAwait:
    def __await__(self):
        return value(1)


class BadYield:
    def __await__(self):
        yield 'not a future'
        return 'after'


async def use(obj):
    return await obj


async def for_list():
    async for x in [1, 2]:
        pass


async def for_noanext():
    async for x in NoAnext():
        pass


async def with_sync():
    async with open_like():
        pass


class open_like:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


async def raises_stop():
    raise StopIteration('inside')


async def reuse():
    c = value(3)
    print(await c)
    return await c


def report(fn, *args):
    try:
        print('ok', asyncio.run(fn(*args)))
    except Exception as e:
        print(type(e).__name__ + ':', e)


report(await_plain)
report(use, BadAwait())
report(use, CoroAwait())
report(use, BadYield())
report(for_list)
report(for_noanext)
report(with_sync)
report(raises_stop)
report(reuse)
for bad in (value, 5, None):
    try:
        asyncio.run(bad)
    except ValueError as e:
        print('ValueError:', str(e).split(' at 0x')[0].rstrip('>'))

c = value(9)
try:
    for x in c:
        pass
except TypeError as e:
    print('TypeError:', e)
try:
    next(c)
except TypeError as e:
    print('TypeError:', e)
c.close()
try:
    c.send(None)
except RuntimeError as e:
    print('RuntimeError:', e)


async def nested():
    return asyncio.run(value(1))


n = nested()
try:
    asyncio.run(n)
except RuntimeError as e:
    print('RuntimeError:', e)
