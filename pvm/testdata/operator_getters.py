from operator import itemgetter, attrgetter, methodcaller
import operator


class P:
    def __init__(self, name, age, inner=None):
        self.name = name
        self.age = age
        self.inner = inner

    def greet(self, greeting, punct='!'):
        return greeting + ', ' + self.name + punct


people = [P('bo', 30), P('al', 25), P('cy', 30)]
print([p.name for p in sorted(people, key=attrgetter('age', 'name'))])
print([p.name for p in sorted(people, key=attrgetter('name'), reverse=True)])
nested = P('outer', 1, P('inner', 2, P('deep', 3)))
print(attrgetter('inner.inner.name')(nested), attrgetter('name', 'inner.age')(nested))

rows = [('b', 2, 'x'), ('a', 3, 'y'), ('c', 1, 'z')]
print(sorted(rows, key=itemgetter(1)))
print(list(map(itemgetter(2, 0), rows)))
print(itemgetter('k')({'k': 'v'}), itemgetter(slice(1, 3))('abcd'), itemgetter(-1)(range(5)))

print(methodcaller('upper')('abc'), methodcaller('split', ',')('a,b,c'))
print(methodcaller('greet', 'hi')(people[0]), methodcaller('greet', 'yo', punct='?')(people[1]))
print(list(map(methodcaller('count', 'a'), ['banana', 'apple', 'kiwi'])))

# reprs
print(repr(itemgetter(1)), repr(itemgetter(1, 'a', (2, 3))))
print(repr(attrgetter('a')), repr(attrgetter('a.b', 'c')))
print(repr(methodcaller('f')), repr(methodcaller('f', 1, 'x', k=2, j=None)))
print(type(itemgetter(0)).__name__, type(attrgetter('a')).__name__, type(methodcaller('a')).__name__)


def err(f, *a, **kw):
    try:
        f(*a, **kw)
    except Exception as e:
        print(type(e).__name__ + ':', e)


err(itemgetter)
err(attrgetter)
err(attrgetter, 1)
err(attrgetter, 'a', 2)
err(methodcaller)
err(methodcaller, 5)
err(itemgetter(1), [1, 2], 3)
err(itemgetter(5), [1, 2])
err(itemgetter('z'), {})
err(attrgetter('nope'), P('a', 1))
err(attrgetter('inner.nope'), nested)
err(methodcaller('nope'), 'x')
err(methodcaller('upper'), 'x', 'y')
err(operator.add, 1, 'a')
err(operator.neg, 'a')
err(operator.concat, 1, 2)
err(operator.indexOf, [1, 2], 3)
err(operator.index, 1.5)
err(operator.index, 'x')
err(operator.truediv, 1, 0)
err(operator.getitem, [1], 4)
err(operator.length_hint, [], 'x')
err(operator.matmul, 1, 2)
