# functools for the PVM: reduce, partial, lru_cache, cache, wraps,
# update_wrapper, cmp_to_key, total_ordering, cached_property.

__all__ = ['reduce', 'partial', 'lru_cache', 'cache', 'wraps', 'update_wrapper',
           'cmp_to_key', 'total_ordering', 'cached_property', 'WRAPPER_ASSIGNMENTS',
           'WRAPPER_UPDATES']

WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')
WRAPPER_UPDATES = ('__dict__',)

class _Missing:
    pass


# Sentinels are compared by type: the PVM refuses `is` on ints and strings.
_initial_missing = _Missing()


def reduce(function, sequence, initial=_initial_missing):
    it = iter(sequence)
    if isinstance(initial, _Missing):
        try:
            value = next(it)
        except StopIteration:
            raise TypeError('reduce() of empty iterable with no initial value') from None
    else:
        value = initial
    for element in it:
        value = function(value, element)
    return value


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    for attr in assigned:
        try:
            value = getattr(wrapped, attr)
        except AttributeError:
            pass
        else:
            setattr(wrapper, attr, value)
    for attr in updated:
        try:
            items = getattr(wrapped, attr).items()
        except AttributeError:
            continue
        for k, v in items:
            setattr(wrapper, k, v)
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=WRAPPER_UPDATES):
    def decorating_function(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorating_function


class partial:
    # New function with partial application of the given arguments and
    # keywords.

    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError('the first argument must be callable')
        if isinstance(func, partial):
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, /, *args, **keywords):
        keywords = {**self.keywords, **keywords}
        return self.func(*self.args, *args, **keywords)

    def __repr__(self):
        parts = [repr(self.func)]
        parts.extend(repr(x) for x in self.args)
        parts.extend('%s=%r' % (k, v) for k, v in self.keywords.items())
        return 'functools.partial(%s)' % ', '.join(parts)


class partialmethod:
    # A partial that binds as a method.

    def __init__(self, func, /, *args, **keywords):
        self.func = func
        self.args = args
        self.keywords = keywords

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return partial(self.func, obj, *self.args, **self.keywords)


class _CacheInfo(tuple):
    def __new__(cls, hits, misses, maxsize, currsize):
        return tuple.__new__(cls, (hits, misses, maxsize, currsize))

    hits = property(lambda self: self[0])
    misses = property(lambda self: self[1])
    maxsize = property(lambda self: self[2])
    currsize = property(lambda self: self[3])

    def __repr__(self):
        return 'CacheInfo(hits=%r, misses=%r, maxsize=%r, currsize=%r)' % tuple(self)


_kwd_mark = object()


def _make_key(args, kwds, typed):
    key = args
    if kwds:
        key = key + (_kwd_mark,) + tuple(kwds.items())
    if typed:
        key = key + tuple(type(v) for v in args)
        if kwds:
            key = key + tuple(type(v) for v in kwds.values())
    elif len(key) == 1 and type(key[0]) in (int, str):
        return key[0]
    return key


def _lru_wrapper(user_function, maxsize, typed):
    cache = {}
    stats = [0, 0]

    def wrapper(*args, **kwds):
        key = _make_key(args, kwds, typed)
        if key in cache:
            stats[0] += 1
            result = cache.pop(key)
            cache[key] = result
            return result
        stats[1] += 1
        result = user_function(*args, **kwds)
        if maxsize is None or maxsize > 0:
            cache[key] = result
            if maxsize is not None and len(cache) > maxsize:
                del cache[next(iter(cache))]
        return result

    def cache_info():
        return _CacheInfo(stats[0], stats[1], maxsize, len(cache))

    def cache_clear():
        cache.clear()
        stats[0] = 0
        stats[1] = 0

    update_wrapper(wrapper, user_function)
    wrapper.cache_info = cache_info
    wrapper.cache_clear = cache_clear
    wrapper.cache_parameters = lambda: {'maxsize': maxsize, 'typed': typed}
    return wrapper


def lru_cache(maxsize=128, typed=False):
    """Memoize a function, keeping the maxsize most recently used results."""
    if isinstance(maxsize, int):
        if maxsize < 0:
            maxsize = 0
    elif callable(maxsize) and isinstance(typed, bool):
        user_function, maxsize = maxsize, 128
        return _lru_wrapper(user_function, maxsize, typed)
    elif maxsize is not None:
        raise TypeError('Expected first argument to be an integer, a callable, or None')

    def decorating_function(user_function):
        return _lru_wrapper(user_function, maxsize, typed)
    return decorating_function


def cache(user_function, /):
    """Memoize without a size limit."""
    return _lru_wrapper(user_function, None, False)


def cmp_to_key(mycmp):
    """Convert an old-style cmp function into a key function."""
    class K:
        __slots__ = ['obj']

        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0

        __hash__ = None
    return K


def _gt_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result and self != other


def _le_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result or self == other


def _ge_from_lt(self, other):
    op_result = type(self).__lt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _ge_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result or self == other


def _lt_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result and self != other


def _gt_from_le(self, other):
    op_result = type(self).__le__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _lt_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result and self != other


def _ge_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result or self == other


def _le_from_gt(self, other):
    op_result = type(self).__gt__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


def _le_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result or self == other


def _gt_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return op_result and self != other


def _lt_from_ge(self, other):
    op_result = type(self).__ge__(self, other)
    if op_result is NotImplemented:
        return op_result
    return not op_result


_convert = {
    '__lt__': [('__gt__', _gt_from_lt), ('__le__', _le_from_lt), ('__ge__', _ge_from_lt)],
    '__le__': [('__ge__', _ge_from_le), ('__lt__', _lt_from_le), ('__gt__', _gt_from_le)],
    '__gt__': [('__lt__', _lt_from_gt), ('__ge__', _ge_from_gt), ('__le__', _le_from_gt)],
    '__ge__': [('__le__', _le_from_ge), ('__gt__', _gt_from_ge), ('__lt__', _lt_from_ge)],
}


def _defines(cls, op):
    for k in cls.__mro__:
        if k is object:
            return False
        if op in k.__dict__:
            return k.__dict__[op] is not None
    return False


def total_ordering(cls):
    """Class decorator that fills in missing ordering methods."""
    roots = [op for op in ('__lt__', '__le__', '__gt__', '__ge__') if _defines(cls, op)]
    if not roots:
        raise ValueError('must define at least one ordering operation: < > <= >=')
    root = roots[0]
    for op in ('__lt__', '__le__', '__gt__', '__ge__'):
        if op in roots:
            root = op
            break
    for opname, opfunc in _convert[root]:
        if opname not in roots:
            setattr(cls, opname, opfunc)
    return cls


class cached_property:
    # A property computed once per instance and then stored as an
    # ordinary attribute.

    def __init__(self, func):
        self.func = func
        self.attrname = None
        self.__doc__ = getattr(func, '__doc__', None)

    def __set_name__(self, owner, name):
        if self.attrname is None:
            self.attrname = name
        elif name != self.attrname:
            raise TypeError('Cannot assign the same cached_property to two different names (%r and %r).' % (self.attrname, name))

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        if self.attrname is None:
            raise TypeError('Cannot use cached_property instance without calling __set_name__ on it.')
        cache = instance.__dict__
        if self.attrname in cache:
            return cache[self.attrname]
        val = self.func(instance)
        setattr(instance, self.attrname, val)
        return val
