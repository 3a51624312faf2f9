d = {"a": 1}
d["a"] += 5
l = [1, 2]
l[0] -= 10
class O: pass
o = O()
o.v = 2
o.v **= 3
s = "ab"
s *= 2
print(d, l, o.v, s)
x: int = 5
y: list
print(x)
a = b = c = 7
print(a, b, c)
a, (b, c) = 1, [2, 3]
print(a, b, c)
l[1:] = [9, 9]
print(l)
t = 1
t <<= 4
t |= 1
t ^= 3
t &= 0xff
t >>= 1
t %= 7
print(t)
