# Augmented assignment to names, attributes, subscripts and slices.
class Acct:
    def __init__(self):
        self.bal = 10
        self.tags = ["a"]


a = Acct()
a.bal += 5
a.bal -= 3
a.bal *= 2
a.bal //= 5
a.bal **= 2
a.bal %= 7
a.tags += ["b"]
a.tags *= 2
print(a.bal, a.tags)
d = {"x": 1, "l": [1]}
d["x"] += 10
d["x"] <<= 2
d["x"] >>= 1
d["x"] |= 1
d["x"] &= 0xFF
d["x"] ^= 0b101
d["l"] += [2]
print(d)
xs = [1, 2, 3]
xs[0] += 100
xs[-1] *= 3
xs[1:2] += [9]
print(xs)
s = "ab"
s += "cd"
s *= 2
print(s)
f = 1.5
f /= 2
f += 1
print(f)
t = (1,)
t += (2, 3)
print(t)
calls = []


def idx():
    calls.append("idx")
    return 0


ys = [5]
ys[idx()] += 1
print(ys, calls)
m = [[0, 0], [0, 0]]
m[1][0] += 7
print(m)
cnt = {}
for w in "a b a c b a".split():
    cnt[w] = cnt.get(w, 0) + 1
print(cnt)
try:
    tup = ([1],)
    tup[0] += [2]
except TypeError as e:
    print("TypeError:", e, tup)
x = 7
