# itertools for the PVM. The iterators are written in Go in _itertools,
# as CPython's are in C; tee is Python here, metered like user code.

from _itertools import (accumulate, chain, combinations,
                        combinations_with_replacement, compress, count, cycle,
                        dropwhile, filterfalse, groupby, islice, pairwise,
                        permutations, product, repeat, starmap, takewhile,
                        zip_longest)

__all__ = ['count', 'cycle', 'repeat', 'accumulate', 'chain', 'compress', 'dropwhile',
           'filterfalse', 'groupby', 'islice', 'pairwise', 'starmap', 'takewhile', 'tee',
           'zip_longest', 'product', 'permutations', 'combinations',
           'combinations_with_replacement']


class _TeeLink:
    __slots__ = ('value', 'next')

    def __init__(self):
        self.next = None


def _tee_gen(it, link):
    while True:
        if link.next is None:
            try:
                value = next(it)
            except StopIteration:
                return
            link.value = value
            link.next = _TeeLink()
        yield link.value
        link = link.next


def tee(iterable, n=2):
    if not isinstance(n, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(n).__name__)
    if n < 0:
        raise ValueError('n must be >= 0')
    it = iter(iterable)
    link = _TeeLink()
    return tuple(_tee_gen(it, link) for _ in range(n))
