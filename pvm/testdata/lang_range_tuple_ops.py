# range and tuple operations.
r = range(2, 20, 3)
print(r, list(r), len(r), r[0], r[-1], r[2:4], 11 in r, 12 in r, r.index(8), r.count(5))
print(list(range(10, 0, -3)), list(range(0)), list(range(-3, 3)), range(5) == range(0, 5), range(0) == range(2, 2))
print(reversed(range(3)).__class__.__name__ if False else "", list(reversed(range(1, 10, 4))), sum(range(1, 101)))
print(range(1, 10, 2)[::-1], list(range(1, 10, 2)[::-1]), max(range(7)), min(range(3, 9)))
t = (3, 1, 4, 1, 5)
print(t.count(1), t.index(4), t + (9,), t * 2, t[1:4], sorted(t), len(t), 4 in t, t[::-1])
print((1,) == (1,), (1, 2) < (1, 3), (2,) > (1, 99), () < (0,), (1, "a") == (1, "a"), tuple("ab"), tuple([1]))
a, b = (1, 2)
a, b = b, a
print(a, b, (a, b) == (2, 1), hash((1, 2)) == hash((1, 2)), {(1, 2): "p"}[(1, 2)])
nested = ((1, 2), (3, (4, 5)))
print(nested[1][1][0], len(nested), [x for pair in nested for x in (pair if isinstance(pair[1], int) else (pair[0],))])
print(tuple(x * 2 for x in range(3)), tuple(), (5,), type(()).__name__, divmod(17, 5), tuple(reversed((1, 2, 3))))
try:
    t[0] = 1
except TypeError as e:
    print("TypeError:", e)
try:
    r[100]
except IndexError as e:
    print("IndexError:", e)
print(list(enumerate(range(3), 10)), list(zip(range(3), range(10, 13))), [*range(3), *range(2)])
