# heapq: the heap's list after each operation is CPython's (same sift
# steps), comparisons go through __lt__, and the errors match the C module.
import heapq
from heapq import heappush, heappop, heapify, heapreplace, heappushpop

h = []
for x in [5, 3, 8, 1, 9, 2, 7, 3, 0, 6, 4]:
    heappush(h, x)
    print(h)
while h:
    print(heappop(h), h)

data = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 11, 13]
heapify(data)
print(data)
print(heapreplace(data, 10), data)
print(heappushpop(data, -1), data)
print(heappushpop(data, 12), data)

# Tuples: priority queues with ties broken by the second field.
pq = []
for prio, name in [(2, 'b'), (1, 'z'), (2, 'a'), (1, 'y'), (0, 'q')]:
    heappush(pq, (prio, name))
print([heappop(pq) for _ in range(len(pq))])

# A class ordered by __lt__ only, counting its comparisons.
calls = []
class Task:
    def __init__(self, p, n):
        self.p, self.n = p, n
    def __lt__(self, other):
        calls.append((self.n, other.n))
        return self.p < other.p
    def __repr__(self):
        return 'T(%d,%s)' % (self.p, self.n)

ts = [Task(p, c) for p, c in zip([4, 1, 3, 1, 5, 9, 2, 6], 'abcdefgh')]
heapify(ts)
print(ts, len(calls))
print(heappop(ts), heappop(ts), ts, len(calls))

print(heapq.nsmallest(3, [5, 1, 4, 1, 5, 9, 2, 6]))
print(heapq.nlargest(3, [5, 1, 4, 1, 5, 9, 2, 6]))
print(heapq.nsmallest(2, ['bb', 'a', 'ccc', 'dd'], key=len))
print(heapq.nlargest(2, ['bb', 'a', 'ccc', 'dd', 'ee'], key=len))
print(heapq.nlargest(10, iter([3, 1, 2])), heapq.nsmallest(0, [1]), heapq.nsmallest(1, []))
print(heapq.nlargest(1, [2, 8, 3]), heapq.nsmallest(1, [2, 8, 3], key=lambda v: -v))
print(heapq.nsmallest(4, iter(range(20, 0, -3))), heapq.nlargest(4, iter(range(20))))
print(heapq.nsmallest(3, iter([(1, 'b'), (0, 'x'), (1, 'a'), (0, 'y')]), key=lambda t: t[0]))
print(heapq.nlargest(3, iter([(1, 'b'), (0, 'x'), (1, 'a'), (0, 'y')]), key=lambda t: t[0]))

print(list(heapq.merge([1, 3, 5, 7], [0, 2, 4, 8], [5, 10, 15, 20], [], [25])))
print(list(heapq.merge(['dog', 'horse'], ['cat', 'fish', 'kangaroo'], key=len)))
print(list(heapq.merge([7, 5, 1], [8, 2], [6, 5], reverse=True)))
print(list(heapq.merge([(1, 'a'), (2, 'a')], [(1, 'b'), (2, 'b')], key=lambda t: t[0])))
print(list(heapq.merge()), list(heapq.merge([1, 2])))
m = heapq.merge(iter([1, 4]), iter([2, 3]))
print(next(m), next(m), list(m))

for bad in [lambda: heappop([]), lambda: heapreplace([], 1), lambda: heappush((), 1),
            lambda: heapify('abc'), lambda: heappush([1, 'a'], 2), lambda: heappushpop({}, 1)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
print(heappushpop([], 3), sorted(heapq.__all__))
