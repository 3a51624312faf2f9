# asyncio for the PVM: run() drives one coroutine to completion, and
# sleep(0) yields to it. Nothing else.
#
# CIP-3 §2.2 allows async/await single-threaded and FIFO, without asyncio's
# concurrency primitives: a contract call has one thread of control, no clock
# and no I/O to wait for, so there is nothing to schedule concurrently. run()
# is therefore a loop that sends into the one coroutine until it returns;
# every `await` chain runs depth-first in program order, the same on every
# node. The names of asyncio's scheduling and synchronisation API exist so
# that importing them works, but calling them raises NotImplementedError
# naming what is refused and why (docs/decisions.md, "async/await").

__all__ = ['run', 'sleep', 'iscoroutine', 'CancelledError', 'InvalidStateError']


class CancelledError(BaseException):
    pass  # The operation was cancelled (never raised by the PVM's run()).


class InvalidStateError(Exception):
    pass  # The operation is not allowed in this state.


async def _probe():
    pass


_c = _probe()
_CoroutineType = type(_c)
_c.close()
del _c


def iscoroutine(obj):
    """Return True if obj is a coroutine object."""
    return isinstance(obj, _CoroutineType)


class _Yield:
    # An awaitable that suspends once with a bare yield: the step run()
    # resumes at once (asyncio's __sleep0).
    __slots__ = ()

    def __await__(self):
        yield


_REASON = ('CIP-3 §2.2 runs coroutines single-threaded and FIFO, with no event loop, '
           'tasks or concurrency primitives; await the coroutines one after another instead')


def _refuse(what, reason=_REASON):
    return NotImplementedError('PVM: %s is refused: %s' % (what, reason))


async def sleep(delay, result=None):
    """Coroutine that yields once to run() and returns result. Only a
    delay <= 0 is allowed: a contract call has no clock."""
    if delay > 0:
        raise _refuse('asyncio.sleep() with a delay > 0',
                      'a contract call has no clock, so no time can pass inside it')
    await _Yield()
    return result


_running = False


def run(main, *, debug=None):
    """Run the coroutine main to completion and return its result (its
    exception propagates). Its awaits run in program order; a bare yield
    (sleep(0)) resumes it at once."""
    global _running
    if _running:
        raise RuntimeError('asyncio.run() cannot be called from a running event loop')
    if not iscoroutine(main):
        raise ValueError('a coroutine was expected, got {!r}'.format(main))
    _running = True
    try:
        exc = None
        while True:
            try:
                if exc is None:
                    got = main.send(None)
                else:
                    got = main.throw(exc)
            except StopIteration as e:
                return e.value
            exc = None
            if got is not None:
                # asyncio's Task refuses anything but a bare yield or a
                # Future; the PVM has no Futures.
                exc = RuntimeError('Task got bad yield: {!r}'.format(got))
    finally:
        _running = False


def _refused_callable(name):
    def refused(*args, **kwargs):
        for a in args:
            if iscoroutine(a):
                a.close()  # never started: no "never awaited" state left
        raise _refuse('asyncio.' + name)
    refused.__name__ = name
    refused.__qualname__ = name
    return refused


# The scheduling and synchronisation API, refused when called.
gather = _refused_callable('gather')
create_task = _refused_callable('create_task')
ensure_future = _refused_callable('ensure_future')
wait = _refused_callable('wait')
wait_for = _refused_callable('wait_for')
as_completed = _refused_callable('as_completed')
shield = _refused_callable('shield')
run_coroutine_threadsafe = _refused_callable('run_coroutine_threadsafe')
to_thread = _refused_callable('to_thread')
get_event_loop = _refused_callable('get_event_loop')
get_running_loop = _refused_callable('get_running_loop')
new_event_loop = _refused_callable('new_event_loop')
set_event_loop = _refused_callable('set_event_loop')
all_tasks = _refused_callable('all_tasks')
current_task = _refused_callable('current_task')
timeout = _refused_callable('timeout')
timeout_at = _refused_callable('timeout_at')
open_connection = _refused_callable('open_connection')
start_server = _refused_callable('start_server')
create_subprocess_exec = _refused_callable('create_subprocess_exec')
create_subprocess_shell = _refused_callable('create_subprocess_shell')
Task = _refused_callable('Task')
Future = _refused_callable('Future')
Queue = _refused_callable('Queue')
PriorityQueue = _refused_callable('PriorityQueue')
LifoQueue = _refused_callable('LifoQueue')
Lock = _refused_callable('Lock')
Event = _refused_callable('Event')
Condition = _refused_callable('Condition')
Semaphore = _refused_callable('Semaphore')
BoundedSemaphore = _refused_callable('BoundedSemaphore')
Barrier = _refused_callable('Barrier')
TaskGroup = _refused_callable('TaskGroup')
Runner = _refused_callable('Runner')
