import operator
from operator import itemgetter, attrgetter, methodcaller
import functools
import itertools

# Function forms of the binary and unary operators.
print(operator.add(2, 3), operator.sub(2, 3), operator.mul(4, 5), operator.truediv(7, 2))
print(operator.floordiv(-7, 2), operator.mod(-7, 2), operator.pow(2, 10), operator.pow(2, -1))
print(operator.neg(5), operator.pos(-5), operator.abs(-3.5), operator.invert(5), operator.inv(0))
print(operator.lshift(1, 70), operator.rshift(-1024, 3))
print(operator.and_(12, 10), operator.or_(12, 10), operator.xor(12, 10))
print(operator.and_({1, 2}, {2, 3}), operator.or_({'a': 1}, {'b': 2}))
print(operator.not_(0), operator.not_([1]), operator.truth(''), operator.truth('x'))
print(operator.eq(1, 1.0), operator.ne(1, 2), operator.lt(1, 2), operator.le(2, 2), operator.gt('b', 'a'), operator.ge([1], [2]))
print(operator.add('ab', 'cd'), operator.mul([0], 3), operator.concat([1], [2]), operator.concat('x', 'y'))
print(operator.contains([1, 2, 3], 2), operator.contains('abc', 'd'))
print(operator.countOf([1, 2, 1, 1.0, True], 1), operator.indexOf('hello', 'l'))
print(operator.index(7), operator.index(True), type(operator.index(True)).__name__)
a = None
b = a
print(operator.is_(a, b), operator.is_not(a, []), operator.is_(None, None))

# Sequence mutation.
d = {'k': 1}
operator.setitem(d, 'j', 2)
operator.delitem(d, 'k')
print(d, operator.getitem(d, 'j'), operator.getitem([10, 20, 30], slice(1, None)))
lst = [5, 6, 7, 8]
operator.delitem(lst, slice(0, 2))
operator.setitem(lst, 0, 'z')
print(lst)

# In-place forms mutate mutable operands and rebind immutable ones.
x = [1]
y = operator.iadd(x, [2])
print(x, y, y is x)
print(operator.iadd(1, 2), operator.isub(5, 7), operator.imul('ab', 2), operator.itruediv(1, 4))
print(operator.ifloordiv(9, 4), operator.imod(9, 4), operator.ipow(3, 3), operator.ilshift(1, 3), operator.irshift(16, 2))
print(operator.iand(6, 3), operator.ior(6, 3), operator.ixor(6, 3))
s = {1}
operator.ior(s, {2})
print(s, operator.iconcat([1], (2,)))

# Dunder aliases.
print(operator.__add__(1, 2), operator.__not__(1), operator.__getitem__('abc', 1))


# User classes dispatch through their dunders, including reflected ones.
class V:
    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        return V(self.v + (o.v if isinstance(o, V) else o))

    def __radd__(self, o):
        return V(o + self.v)

    def __neg__(self):
        return V(-self.v)

    def __matmul__(self, o):
        return self.v * o.v

    def __index__(self):
        return self.v

    def __repr__(self):
        return 'V(%r)' % self.v


print(operator.add(V(1), V(2)), operator.add(10, V(2)), operator.neg(V(4)), operator.matmul(V(3), V(4)))
print(operator.index(V(9)), [1, 2, 3, 4][operator.index(V(1))])

# length_hint
print(operator.length_hint([1, 2, 3]), operator.length_hint(5, 9), operator.length_hint(object(), 4))


class Hint:
    def __length_hint__(self):
        return 12


print(operator.length_hint(Hint()))

# call (3.11)
print(operator.call(max, 3, 9, 4), operator.call(sorted, [3, 1, 2], reverse=True))

class Never:
    def __eq__(self, other):
        return False


n = Never()
print(operator.countOf([n, 1.0, n], n), operator.indexOf([1, n], n), operator.countOf([n], Never()))
print(operator.countOf(iter(range(10)), 3), operator.indexOf((x * x for x in range(10)), 49))
