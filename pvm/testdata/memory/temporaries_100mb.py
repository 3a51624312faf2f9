# About 100 MB of allocations over the call, never more than a few hundred
# KiB live at once: MemoryError must not happen (the limit is on live memory).
total = 0
for i in range(500):
    s = "x" * 100000          # 100 KB str, dropped on the next iteration
    total += len(s)
for i in range(300):
    l = [i] * 10000           # 80 KB list
    total += len(l)
d = {}
for r in range(200):
    for k in range(500):
        d[k] = str(k) * 3
    total += len(d)
    d.clear()
parts = ""
for i in range(3000):
    parts = parts + "ab"      # a growing string built piece by piece
total += len(parts)
print(total)
