# collections for the PVM: deque, OrderedDict, defaultdict, Counter,
# namedtuple. Written in Python and run (and metered) by the PVM.

__all__ = ['deque', 'OrderedDict', 'defaultdict', 'Counter', 'namedtuple']


class deque:
    # A double-ended queue over a list; maxlen bounds it.

    def __init__(self, iterable=(), maxlen=None):
        if maxlen is not None:
            if not isinstance(maxlen, int):
                raise TypeError('an integer is required')
            if maxlen < 0:
                raise ValueError('maxlen must be non-negative')
        self._maxlen = maxlen
        self._items = []
        self.extend(iterable)

    @property
    def maxlen(self):
        return self._maxlen

    def append(self, x):
        self._items.append(x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            del self._items[0]

    def appendleft(self, x):
        self._items.insert(0, x)
        if self._maxlen is not None and len(self._items) > self._maxlen:
            self._items.pop()

    def pop(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop(0)

    def extend(self, iterable):
        if isinstance(iterable, deque) and iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        if isinstance(iterable, deque) and iterable is self:
            iterable = list(iterable)
        for x in iterable:
            self.appendleft(x)

    def rotate(self, n=1):
        k = len(self._items)
        if k <= 1:
            return
        n = n % k
        if n:
            self._items[:] = self._items[-n:] + self._items[:-n]

    def clear(self):
        self._items.clear()

    def copy(self):
        return deque(self._items, self._maxlen)

    def __copy__(self):
        return self.copy()

    def count(self, x):
        return self._items.count(x)

    def index(self, x, start=0, stop=None):
        if stop is None:
            stop = len(self._items)
        for i in range(start, min(stop, len(self._items))):
            if self._items[i] == x:
                return i
        raise ValueError('%r is not in deque' % (x,))

    def insert(self, i, x):
        if self._maxlen is not None and len(self._items) >= self._maxlen:
            raise IndexError('deque already at its maximum size')
        self._items.insert(i, x)

    def remove(self, value):
        for i, x in enumerate(self._items):
            if x == value:
                del self._items[i]
                return
        raise ValueError('%r is not in deque' % (value,))

    def reverse(self):
        self._items.reverse()

    def __len__(self):
        return len(self._items)

    def __bool__(self):
        return len(self._items) > 0

    def __iter__(self):
        return iter(self._items)

    def __reversed__(self):
        return reversed(self._items)

    def __contains__(self, x):
        return x in self._items

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError('sequence index must be integer, not \'slice\'')
        try:
            return self._items[i]
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __setitem__(self, i, x):
        try:
            self._items[i] = x
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __delitem__(self, i):
        try:
            del self._items[i]
        except IndexError:
            raise IndexError('deque index out of range') from None

    def __eq__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items == other._items

    def __ne__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items != other._items

    def __lt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items < other._items

    def __le__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items <= other._items

    def __gt__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items > other._items

    def __ge__(self, other):
        if not isinstance(other, deque):
            return NotImplemented
        return self._items >= other._items

    __hash__ = None

    def __add__(self, other):
        if not isinstance(other, deque):
            raise TypeError('can only concatenate deque (not "%s") to deque' % type(other).__name__)
        d = deque(self._items, self._maxlen)
        d.extend(other)
        return d

    def __iadd__(self, other):
        self.extend(other)
        return self

    def __mul__(self, n):
        return deque(self._items * n, self._maxlen)

    def __repr__(self):
        if self._maxlen is None:
            return 'deque(%r)' % (self._items,)
        return 'deque(%r, maxlen=%d)' % (self._items, self._maxlen)


class OrderedDict(dict):
    # A dict that remembers insertion order and can reorder keys.

    def move_to_end(self, key, last=True):
        value = dict.pop(self, key)
        if last:
            dict.__setitem__(self, key, value)
            return
        rest = list(self.items())
        dict.clear(self)
        dict.__setitem__(self, key, value)
        for k, v in rest:
            dict.__setitem__(self, k, v)

    def popitem(self, last=True):
        if not self:
            raise KeyError('dictionary is empty')
        keys = list(self)
        key = keys[-1] if last else keys[0]
        value = dict.pop(self, key)
        return key, value

    def copy(self):
        return self.__class__(self)

    def __reversed__(self):
        return reversed(list(self))

    def __eq__(self, other):
        if isinstance(other, OrderedDict):
            return dict.__eq__(self, other) and list(self) == list(other)
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    def __repr__(self):
        if not self:
            return '%s()' % (self.__class__.__name__,)
        return '%s(%r)' % (self.__class__.__name__, list(self.items()))

    @classmethod
    def fromkeys(cls, iterable, value=None):
        d = cls()
        for k in iterable:
            d[k] = value
        return d

    def __or__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.__class__(self)
        new.update(other)
        return new

    def __ror__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.__class__(other)
        new.update(self)
        return new

    def __ior__(self, other):
        self.update(other)
        return self


class defaultdict(dict):
    # A dict that calls default_factory to supply missing values.

    def __init__(self, default_factory=None, *args, **kwargs):
        if default_factory is not None and not callable(default_factory):
            raise TypeError('first argument must be callable or None')
        dict.__init__(self, *args, **kwargs)
        self.default_factory = default_factory

    def __missing__(self, key):
        if self.default_factory is None:
            raise KeyError(key)
        value = self.default_factory()
        self[key] = value
        return value

    def copy(self):
        return self.__class__(self.default_factory, self)

    __copy__ = copy

    def __repr__(self):
        return '%s(%r, %s)' % (self.__class__.__name__, self.default_factory, dict.__repr__(self))

    def __or__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.copy()
        new.update(other)
        return new

    def __ror__(self, other):
        if not isinstance(other, dict):
            return NotImplemented
        new = self.__class__(self.default_factory, other)
        new.update(self)
        return new


def _count_key(item):
    return item[1]


class Counter(dict):
    # A dict of counts: missing keys count zero.

    def __init__(self, iterable=None, /, **kwds):
        dict.__init__(self)
        self.update(iterable, **kwds)

    def __missing__(self, key):
        return 0

    def total(self):
        return sum(self.values())

    def most_common(self, n=None):
        items = sorted(self.items(), key=_count_key, reverse=True)
        if n is None:
            return items
        return items[:max(n, 0)]

    def elements(self):
        out = []
        for elem, count in self.items():
            for _ in range(count):
                out.append(elem)
        return iter(out)

    @classmethod
    def fromkeys(cls, iterable, v=None):
        raise NotImplementedError('Counter.fromkeys() is undefined.  Use Counter(iterable) instead.')

    def update(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                if self:
                    for elem, count in iterable.items():
                        self[elem] = count + self.get(elem, 0)
                else:
                    dict.update(self, iterable)
            else:
                get = self.get
                for elem in iterable:
                    self[elem] = get(elem, 0) + 1
        if kwds:
            self.update(kwds)

    def subtract(self, iterable=None, /, **kwds):
        if iterable is not None:
            if isinstance(iterable, dict):
                for elem, count in iterable.items():
                    self[elem] = self.get(elem, 0) - count
            else:
                for elem in iterable:
                    self[elem] = self.get(elem, 0) - 1
        if kwds:
            self.subtract(kwds)

    def copy(self):
        return self.__class__(self)

    def __delitem__(self, elem):
        if elem in self:
            dict.__delitem__(self, elem)

    def __eq__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        for e, c in self.items():
            if other[e] != c:
                return False
        for e, c in other.items():
            if self[e] != c:
                return False
        return True

    def __ne__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        return not self == other

    def __repr__(self):
        if not self:
            return '%s()' % self.__class__.__name__
        parts = ['%r: %r' % (k, v) for k, v in self.most_common()]
        return '%s({%s})' % (self.__class__.__name__, ', '.join(parts))

    def __add__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count + other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __sub__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            newcount = count - other[elem]
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count < 0:
                result[elem] = 0 - count
        return result

    def __or__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = other_count if count < other_count else count
            if newcount > 0:
                result[elem] = newcount
        for elem, count in other.items():
            if elem not in self and count > 0:
                result[elem] = count
        return result

    def __and__(self, other):
        if not isinstance(other, Counter):
            return NotImplemented
        result = Counter()
        for elem, count in self.items():
            other_count = other[elem]
            newcount = count if count < other_count else other_count
            if newcount > 0:
                result[elem] = newcount
        return result

    def __pos__(self):
        result = Counter()
        for elem, count in self.items():
            if count > 0:
                result[elem] = count
        return result

    def __neg__(self):
        result = Counter()
        for elem, count in self.items():
            if count < 0:
                result[elem] = 0 - count
        return result

    def _keep_positive(self):
        for elem in [e for e, c in self.items() if not c > 0]:
            dict.__delitem__(self, elem)
        return self

    def __iadd__(self, other):
        for elem, count in other.items():
            self[elem] += count
        return self._keep_positive()

    def __isub__(self, other):
        for elem, count in other.items():
            self[elem] -= count
        return self._keep_positive()

    def __ior__(self, other):
        for elem, other_count in other.items():
            count = self[elem]
            if other_count > count:
                self[elem] = other_count
        return self._keep_positive()

    def __iand__(self, other):
        for elem, count in list(self.items()):
            other_count = other[elem]
            if other_count < count:
                self[elem] = other_count
        return self._keep_positive()


class _nt_field:
    # A namedtuple field: reads self[index]; read-only like CPython's _tuplegetter.

    def __init__(self, index):
        self.index = index

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return obj[self.index]

    def __set__(self, obj, value):
        raise AttributeError("can't set attribute")

    def __delete__(self, obj):
        raise AttributeError("can't delete attribute")


def _nt_getter(index):
    return _nt_field(index)


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    """A tuple subclass whose fields are also attributes."""
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    field_names = list(map(str, field_names))
    typename = str(typename)
    if rename:
        seen = set()
        for index, name in enumerate(field_names):
            if (not name.isidentifier() or name.startswith('_') or name in seen):
                field_names[index] = '_%d' % index
            seen.add(name)
    for name in [typename] + field_names:
        if type(name) is not str:
            raise TypeError('Type names and field names must be strings')
        if not name.isidentifier():
            raise ValueError('Type names and field names must be valid identifiers: %r' % (name,))
    seen = set()
    for name in field_names:
        if name.startswith('_') and not rename:
            raise ValueError('Field names cannot start with an underscore: %r' % (name,))
        if name in seen:
            raise ValueError('Encountered duplicate field name: %r' % (name,))
        seen.add(name)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError('Got more default values than field names')
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))
    fields = tuple(field_names)
    num_fields = len(fields)

    def __new__(_cls, *args, **kwargs):
        n = len(args)
        if n > num_fields:
            raise TypeError('%s.__new__() takes %d positional arguments but %d were given' % (typename, num_fields + 1, n + 1))
        values = list(args)
        missing = []
        for name in fields[n:]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            elif name in field_defaults:
                values.append(field_defaults[name])
            else:
                missing.append(name)
        if kwargs:
            for name in kwargs:
                if name in fields:
                    raise TypeError("%s.__new__() got multiple values for argument '%s'" % (typename, name))
                raise TypeError("%s.__new__() got an unexpected keyword argument '%s'" % (typename, name))
        if missing:
            quoted = ["'%s'" % m for m in missing]
            if len(quoted) == 1:
                listed = quoted[0]
            elif len(quoted) == 2:
                listed = quoted[0] + ' and ' + quoted[1]
            else:
                listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
            raise TypeError('%s.__new__() missing %d required positional argument%s: %s' % (
                typename, len(missing), '' if len(missing) == 1 else 's', listed))
        return tuple.__new__(_cls, values)

    def _make(cls, iterable):
        result = tuple.__new__(cls, iterable)
        if len(result) != num_fields:
            raise TypeError('Expected %d arguments, got %d' % (num_fields, len(result)))
        return result

    def _replace(self, /, **kwds):
        values = []
        for i, name in enumerate(fields):
            if name in kwds:
                values.append(kwds.pop(name))
            else:
                values.append(self[i])
        if kwds:
            raise ValueError('Got unexpected field names: %r' % list(kwds))
        return tuple.__new__(self.__class__, values)

    def __repr__(self):
        parts = ['%s=%r' % (fields[i], self[i]) for i in range(num_fields)]
        return '%s(%s)' % (self.__class__.__name__, ', '.join(parts))

    def _asdict(self):
        return dict(zip(fields, self))

    def __getnewargs__(self):
        return tuple(self)

    ns = {
        '__doc__': '%s(%s)' % (typename, ', '.join(fields)),
        '__slots__': (),
        '_fields': fields,
        '_field_defaults': field_defaults,
        '__new__': __new__,
        '_make': classmethod(_make),
        '_replace': _replace,
        '__repr__': __repr__,
        '_asdict': _asdict,
        '__getnewargs__': __getnewargs__,
        '__match_args__': fields,
        '__module__': module if module is not None else '__main__',
    }
    for index, name in enumerate(fields):
        ns[name] = _nt_getter(index)
    return type(typename, (tuple,), ns)
