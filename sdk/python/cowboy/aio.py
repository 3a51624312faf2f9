"""AsyncClient: every Client method as a coroutine.

Each call runs the synchronous Client method in a worker thread
(asyncio.to_thread), so an event loop is never blocked by the network:

    async with cowboy.AsyncClient(url) as c:
        height, balance = await asyncio.gather(c.block_number(), c.get_balance(addr))

The methods, their arguments, results and exceptions are those of Client.
subscriber() returns the synchronous Subscriber (a WebSocket connection);
its next() blocks, so call it with asyncio.to_thread too.
"""

import asyncio
import functools
import inspect

from .client import DEFAULT_URL, Client


class AsyncClient:
    """Client's API, each method a coroutine (see the module doc)."""

    def __init__(self, url=DEFAULT_URL, timeout=30.0):
        self.sync = Client(url, timeout)

    @property
    def url(self):
        return self.sync.url

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False


def _coroutine(name, fn):
    @functools.wraps(fn)
    async def method(self, *args, **kw):
        return await asyncio.to_thread(getattr(self.sync, name), *args, **kw)
    return method


for _name, _fn in inspect.getmembers(Client, inspect.isfunction):
    if not _name.startswith("_"):
        setattr(AsyncClient, _name, _coroutine(_name, _fn))
