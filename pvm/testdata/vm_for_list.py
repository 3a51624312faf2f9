# FOR_ITER over a list is read in the interpreter loop (object.NextInList);
# every other iterator, and an exhausted list iterator, goes through
# object.Next. The list may change while the loop runs.
xs = [3, 1, 4, 1, 5]
total = 0
for x in xs:
    total += x
print(total)

# Appending while iterating: the loop sees the new items.
ys = [1, 2]
for y in ys:
    if y < 5:
        ys.append(y + 2)
print(ys)

# Removing while iterating skips, as in CPython.
zs = [1, 2, 3, 4, 5, 6]
seen = []
for z in zs:
    seen.append(z)
    if z % 2 == 0:
        zs.remove(z)
print(seen, zs)

# Clearing ends the loop; shrinking below the position ends it too.
ws = [1, 2, 3, 4]
out = []
for w in ws:
    out.append(w)
    if w == 2:
        ws.clear()
print(out, ws)
vs = [1, 2, 3, 4, 5]
out = []
for v in vs:
    out.append(v)
    if v == 3:
        del vs[1:]
print(out, vs)

# Rebinding the name does not change the list being iterated.
us = [1, 2, 3]
out = []
for u in us:
    out.append(u)
    us = [9, 9]
print(out, us)

# An explicit iterator: partly consumed by next(), then by the loop; the
# loop's break leaves the rest.
it = iter([10, 20, 30, 40, 50])
print(next(it))
for a in it:
    if a == 30:
        break
print(list(it))

# Nested loops over the same list; an empty list; a list of lists.
grid = [[1, 2], [3, 4]]
print([a * b for row in grid for a in row for b in row])
for nothing in []:
    print("never")
pairs = 0
for p in grid:
    for q in grid:
        pairs += p[0] * q[1]
print(pairs)

# Other iterables in the same loops: tuples, ranges, strings, dicts,
# generators, a list subclass with its own __iter__.
for seq in [(1, 2), range(3), "ab", {"k": 1}, (c for c in "xy")]:
    print(type(seq).__name__, [e for e in seq])


class Backwards(list):
    def __iter__(self):
        return iter(list.__getitem__(self, slice(None, None, -1)))


class Plain(list):
    pass


print([e for e in Backwards([1, 2, 3])], [e for e in Plain([4, 5])])
for e in Backwards([7, 8]):
    print("backwards", e)

# Exceptions raised in the loop body leave the iterator where it was.
it = iter([1, 2, 3, 4])
try:
    for n in it:
        if n == 2:
            raise ValueError(n)
except ValueError as e:
    print("ValueError", e, list(it))

# else runs when the list is exhausted, not on break.
for n in [1, 2]:
    pass
else:
    print("else", n)
for n in [1, 2]:
    break
else:
    print("not printed")
print("after break", n)
