# collections.abc: the ABCs subscripted in annotations, isinstance and
# issubclass on the built-in types (registered as CPython registers them)
# and on classes that only define the methods (__subclasshook__), and the
# mixin methods of Mapping, MutableMapping, Sequence and Set.
from collections.abc import Iterator, Iterable, Callable, Sequence, Generator, Mapping, MutableMapping, Hashable, Sized, Collection, Reversible, MutableSequence, Set, MutableSet
from collections import abc as cabc
print(Iterator[int], Iterable[str], Sequence[int], Mapping[str, int], cabc.Generator[int, None, None])
def gen():
    yield 1
for name, obj in [('list', [1]), ('tuple', (1,)), ('str', 'ab'), ('dict', {1: 2}), ('set', {1}), ('frozenset', frozenset()),
                  ('range', range(3)), ('list iterator', iter([1])), ('enumerate', enumerate('a')), ('generator', gen()), ('int', 3),
                  ('builtin', len), ('lambda', lambda: 0), ('class', int), ('bytes', b'x'), ('bytearray', bytearray(b'x')), ('None', None)]:
    print(name, [isinstance(obj, k) for k in (Iterator, Iterable, Callable, Sequence, Generator, Mapping, MutableMapping, Hashable, Sized, Collection, Reversible, MutableSequence, Set, MutableSet)])
class Bag(MutableMapping):
    def __init__(self): self.d = {}
    def __getitem__(self, k): return self.d[k]
    def __setitem__(self, k, v): self.d[k] = v
    def __delitem__(self, k): del self.d[k]
    def __iter__(self): return iter(self.d)
    def __len__(self): return len(self.d)
b = Bag()
b.update({'a': 1}, b=2)
b.setdefault('c', 3)
print(len(b), b.get('a'), b.get('z', 0), 'a' in b, list(b.keys()), list(b.items()), list(b.values()), b.pop('a'), b.pop('q', 5), b == {'b': 2, 'c': 3})
print(b.popitem(), isinstance(b, Mapping), issubclass(Bag, Collection))
try:
    b.pop('zz')
except KeyError as e:
    print('KeyError', e)
class Seq(Sequence):
    def __init__(self, *a): self.a = a
    def __getitem__(self, i): return self.a[i]
    def __len__(self): return len(self.a)
s = Seq(1, 2, 3, 2)
print(list(s), 2 in s, list(reversed(s)), s.index(2), s.count(2), s.index(2, 2))
class It:
    def __iter__(self): return self
    def __next__(self): raise StopIteration
print(isinstance(It(), Iterator), issubclass(It, Iterable), issubclass(list, Reversible), issubclass(tuple, Reversible))
class Incomplete(Sequence): pass
try:
    Incomplete()
except TypeError as e:
    print('TypeError')
def f(x: Iterable[int]) -> Iterator[int]:
    return iter(x)
print(f.__annotations__)
class S(Set):
    def __init__(self, it=()): self.items = list(dict.fromkeys(it))
    def __contains__(self, x): return x in self.items
    def __iter__(self): return iter(self.items)
    def __len__(self): return len(self.items)
a, c = S([1, 2, 3]), S([2, 3, 4])
print(sorted(a & c), sorted(a | c), sorted(a - c), sorted(a ^ c), a <= c, S([2]) < a, a == S([3, 2, 1]), a.isdisjoint([9]))
