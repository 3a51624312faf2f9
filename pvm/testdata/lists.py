a = [3, 1, 4, 1, 5, 9, 2, 6]
print(a, len(a), a[0], a[-1], a[2:5], a[::-1], a[1::3])
a.append(7)
a.extend([8, 9])
a.insert(0, 0)
print(a, a.pop(), a.pop(0), a.index(5), a.count(1))
a.remove(1)
print(a)
a.sort()
print(a, sorted(a, reverse=True), sorted(["bb", "a", "ccc"], key=len))
a.reverse()
print(a, min(a), max(a), sum(a))
b = a.copy()
b[0] = 100
print(a[0], b[0], a == b, [1, 2] < [1, 3], [1, 2] == [1, 2])
a[1:3] = ["x", "y", "z"]
print(a)
del a[0]
del a[::2]
print(a)
print([1, 2] + [3], [0] * 5, [[0] * 2] * 2, 3 in [1, 2, 3], 4 not in [1, 2, 3])
x = [1, 2]
x += [3]
x *= 2
print(x, list(range(5)), list("abc"), list((1, 2)))
nested = [[1, 2], [3, [4, 5]]]
print(nested[1][1][0], nested)
c = []
c.append(c)
print(c)
print([].clear(), [5, 3, 1].sort(), bool([]), bool([0]))
