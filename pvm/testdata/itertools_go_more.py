# cycle, compress, dropwhile, filterfalse, pairwise, starmap, takewhile and
# zip_longest written in Go (_itertools): argument errors and semantics as
# CPython 3.11's.
import itertools as it


def t(label, f):
    try:
        r = f()
        if hasattr(r, '__next__'):
            r = list(it.islice(r, 8))
        print(label, repr(r))
    except Exception as e:
        print(label, type(e).__name__, e)


t('pairwise none', lambda: it.pairwise())
t('pairwise 2', lambda: it.pairwise([1], [2]))
t('pairwise kw', lambda: it.pairwise(iterable=[1, 2, 3]))
t('pairwise bad kw', lambda: it.pairwise(x=[1, 2, 3]))
t('pairwise int', lambda: it.pairwise(5))
t('starmap none', lambda: it.starmap())
t('starmap 1', lambda: it.starmap(pow))
t('starmap kw', lambda: it.starmap(pow, [(1, 2)], x=1))
t('starmap int', lambda: it.starmap(pow, 5))
t('starmap bad item', lambda: it.starmap(pow, [5]))
t('starmap list item', lambda: it.starmap(pow, [[2, 3]]))
t('compress 1', lambda: it.compress([1]))
t('compress kw', lambda: it.compress(data=[1, 2], selectors=[0, 1]))
t('compress bad kw', lambda: it.compress([1], x=[1]))
t('compress int', lambda: it.compress(5, [1]))
t('compress int2', lambda: it.compress([1], 5))
t('takewhile 1', lambda: it.takewhile(bool))
t('takewhile kw', lambda: it.takewhile(bool, [1], x=1))
t('takewhile int', lambda: it.takewhile(bool, 5))
t('dropwhile 1', lambda: it.dropwhile(bool))
t('dropwhile kw', lambda: it.dropwhile(predicate=bool, iterable=[1]))
t('filterfalse 1', lambda: it.filterfalse(bool))
t('filterfalse kw', lambda: it.filterfalse(bool, [1], x=1))
t('filterfalse None', lambda: it.filterfalse(None, [0, 1, '', 'a']))
t('zip_longest kw', lambda: it.zip_longest([1], x=1))
t('zip_longest 2kw', lambda: it.zip_longest([1], fillvalue=1, x=1))
t('zip_longest int', lambda: it.zip_longest([1], 5))
t('zip_longest none', lambda: it.zip_longest())
t('cycle none', lambda: it.cycle())
t('cycle 2', lambda: it.cycle([1], [2]))
t('cycle kw', lambda: it.cycle([1], x=1))
t('cycle int', lambda: it.cycle(5))
t('cycle kw2', lambda: it.cycle(iterable=[1]))


class Truthy:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        print('bool', self.v)
        return self.v


print(list(it.pairwise('')), list(it.pairwise('a')), list(it.pairwise('abcd')))
print(list(it.starmap(pow, [(2, 3), [3, 2], (2, 0)])))
print(list(it.starmap(lambda *a: a, ['ab', (), range(2)])))
print(list(it.compress('abcdef', [1, 0, 1])), list(it.compress('ab', [1, 1, 1, 1])))
print(list(it.compress('abc', [Truthy(True), Truthy(False), Truthy(True)])))
print(list(it.takewhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(it.dropwhile(lambda x: x < 3, [1, 2, 3, 1, 5])))
print(list(it.filterfalse(lambda x: x % 2, range(7))), list(it.filterfalse(bool, [0, 1, [], [2]])))
print(list(it.zip_longest('ab', 'wxyz', fillvalue='-')), list(it.zip_longest('ab', [])))
print(list(it.zip_longest([], [])), list(it.zip_longest('a')))
print(list(it.islice(it.cycle('ab'), 5)), list(it.cycle('')))
src = iter([1, 2, 3, 4])
tw = it.takewhile(lambda x: x < 2, src)
print(list(tw), list(src), list(tw))
src = iter([1, 2, 3])
cy = it.cycle(src)
print(next(cy), list(src), list(it.islice(cy, 4)))


def boom():
    yield 1
    raise ValueError('boom')


z = it.zip_longest(boom(), 'abc')
print(next(z))
try:
    next(z)
except ValueError as e:
    print('ValueError', e)
print(list(z))
pw = it.pairwise(boom())
try:
    next(pw)
except ValueError as e:
    print('ValueError', e)
print(list(pw))
print(type(it.cycle('')).__name__, type(it.zip_longest()).__name__, isinstance(it.pairwise(''), it.pairwise))

# groupby (Go): argument errors, stale groupers, read-ahead, __eq__ order.
t('groupby no args', lambda: it.groupby())
t('groupby 3 args', lambda: it.groupby([1], None, 3))
t('groupby bad kw', lambda: it.groupby([1], x=1))
t('groupby kws', lambda: [(k, list(g)) for k, g in it.groupby(iterable='aabbbc', key=None)])
t('groupby int', lambda: it.groupby(5))
t('groupby key', lambda: [(k, list(g)) for k, g in it.groupby([1, 3, 2, 4, 5], key=lambda x: x % 2)])
t('groupby empty', lambda: list(it.groupby([])))
gb = it.groupby('aaabbc')
k1, g1 = next(gb)
k2, g2 = next(gb)
print('stale', k1, list(g1), k2, list(g2))
gb = it.groupby('aaabbc')
k1, g1 = next(gb)
print(next(g1))
k2, g2 = next(gb)
print(list(g1), k2, list(g2), [k for k, _ in gb])
print(type(it.groupby('')).__name__, type(next(it.groupby('a'))[1]).__name__)
print([list(g) for k, g in list(it.groupby('aabb'))])


class K:
    def __init__(self, v):
        self.v = v

    def __eq__(self, o):
        print('eq', self.v, o.v)
        return self.v == o.v


print([(k.v, len(list(g))) for k, g in it.groupby([K(1), K(1), K(2)])])
t('groupby key error', lambda: list(it.groupby([1, 2], key=lambda x: 1 / 0)))
