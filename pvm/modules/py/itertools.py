"""itertools for the PVM. The iterators are written in Go in _itertools,
as CPython's are in C; groupby and tee are Python here, metered like user
code."""

from _itertools import (accumulate, chain, combinations,
                        combinations_with_replacement, compress, count, cycle,
                        dropwhile, filterfalse, islice, pairwise, permutations,
                        product, repeat, starmap, takewhile, zip_longest)

__all__ = ['count', 'cycle', 'repeat', 'accumulate', 'chain', 'compress', 'dropwhile',
           'filterfalse', 'groupby', 'islice', 'pairwise', 'starmap', 'takewhile', 'tee',
           'zip_longest', 'product', 'permutations', 'combinations',
           'combinations_with_replacement']


class groupby:
    """Consecutive keys and groups from the iterable."""

    def __init__(self, iterable, key=None):
        if key is None:
            key = _identity
        self.keyfunc = key
        self.it = iter(iterable)
        self.have = False  # currkey/currvalue hold an element
        self.started = False  # tgtkey is set
        self.tgtkey = self.currkey = self.currvalue = None
        self.id = object()

    def __iter__(self):
        return self

    def __next__(self):
        self.id = object()
        while self.have and self.started and self.currkey == self.tgtkey:
            self.currvalue = next(self.it)
            self.currkey = self.keyfunc(self.currvalue)
        if not self.have:
            self.currvalue = next(self.it)
            self.currkey = self.keyfunc(self.currvalue)
            self.have = True
        self.tgtkey = self.currkey
        self.started = True
        return (self.currkey, self._grouper(self.tgtkey, self.id))

    def _grouper(self, tgtkey, id):
        while self.id is id and self.have and self.currkey == tgtkey:
            yield self.currvalue
            try:
                self.currvalue = next(self.it)
            except StopIteration:
                self.have = False
                return
            self.currkey = self.keyfunc(self.currvalue)


def _identity(x):
    return x


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
