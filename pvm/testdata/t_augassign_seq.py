t = (1, 2)
t2 = t
t += (3,)
print(t, t2)
l = [1]
l2 = l
l += [2]
print(l, l2, l is l2)
s = "a"
s += "b" * 3
print(s)
d = {"k": [1]}
d["k"] += [2]
print(d)
