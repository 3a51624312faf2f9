import asyncio

log = []


async def double(x):
    log.append('double %d' % x)
    await asyncio.sleep(0)
    return 2 * x


async def chain(n):
    total = 0
    for i in range(n):
        total += await double(i)
    return total


async def fails(msg):
    await asyncio.sleep(0)
    raise ValueError(msg)


def deco(fn):
    async def wrapper(*args, **kwargs):
        log.append('before ' + fn.__name__)
        r = await fn(*args, **kwargs)
        log.append('after ' + fn.__name__)
        return r
    wrapper.__name__ = fn.__name__
    return wrapper


@deco
async def greet(name, punct='!'):
    return 'hello ' + name + punct


class Account:
    def __init__(self, balance):
        self.balance = balance

    async def withdraw(self, amount):
        await asyncio.sleep(0)
        if amount > self.balance:
            raise RuntimeError('insufficient funds: %d > %d' % (amount, self.balance))
        self.balance -= amount
        return self.balance

    @staticmethod
    async def fee(amount):
        return amount // 100


def make_counter():
    count = 0

    async def bump(by=1):
        nonlocal count
        count += by
        return count
    return bump


async def main():
    print(await chain(4))
    print(await greet('pvm'), await greet('world', punct='?'))
    acct = Account(100)
    print(await acct.withdraw(30), await acct.withdraw(20))
    try:
        await acct.withdraw(1000)
    except RuntimeError as e:
        print('caught:', e)
    print(await Account.fee(2500))
    try:
        await fails('boom')
    except ValueError as e:
        print('caught ValueError', e)
    bump = make_counter()
    print(await bump(), await bump(5), await bump())
    results = []
    for coro in [double(10), double(20), chain(3)]:
        results.append(await coro)
    print(results)
    r = await asyncio.sleep(0, result='slept')
    print(r, await asyncio.sleep(-1, 7))
    try:
        return {'answer': await double(21)}
    finally:
        print('finally runs before the result is returned')


print(asyncio.run(main()))
print(log)
c = double(3)
print(type(c).__name__, asyncio.iscoroutine(c), asyncio.iscoroutine(double))
print(asyncio.run(c))
try:
    asyncio.run(fails('at top'))
except ValueError as e:
    print('run propagated:', e)
print(asyncio.run(chain(0)))
