t = (1, 2, 3)
print(t, t[0], t[-1], t[1:], len(t), t + (4,), t * 2, (1,), ())
a, b, c = t
print(a, b, c)
x, *rest = [1, 2, 3, 4]
print(x, rest)
*init, last = "abcd"
print(init, last)
first, *mid, end = range(6)
print(first, mid, end)
(p, q), r = (1, 2), 3
print(p, q, r)
print(t.index(2), t.count(3), (1, 2) < (1, 3), (1, 2) == (1, 2), hash((1, 2)) == hash((1, 2)))
a, b = b, a
print(a, b)
print(tuple([1, 2]), tuple("ab"), 2 in t, max(t), sorted((3, 1, 2)))
d = {(1, 2): "pair"}
print(d[(1, 2)], d[1, 2])
