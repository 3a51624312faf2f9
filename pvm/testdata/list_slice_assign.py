# List slice assignment from another list, a tuple, the list itself and
# iterators, same length (done in place) and not.
l = list(range(8))
l[2:5] = [20, 30, 40]
print(l)
l[:3] = (7, 8, 9)
print(l)
l[1:3] = l
print(l)
m = list(range(6))
m[::-1] = m
print(m)
m[:] = m
print(m)
m[::2] = m[1::2]
print(m)
p = [1, 2, 3, 4, 5]
p[:4] = p[3::-1]
print(p)
q = [0, 1, 2]
r = q
q[0:2] = (x * 10 for x in range(2))
print(q, r is q)
q[1:2] = []
print(q)
q[5:9] = "ab"
print(q)
try:
    q[::2] = [1]
except ValueError as e:
    print(e)
a = [[0], [1]]
b = [[2], [3]]
a[0:2] = b
b[0].append(9)
print(a, a[0] is b[0])
