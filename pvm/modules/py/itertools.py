"""itertools for the PVM. The hot iterators (count, repeat, accumulate,
chain, islice, product, permutations, combinations,
combinations_with_replacement) are written in Go in _itertools, as
CPython's are in C; the rest are generators here, metered like user code."""

from _itertools import (accumulate, chain, combinations,
                        combinations_with_replacement, count, islice,
                        permutations, product, repeat)

__all__ = ['count', 'cycle', 'repeat', 'accumulate', 'chain', 'compress', 'dropwhile',
           'filterfalse', 'groupby', 'islice', 'pairwise', 'starmap', 'takewhile', 'tee',
           'zip_longest', 'product', 'permutations', 'combinations',
           'combinations_with_replacement']


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


def compress(data, selectors):
    for d, s in zip(data, selectors):
        if s:
            yield d


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    for x in it:
        yield x


def filterfalse(predicate, iterable):
    if predicate is None:
        predicate = bool
    for x in iterable:
        if not predicate(x):
            yield x


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


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def takewhile(predicate, iterable):
    for x in iterable:
        if predicate(x):
            yield x
        else:
            break


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


def zip_longest(*args, fillvalue=None):
    iterators = [iter(it) for it in args]
    num_active = len(iterators)
    if not num_active:
        return
    while True:
        values = []
        for i, it in enumerate(iterators):
            try:
                value = next(it)
            except StopIteration:
                num_active -= 1
                if not num_active:
                    return
                iterators[i] = repeat(fillvalue)
                value = fillvalue
            values.append(value)
        yield tuple(values)
