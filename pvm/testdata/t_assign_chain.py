a = b = c = []
a.append(1)
print(a, b, c, a is b)
x, y = y, x = 1, 2
print(x, y)
i = 0
lst = [0, 0, 0]
i, lst[i] = 1, 9
print(i, lst)
