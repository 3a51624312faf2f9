# __length_hint__ of built-in iterators, through operator.length_hint (found by difftest).
import operator
it = iter([1, 2, 3]); next(it)
print(operator.length_hint(it), it.__length_hint__())
for x in ['héllo', b'abc', bytearray(b'xy'), (1, 2), range(0, 10, 3), range(5, 0, -2), {'a': 1, 'b': 2}, {1, 2, 3}, [], '']:
    it = iter(x)
    print(operator.length_hint(it, 9), end=' ')
    for _ in it:
        print(operator.length_hint(it), end=' ')
    print()
d = {'a': 1, 'b': 2}
for v in (d.keys(), d.values(), d.items()):
    it = iter(v); next(it)
    print(operator.length_hint(it))
it = iter(d); next(it); d['c'] = 3
print(operator.length_hint(it))
l = [1, 2, 3]; it = iter(l); next(it); l.clear()
print(operator.length_hint(it))
print(operator.length_hint(iter(lambda: 1, 2), 4), operator.length_hint(map(abs, [1]), 5))
