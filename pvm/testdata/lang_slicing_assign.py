# Slicing with steps, negative indices, slice assignment and deletion.
s = list(range(10))
print(s[2:5], s[:3], s[7:], s[-3:], s[:-7], s[::2], s[1::3], s[::-1], s[8:2:-2], s[-1:-4:-1])
print(s[100:], s[-100:2], s[5:1], s[::-3], s[slice(1, 8, 3)], s[slice(None)])
t = "cowboy chain"
print(t[::-1], t[::2], t[-5:], t[1:-1:2], t[3:3] == "", t[:100])
b = b"abcdef"
print(b[1:4], b[::-1], b[-2:], b[0], b[::2])
print((1, 2, 3, 4)[1:3], range(10)[2:8:2], list(range(10)[::-3]), range(0, 20, 5)[-1])
u = list(range(6))
u[1:3] = ["a", "b", "c"]
print(u)
u[::2] = [0, 0, 0, 0]
print(u)
u[:] = []
print(u)
v = list(range(8))
del v[::3]
print(v)
del v[1:3]
print(v)
v[len(v):] = [98, 99]
v[:0] = [-1]
print(v)
try:
    v[::2] = [1]
except ValueError as e:
    print("ValueError:", e)
w = list(range(5))
w[1:4] = []
print(w)
sl = slice(1, 10, 2)
print(sl.start, sl.stop, sl.step, sl.indices(6), repr(sl))
ba = bytearray(b"hello world")
ba[0:5] = b"HOWDY"
print(ba, ba[-5:].upper())
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print([row[1] for row in m], [row[::-1] for row in m][::-1], m[1][1:], [r[i] for i, r in enumerate(m)])
print("".join(reversed("stressed")), "racecar"[::-1] == "racecar")
bb = bytearray(range(10))
bb[::3] = b"ABCD"
del bb[1]
del bb[::4]
bb[2:2] = [7, 8]
print(bb, list(bb))
try:
    bb[0:1] = 5
except TypeError as e:
    print("TypeError:", e)
