# bisect: positions, insertion with lo/hi and key, and the errors.
import bisect
from bisect import bisect_left, bisect_right, insort_left, insort_right

a = [1, 2, 2, 2, 4, 7, 7, 9]
for x in [0, 1, 2, 3, 7, 9, 10]:
    print(x, bisect_left(a, x), bisect_right(a, x), bisect.bisect(a, x))
print(bisect_left(a, 2, 2), bisect_right(a, 2, 0, 2), bisect_left(a, 7, 0, 8))
print(bisect_right(a, 7, hi=-1), bisect_left(a, 7, 3, -5), bisect_left([], 1))

grades = 'FDCBA'
breakpoints = [60, 70, 80, 90]
print([grades[bisect.bisect(breakpoints, s)] for s in [33, 99, 77, 70, 89, 90, 100]])

b = []
for x in [5, 1, 4, 1, 5, 9, 2, 6]:
    insort_right(b, x)
print(b)
c = [(1, 'x'), (3, 'y')]
insort_left(c, (2, 'z'))
bisect.insort(c, (3, 'a'))
print(c)

records = [('ann', 21), ('bob', 30), ('cy', 30), ('di', 45)]
age = lambda r: r[1]
print(bisect_left(records, 30, key=age), bisect_right(records, 30, key=age))
insort_left(records, ('ed', 30), key=age)
insort_right(records, ('fay', 30), key=age)
bisect.insort(records, ('gus', 1), key=age)
print(records)

class Rev:
    def __init__(self, v): self.v = v
    def __lt__(self, o): return self.v > o.v
    def __repr__(self): return 'R%d' % self.v
r = [Rev(9), Rev(5), Rev(1)]
insort_left(r, Rev(6))
print(r, bisect_right(r, Rev(5)))

class Seq(list):
    def insert(self, i, x):
        print('insert', i, x)
        super().insert(i, x)
s = Seq([1, 3])
bisect.insort(s, 2)
print(s)

for bad in [lambda: bisect_left(a, 1, -1), lambda: insort_left(a, 1, -2), lambda: bisect_right([1, 'a'], 2),
            lambda: bisect_left(a, '1')]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
