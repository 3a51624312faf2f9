a = [1, 2, 3]
b = a
b.append(4)
print(a is b, a, a == [1, 2, 3, 4])
c = a[:]
c.append(5)
print(a, c)
m = [[0] * 3 for _ in range(2)]
m[0][0] = 1
print(m)
aliased = [[0] * 2] * 2
aliased[0][0] = 9
print(aliased)
lst = list(range(10))
print(lst[::3], lst[1::2][::-1], lst[-1:-4:-1], lst[3:1], lst[:0])
lst[2:5] = "abc"
print(lst)
lst[::-3] = [None] * len(lst[::-3])
print(lst)
print([1, 2, 3] > [1, 2], [1, [2]] == [1, [2]], [] < [0], [3] * 2 == [3, 3])
print(list(zip(*[(1, "a"), (2, "b")])), [x for x, in [(1,), (2,)]])
