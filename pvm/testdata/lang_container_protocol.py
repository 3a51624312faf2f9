# A sparse vector implementing the container dunders.
class Sparse:
    def __init__(self, n, items=None):
        self.n = n
        self.data = dict(items or {})

    def _check(self, i):
        if not isinstance(i, int):
            raise TypeError(f"indices must be integers, not {type(i).__name__}")
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("Sparse index out of range")
        return i

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.n))]
        return self.data.get(self._check(i), 0)

    def __setitem__(self, i, v):
        i = self._check(i)
        if v:
            self.data[i] = v
        else:
            self.data.pop(i, None)

    def __delitem__(self, i):
        self.data.pop(self._check(i), None)

    def __contains__(self, v):
        return v in self.data.values() or (v == 0 and len(self.data) < self.n)

    def __iter__(self):
        for i in range(self.n):
            yield self.data.get(i, 0)

    def __reversed__(self):
        return iter([self[i] for i in range(self.n - 1, -1, -1)])

    def __bool__(self):
        return bool(self.data)

    def __eq__(self, other):
        return isinstance(other, Sparse) and list(self) == list(other)

    def __repr__(self):
        return f"Sparse({self.n}, {dict(sorted(self.data.items()))})"


v = Sparse(8, {1: 5, 6: -2})
print(v, len(v), v[1], v[-2], v[3], list(v), v[1:7:2], v[::-1])
v[3] = 9
v[1] = 0
del v[6]
print(v, 9 in v, 5 in v, 0 in v, list(reversed(v)), bool(v), bool(Sparse(3)))
print(sum(v), max(v), sorted(v)[-1], list(enumerate(v))[3], v == Sparse(8, {3: 9}), v != Sparse(8))
for bad in [lambda: v[8], lambda: v["a"], lambda: v.__setitem__(-9, 1)]:
    try:
        bad()
    except (IndexError, TypeError) as e:
        print(type(e).__name__, e)
a, b, *rest = Sparse(4, {0: 1, 1: 2})
print(a, b, rest, [x * 2 for x in v if x], dict(zip("abc", v)))


class OldStyleSeq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * 10


print(list(OldStyleSeq()), 20 in OldStyleSeq(), [x for x in OldStyleSeq()])
