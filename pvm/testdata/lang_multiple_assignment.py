# Multiple targets, swaps, nested unpacking, chained assignment semantics.
a = b = c = []
a.append(1)
print(a, b, c, a is b)
x, y = 1, 2
x, y = y, x + y
print(x, y)
(p, q), [r, s] = (1, 2), [3, 4]
print(p, q, r, s)
i = 0
lst = [10, 20, 30]
i, lst[i] = 1, 99
print(i, lst)
d = {}
d["a"] = d["b"] = 0
print(d)
m, *n = "hello"
print(m, n)
first, second, *_ = range(10)
print(first, second, _)
for (k, v), idx in zip({"a": 1, "b": 2}.items(), range(2)):
    print(k, v, idx)
t = 1, 2, 3
u, v, w = t
print(t, u + v + w, type(t).__name__)
nums = [1, 2, 3, 4]
nums[0], nums[-1] = nums[-1], nums[0]
print(nums)
obj = type("Obj", (), {})()
obj.a, obj.b = "A", "B"
print(obj.a, obj.b)
matrix = [[1, 2], [3, 4]]
[[a1, a2], [b1, b2]] = matrix
print(a1 + b2, a2 * b1)
z = (1, [2, 3])
one, [two, three] = z
print(one, two, three)
