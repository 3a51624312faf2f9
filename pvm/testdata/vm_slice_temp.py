# a[s:t] = b[u:v]: the VM builds b[u:v] into a scratch list that the
# slice assignment copies out of (vm sliceTemp). Nothing may tell.

for start in ([3, 1, 4, 0, 2], [4, 3, 2, 1, 0], [1, 4, 0, 3, 2], [2, 0, 4, 1, 3]):
    perm = start[:]
    flips = 0
    k = perm[0]
    while k:
        perm[:k + 1] = perm[k::-1]
        flips += 1
        k = perm[0]
    print("flips", start, flips, perm)

a = [1, 2, 3, 4, 5]
a[:] = a[::-1]
print("self", a)

# A user __setitem__ keeps the value it is given: it must stay intact.
class Keeper:
    def __init__(self):
        self.kept = []
    def __setitem__(self, key, value):
        self.kept.append((key.start, key.stop, value))
keep = Keeper()
src = [10, 20, 30, 40]
keep[0:2] = src[1:3]
keep[1:3] = src[::-1]
other = [0, 0, 0, 0]
other[:2] = src[2:]
print("kept", keep.kept, other)
print("kept lists distinct", keep.kept[0][2] is not keep.kept[1][2])

# A dict target refuses a slice key; the next statement still works.
d = {}
try:
    d[1:2] = src[:2]
except TypeError as e:
    print("TypeError", e)
b = [0] * 4
b[1:3] = src[:2]
print("after TypeError", b)

# The target's bounds run Python code that does the same thing.
log = []
def bound():
    c = [1, 2, 3]
    c[:] = c[::-1]
    log.append(c)
    return 1
t = [9, 9, 9, 9]
t[bound():] = src[:3]
print("nested", t, log)

# An exception between the slice and the store.
def boom():
    raise ValueError("boom")
u = [0, 0, 0]
try:
    u[boom():] = src[:2]
except ValueError as e:
    print("caught", e, u)
u[1:] = src[2:]
print("after exception", u)

# A generator suspended between the slice and the store.
def gen(target):
    target[(yield "paused"):] = src[::2]
    yield "done"
w = [7, 7, 7, 7]
g = gen(w)
print(next(g))
v = [5, 6, 7]
v[:2] = v[:0:-1]
print("while suspended", v)
print(g.send(2), w)

# Not a list source, user __index__ bounds, extended-slice size mismatch.
x = [0, 0, 0]
x[:2] = (1, 2, 3)[1:]
print("tuple", x)
class Two:
    def __index__(self):
        return 2
y = [0, 0, 0, 0]
y[:2] = src[Two():]
print("index", y)
z = [0, 0, 0, 0]
try:
    z[::2] = src[:3]
except ValueError as e:
    print("ValueError", e)
z[::2] = src[:2]
print("extended", z)
