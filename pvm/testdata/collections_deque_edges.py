from collections import deque

d = deque(range(5), maxlen=5)
d.appendleft(-1)
print(d, d.maxlen)
d.extend([7, 8])
print(d, d[2], d[-2], len(d))
d[0] = 100
del d[1]
print(d, d.index(7), 100 in d)
d.rotate(10)
print(d)
e = deque("abc")
e.extendleft("xy")
print(e, "".join(e), list(reversed(e)), e.count("a"))
e.insert(2, "!")
print(e, e == deque("yx!abc"), e != deque(), deque([1, 2]) < deque([1, 3]))
print(deque(), deque(maxlen=0), deque([1], maxlen=0), bool(deque([0])))
f = deque([1, 2, 3])
f += [4]
print(f, f * 2, f + deque([9]))
try:
    deque([1]).remove(5)
except ValueError as err:
    print("ValueError", err)
try:
    deque()[0]
except IndexError as err:
    print("IndexError", err)
try:
    deque(maxlen=-1)
except ValueError as err:
    print("ValueError", err)
history = deque(maxlen=3)
for block in range(1, 8):
    history.append({"height": block})
print([h["height"] for h in history])
