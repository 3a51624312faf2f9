# Mapping and sequence patterns accept subclasses of dict, list and tuple
# and collections.deque (CPython's Py_TPFLAGS_MAPPING and _SEQUENCE,
# inherited); str, bytes and bytearray are never sequences for patterns.
from collections import OrderedDict, defaultdict, Counter, deque, namedtuple


def kind(x):
    match x:
        case {'a': a, **rest}:
            return ('mapping a', a, rest)
        case {}:
            return ('mapping', len(x))
        case [first, *others]:
            return ('sequence', first, others)
        case []:
            return ('empty sequence',)
        case _:
            return ('other', type(x).__name__)


class MyDict(dict):
    pass


class MyList(list):
    pass


class MyTuple(tuple):
    pass


class MyStr(str):
    pass


class MyDeque(deque):
    pass


class Mixin:
    pass


class MixedDict(Mixin, dict):
    pass


Point = namedtuple('Point', 'x y')

subjects = [
    {'a': 1, 'b': 2},
    MyDict(a=3, c=4),
    OrderedDict([('b', 1), ('a', 2)]),
    defaultdict(int, {'z': 1}),
    Counter('aab'),
    MixedDict(q=1),
    MyDict(),
    [1, 2, 3],
    MyList([4, 5]),
    MyTuple((6,)),
    (7, 8),
    deque([9, 10, 11]),
    MyDeque([12]),
    deque(),
    range(3),
    Point(1, 2),
    'abc',
    MyStr('xy'),
    b'ab',
    bytearray(b'cd'),
    {1, 2},
    frozenset(),
    42,
    None,
]
for s in subjects:
    print(type(s).__name__, kind(s))

# A defaultdict is looked up with get(): a missing key is not created.
dd = defaultdict(list)
match dd:
    case {'k': v}:
        print('matched', v)
    case _:
        print('no k', dict(dd))


class Logged(dict):
    def get(self, key, default=None):
        print('get', key)
        return dict.get(self, key, default)


match Logged(x=1, y=2):
    case {'x': 1, 'y': y}:
        print('logged', y)

match Logged(x=1):
    case {'x': 1, 'nope': _}:
        print('wrong')
    case _:
        print('logged miss')


class FakeGet(dict):
    def get(self, key, default=None):
        return 'always'


match FakeGet():
    case {'anything': v}:
        print('fake', v)

match Point(3, 4):
    case (x, y):
        print('point', x, y)

match MyList([1, 2, 3, 4]):
    case [a, *mid, b]:
        print('ends', a, mid, b)

match deque([1, 2, 3]):
    case [_, _, last]:
        print('deque last', last)

match OrderedDict(a=1, b=2, c=3):
    case {'b': b, **rest}:
        print('rest', type(rest).__name__, rest)
