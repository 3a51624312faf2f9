r = range(3, 20, 4)
print(list(r), len(r), r[0], r[-1], r[1:3], 7 in r, 8 in r, r.index(11) if hasattr(r, "index") else "")
print(list(range(10, 0)), list(range(0, -10, -3)), range(5) == range(0, 5), bool(range(0)))
print(sum(range(101)), max(range(7)), list(reversed(range(4))), range(1, 10)[::3])
