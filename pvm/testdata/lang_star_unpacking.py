# Star-unpacking in assignments, calls, literals and for targets.
first, *middle, last = range(6)
print(first, middle, last)
*init, tail = "abc"
print(init, tail)
head, *rest = [1]
print(head, rest)
a, (b, *c), d = 1, (2, 3, 4), 5
print(a, b, c, d)
for x, *ys in [(1, 2, 3), (4,), (5, 6)]:
    print(x, ys)
(p, q), r = "xy", "z"
print(p, q, r)
print([*range(3), *"ab", *(x * x for x in range(3))])
print((*[1, 2], 3), {*"aab"} == {"a", "b"}, {**{"a": 1}, "b": 2, **{"a": 3}})


def f(a, b, c=0, *args, **kwargs):
    return a, b, c, args, kwargs


print(f(*[1, 2]))
print(f(*[1], *[2, 3, 4], x=5, **{"y": 6}))
print(f(1, *(), **{"b": 2}))
args = (1, 2, 3)
kw = {"k": "v"}
print(f(*args, 9, **kw))
print(max(*[3, 9, 2]), min(*"zay"), print(*[1, 2], sep="-"))
m = {"a": 1}
n = {**m, "b": 2}
m["a"] = 100
print(n, m)
x = y = z = 0
x, y = y, x = 1, 2
print(x, y)
lst = [0] * 4
i = 0
i, lst[i] = 2, 9
print(i, lst)
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, *c, d = [1, 2]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = "ab"
except ValueError as e:
    print("ValueError:", e)
try:
    a, b = 5
except TypeError as e:
    print("TypeError:", e)
try:
    f(1, 2, **{"a": 3})
except TypeError as e:
    print("TypeError:", e)
