import functools
import itertools
import operator
from operator import itemgetter, attrgetter, methodcaller

print(functools.reduce(operator.add, range(1, 11)))
print(functools.reduce(operator.mul, range(1, 21), 1))
print(functools.reduce(operator.or_, [{1}, {2}, {3, 1}]))
print(functools.reduce(operator.concat, [[1], [2, 3], []], []))
print(functools.reduce(operator.xor, [0b1010, 0b0110, 0b1111]))
print(list(itertools.accumulate([1, 2, 3, 4, 5], operator.mul)))
print(list(itertools.accumulate([3, 1, 4, 1, 5, 9, 2], max)))
print(list(itertools.starmap(operator.pow, [(2, 3), (3, 2), (10, 0)])))
print(list(map(operator.add, [1, 2, 3], [10, 20, 30])))
print(list(map(operator.neg, [1, -2, 0])))
print(list(filter(functools.partial(operator.lt, 2), [1, 2, 3, 4])))
double = functools.partial(operator.mul, 2)
print(double(21), double('ab'), repr(double)[:18])
data = [('a', 1), ('b', 2), ('a', 3), ('b', 4), ('c', 5)]
for key, group in itertools.groupby(sorted(data, key=itemgetter(0)), key=itemgetter(0)):
    print(key, list(map(itemgetter(1), group)), functools.reduce(operator.add, map(itemgetter(1), group), 0))
print(max(data, key=itemgetter(1)), min(data, key=itemgetter(1, 0)))
print(sorted({'x': 3, 'y': 1, 'z': 2}.items(), key=itemgetter(1)))
print(list(itertools.compress('abcdef', map(operator.truth, [1, 0, 1, 0, 1, 1]))))
print(sum(itertools.starmap(operator.mul, zip([1, 2, 3], [4, 5, 6]))))
print(list(map(methodcaller('strip', '-'), ['-a-', '--b'])))
words = ['pear', 'fig', 'banana', 'kiwi']
print(sorted(words, key=functools.cmp_to_key(lambda a, b: operator.sub(len(a), len(b)))))
print(list(itertools.accumulate(words, operator.add)))
print(functools.reduce(lambda acc, f: f(acc), [functools.partial(operator.add, 1), functools.partial(operator.mul, 3)], 4))
print(dict(zip(words, map(len, words))), list(itertools.filterfalse(operator.not_, [0, 1, '', 'a', None])))
