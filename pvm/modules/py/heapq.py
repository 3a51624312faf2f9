"""Heap queue: a min-heap kept in a plain list (CPython 3.11's heapq).

Written for the PVM. heap[k] <= heap[2*k+1] and heap[k] <= heap[2*k+2]
for every k, so heap[0] is the smallest item. The functions move items
exactly as CPython's C module does (same comparisons, in the same order,
so a heap prints the same list after the same pushes and pops); they only
use `<` on the items. nsmallest, nlargest and merge return what CPython's
do: nsmallest(n, it, key) == sorted(it, key=key)[:n], ties kept in input
order.
"""

__all__ = ['heappush', 'heappop', 'heapify', 'heapreplace', 'merge',
           'nlargest', 'nsmallest', 'heappushpop']


def _check(heap, name, single=False):
    # The C module's argument check, with its message.
    if not isinstance(heap, list):
        which = "argument" if single else "argument 1"
        raise TypeError("%s() %s must be list, not %s" % (name, which, type(heap).__name__))


def _siftdown(heap, startpos, pos):
    # Move the item at pos up towards startpos while it is smaller than
    # its parent.
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup(heap, pos):
    # Floyd's variant, as CPython: move the smaller child up until a leaf
    # is reached, put the item there and sift it back down.
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


def heappush(heap, item, /):
    """Push item onto heap, maintaining the heap invariant."""
    _check(heap, 'heappush')
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


def heappop(heap, /):
    """Pop the smallest item off the heap, maintaining the heap invariant."""
    _check(heap, 'heappop', True)
    if not heap:
        raise IndexError("index out of range")
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


def heapreplace(heap, item, /):
    """Pop and return the smallest item, then push item (the heap size is
    unchanged; the returned item may be larger than item)."""
    _check(heap, 'heapreplace')
    if not heap:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


def heappushpop(heap, item, /):
    """Push item on the heap, then pop and return the smallest item."""
    _check(heap, 'heappushpop')
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _siftup(heap, 0)
    return item


def heapify(heap, /):
    """Transform a list into a heap, in place, in linear time."""
    _check(heap, 'heapify', True)
    n = len(heap)
    for i in reversed(range(n // 2)):
        _siftup(heap, i)


def _siftdown_max(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if parent < newitem:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup_max(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[rightpos] < heap[childpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown_max(heap, startpos, pos)


def _heapify_max(heap, /):
    """Transform a list into a max-heap, in place."""
    _check(heap, '_heapify_max', True)
    for i in reversed(range(len(heap) // 2)):
        _siftup_max(heap, i)


def _heappop_max(heap, /):
    """Pop the largest item off a max-heap."""
    _check(heap, '_heappop_max', True)
    if not heap:
        raise IndexError("index out of range")
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup_max(heap, 0)
        return returnitem
    return lastelt


def _heapreplace_max(heap, item, /):
    """Pop the largest item off a max-heap and push item."""
    _check(heap, '_heapreplace_max')
    if not heap:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    _siftup_max(heap, 0)
    return returnitem


def merge(*iterables, key=None, reverse=False):
    """Merge sorted inputs into a single sorted iterator, lazily; equal
    items come out in the order of their iterables."""
    h = []
    if reverse:
        _heapify_, _heappop_, _heapreplace_, direction = _heapify_max, _heappop_max, _heapreplace_max, -1
    else:
        _heapify_, _heappop_, _heapreplace_, direction = heapify, heappop, heapreplace, 1
    # Each entry is [sort value, order, (value,) iterator]; order breaks
    # ties by input position and keeps two iterators from being compared.
    for order, it in enumerate(map(iter, iterables)):
        try:
            value = next(it)
        except StopIteration:
            continue
        if key is None:
            h.append([value, order * direction, it])
        else:
            h.append([key(value), order * direction, value, it])
    _heapify_(h)
    if key is None:
        while len(h) > 1:
            try:
                while True:
                    s = h[0]
                    value, _, it = s
                    yield value
                    s[0] = next(it)
                    _heapreplace_(h, s)
            except StopIteration:
                _heappop_(h)
        if h:
            value, _, it = h[0]
            yield value
            yield from it
        return
    while len(h) > 1:
        try:
            while True:
                s = h[0]
                _, _, value, it = s
                yield value
                value = next(it)
                s[0] = key(value)
                s[2] = value
                _heapreplace_(h, s)
        except StopIteration:
            _heappop_(h)
    if h:
        _, _, value, it = h[0]
        yield value
        yield from it


def _chain(first, it):
    yield first
    yield from it


def nsmallest(n, iterable, key=None):
    """The n smallest items of iterable: sorted(iterable, key=key)[:n]."""
    if n == 1:
        it = iter(iterable)
        for first in it:
            return [min(_chain(first, it), key=key)]
        return []
    try:
        size = len(iterable)
    except (TypeError, AttributeError):
        pass
    else:
        if n >= size:
            return sorted(iterable, key=key)[:n]
    if n <= 0:
        return []
    # A max-heap of the n smallest so far, decorated with the input
    # position so that equal items keep their order.
    it = iter(iterable)
    if key is None:
        result = [(elem, i) for i, elem in zip(range(n), it)]
        if not result:
            return result
        _heapify_max(result)
        top = result[0][0]
        order = n
        for elem in it:
            if elem < top:
                _heapreplace_max(result, (elem, order))
                top, _order = result[0]
                order += 1
        result.sort()
        return [elem for (elem, order) in result]
    result = [(key(elem), i, elem) for i, elem in zip(range(n), it)]
    if not result:
        return result
    _heapify_max(result)
    top = result[0][0]
    order = n
    for elem in it:
        k = key(elem)
        if k < top:
            _heapreplace_max(result, (k, order, elem))
            top, _order, _elem = result[0]
            order += 1
    result.sort()
    return [elem for (k, order, elem) in result]


def nlargest(n, iterable, key=None):
    """The n largest items of iterable: sorted(iterable, key=key,
    reverse=True)[:n]."""
    if n == 1:
        it = iter(iterable)
        for first in it:
            return [max(_chain(first, it), key=key)]
        return []
    try:
        size = len(iterable)
    except (TypeError, AttributeError):
        pass
    else:
        if n >= size:
            return sorted(iterable, key=key, reverse=True)[:n]
    if n <= 0:
        return []
    # A min-heap of the n largest so far; the position is negated so that
    # among equal items the earlier one ranks larger.
    it = iter(iterable)
    if key is None:
        result = [(elem, i) for i, elem in zip(range(0, -n, -1), it)]
        if not result:
            return result
        heapify(result)
        top = result[0][0]
        order = -n
        for elem in it:
            if top < elem:
                heapreplace(result, (elem, order))
                top, _order = result[0]
                order -= 1
        result.sort(reverse=True)
        return [elem for (elem, order) in result]
    result = [(key(elem), i, elem) for i, elem in zip(range(0, -n, -1), it)]
    if not result:
        return result
    heapify(result)
    top = result[0][0]
    order = -n
    for elem in it:
        k = key(elem)
        if top < k:
            heapreplace(result, (k, order, elem))
            top, _order, _elem = result[0]
            order -= 1
    result.sort(reverse=True)
    return [elem for (k, order, elem) in result]
