a, b, *c = range(5)
print(a, b, c)
[x, y], z = [[1, 2], 3]
print(x, y, z)
for i, (k, v) in enumerate({"a": 1, "b": 2}.items()):
    print(i, k, v)
first, *_, last = "hello"
print(first, last)
def f(*args, **kw):
    return args, kw
print(f(*range(3), *"ab", k=1, **{"m": 2}))
print([*range(3), *"xy"], (*"ab",), {*[1, 1, 2]} == {1, 2}, {**{"a": 1}, "b": 2})
head, *tail = [1]
print(head, tail)
(a, b), c = "xy", "z"
print(a, b, c)
