"""itertools for the PVM, as generators (metered like user code)."""

__all__ = ['count', 'cycle', 'repeat', 'accumulate', 'chain', 'compress', 'dropwhile',
           'filterfalse', 'groupby', 'islice', 'pairwise', 'starmap', 'takewhile', 'tee',
           'zip_longest', 'product', 'permutations', 'combinations',
           'combinations_with_replacement']


def _add(a, b):
    return a + b


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def cycle(iterable):
    saved = []
    for element in iterable:
        yield element
        saved.append(element)
    while saved:
        for element in saved:
            yield element


def repeat(object, times=None):
    if times is None:
        while True:
            yield object
    else:
        for _ in range(times):
            yield object


def accumulate(iterable, func=None, *, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    if func is None:
        func = _add
    yield total
    for element in it:
        total = func(total, element)
        yield total


def chain(*iterables):
    for it in iterables:
        for element in it:
            yield element


def _from_iterable(iterables):
    for it in iterables:
        for element in it:
            yield element


chain.from_iterable = _from_iterable


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


def _index(value, what):
    if value is None:
        return None
    if not isinstance(value, int):
        raise ValueError('%s argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.' % what)
    if value < 0:
        raise ValueError('%s argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.' % what)
    return value


def islice(iterable, *args):
    if len(args) == 0:
        raise TypeError('islice expected at least 2 arguments, got 1')
    if len(args) > 3:
        raise TypeError('islice expected at most 4 arguments, got %d' % (len(args) + 1))
    if len(args) == 1:
        start, stop, step = 0, _index(args[0], 'Stop'), 1
    else:
        start = _index(args[0], 'Indices')
        stop = _index(args[1], 'Stop')
        step = 1
        if len(args) == 3:
            if args[2] is not None:
                if not isinstance(args[2], int) or args[2] <= 0:
                    raise ValueError('Step for islice() must be a positive integer or None.')
                step = args[2]
        if start is None:
            start = 0
    return _islice(iter(iterable), start, stop, step)


def _islice(it, start, stop, step):
    nexti = start
    i = 0
    while stop is None or i < stop:
        try:
            element = next(it)
        except StopIteration:
            return
        if i == nexti:
            yield element
            nexti += step
        i += 1
    # CPython consumes up to start when stop <= start; nothing to yield.


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


def product(*args, repeat=1):
    if not isinstance(repeat, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(repeat).__name__)
    if repeat < 0:
        raise ValueError('repeat argument cannot be negative')
    pools = [tuple(pool) for pool in args] * repeat
    return _product(pools)


def _product(pools):
    result = [[]]
    for pool in pools:
        result = [x + [y] for x in result for y in pool]
    for prod in result:
        yield tuple(prod)


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r < 0:
        raise ValueError('r must be non-negative')
    return _permutations(pool, n, r)


def _permutations(pool, n, r):
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1:] + indices[i:i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def combinations(iterable, r):
    pool = tuple(iterable)
    if r < 0:
        raise ValueError('r must be non-negative')
    return _combinations(pool, len(pool), r)


def _combinations(pool, n, r):
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    if r < 0:
        raise ValueError('r must be non-negative')
    return _cwr(pool, len(pool), r)


def _cwr(pool, n, r):
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)
