# copy and deepcopy: what is shared and what is new, memo and cycles,
# __copy__/__deepcopy__/__reduce__, __getstate__/__setstate__, slots,
# subclasses of built-in types and the whitelisted library classes.
import copy
from collections import namedtuple, OrderedDict, defaultdict, Counter, deque
from dataclasses import dataclass, field
from enum import Enum

inner = [1, 2]
outer = [inner, {'k': inner}, (inner, 3)]
s = copy.copy(outer)
d = copy.deepcopy(outer)
print(s == outer, s is outer, s[0] is inner, d == outer, d[0] is inner)
print(d[0] is d[1]['k'], d[0] is d[2][0], d[2] is outer[2])

t = (1, 'a', (2, 3), frozenset({4}))
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.deepcopy((1, [2]))[1] is not None)
# Atomic values come back as they are (`is` on int, float, str and bytes
# is refused in the PVM, so only the others are compared by identity).
for v in [3, 2.5, 'x', b'y', True]:
    print(repr(v), copy.copy(v) == v, copy.deepcopy(v) == v, type(copy.deepcopy(v)).__name__)
for v in [None, range(3), len, copy.copy, int, slice(1, 2)]:
    print(type(v).__name__, copy.copy(v) is v, copy.deepcopy(v) == v)
print(copy.deepcopy(slice(1, [2])) == slice(1, [2]), copy.deepcopy(slice(1, [2])).stop is not None)

st = {1, 2, 3}
fs = frozenset([1, 2])
ba = bytearray(b'ab')
print(copy.copy(st) == st, copy.copy(st) is st, copy.copy(fs) is fs, copy.deepcopy(fs) == fs)
print(copy.copy(ba), copy.copy(ba) is ba, copy.deepcopy(ba))

cyc = [1]
cyc.append(cyc)
dc = copy.deepcopy(cyc)
print(dc[1] is dc, dc[0], dc is cyc)
dd = {}
dd['self'] = dd
print(copy.deepcopy(dd)['self'] is not dd)

memo = {}
x = [1]
y = copy.deepcopy([x, x], memo)
print(y[0] is y[1])
class Node:
    def __init__(self, nxt=None):
        self.nxt = nxt
n1 = Node()
n2 = Node(n1)
n1.nxt = n2
memo = {}
c2 = copy.deepcopy(n2, memo)
print(c2.nxt.nxt is c2, c2 is not n2, memo[id(n2)] is c2, memo[id(n1)] is c2.nxt)
class Custom:
    def __init__(self):
        self.items = [1, 2]
    def __deepcopy__(self, memo):
        new = Custom.__new__(Custom)
        memo[id(self)] = new
        new.items = copy.deepcopy(self.items, memo)
        new.me = copy.deepcopy(self, memo)
        return new
cu = copy.deepcopy(Custom())
print(cu.items, cu.me is cu)

class P:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __repr__(self):
        return 'P(%r, %r)' % (self.a, self.b)

p = P([1], {'z': [2]})
pc = copy.copy(p)
pd = copy.deepcopy(p)
print(pc, pc.a is p.a, pd, pd.a is p.a, pd.b['z'] is p.b['z'], type(pd) is P)

class Slotted:
    __slots__ = ('x', 'y', '__z')
    def __init__(self):
        self.x = [1]
        self.__z = 5
    def z(self):
        return self.__z
sl = copy.deepcopy(Slotted())
print(sl.x, hasattr(sl, 'y'), sl.z())

class WithCopy:
    def __init__(self, v): self.v = v
    def __copy__(self):
        print('__copy__')
        return WithCopy(self.v + 1)
    def __deepcopy__(self, memo):
        print('__deepcopy__', type(memo).__name__)
        return WithCopy(self.v + 100)
print(copy.copy(WithCopy(1)).v, copy.deepcopy([WithCopy(1)])[0].v)

class Reduced:
    def __init__(self, a):
        print('init', a)
        self.a = a
    def __reduce__(self):
        return (Reduced, (self.a,))
r = copy.deepcopy(Reduced([7]))
print(r.a)

class Stateful:
    def __init__(self):
        self.keep, self.drop = 1, 2
    def __getstate__(self):
        return {'keep': self.keep}
    def __setstate__(self, state):
        print('setstate', state)
        self.__dict__.update(state)
sf = copy.copy(Stateful())
print(hasattr(sf, 'drop'))

class MyList(list):
    pass
ml = MyList([[1], 2])
ml.tag = 'm'
mc, md = copy.copy(ml), copy.deepcopy(ml)
print(type(mc).__name__, mc, mc.tag, mc[0] is ml[0], md, md[0] is ml[0], md.tag)

class MyDict(dict):
    pass
mdc = copy.deepcopy(MyDict(a=[1]))
print(type(mdc).__name__, mdc)

class MyInt(int):
    pass
class MyStr(str):
    pass
mi, ms = copy.copy(MyInt(5)), copy.deepcopy(MyStr('hi'))
print(type(mi).__name__, mi + 1, type(ms).__name__, ms.upper())

class MySet(set):
    pass
print(type(copy.copy(MySet([3]))).__name__, sorted(copy.deepcopy(MySet([1, 2]))))

Pt = namedtuple('Pt', 'x y')
pt = Pt([1], 2)
print(copy.copy(pt), copy.deepcopy(pt), copy.deepcopy(pt).x is pt.x, copy.copy(pt) is pt)

@dataclass(frozen=True)
class Frozen:
    a: int
    b: list = field(default_factory=list)
fr = Frozen(1, [2])
print(copy.copy(fr), copy.deepcopy(fr).b is fr.b, copy.copy(fr).b is fr.b)

class Color(Enum):
    RED = 1
    BLUE = 2
print(copy.copy(Color.RED) is Color.RED, copy.deepcopy([Color.BLUE])[0] is Color.BLUE)

od = OrderedDict([('b', [1]), ('a', [2])])
odc = copy.deepcopy(od)
print(odc, type(odc).__name__, odc['b'] is od['b'])
ddf = defaultdict(list)
ddf['x'].append(1)
ddc, ddd = copy.copy(ddf), copy.deepcopy(ddf)
ddc['y'].append(2)
ddd['z'].append(3)
print(sorted(ddc.items()), sorted(ddd.items()), ddd['x'] is ddf['x'])
cn = Counter('abracadabra')
print(copy.copy(cn) == cn, type(copy.deepcopy(cn)).__name__, copy.deepcopy(cn).most_common(2))
dq = deque([[1], [2]], maxlen=3)
dqc = copy.copy(dq)
dqd = copy.deepcopy(dq)
dqd.append([3]); dqd.append([4])
print(dqc, dqc[0] is dq[0], dqd, dqd.maxlen)

class Err(Exception):
    pass
e = copy.copy(Err('m', 1))
e2 = copy.deepcopy(ValueError([1]))
print(type(e).__name__, e.args, type(e2).__name__, e2.args)

print(issubclass(copy.Error, Exception), copy.error is copy.Error, sorted(copy.__all__))
