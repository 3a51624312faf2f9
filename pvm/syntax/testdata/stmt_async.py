import asyncio


async def fetch(x, *, delay=0):
    await asyncio.sleep(0)
    return x * 2


@decorator
async def decorated(a):
    async for item in source(a):
        print(item)
    else:
        pass
    async with lock as held, other():
        await held.wait()
    return [await fetch(i) for i in range(3)]


class C:
    async def method(self):
        return await self.other()
