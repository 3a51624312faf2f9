d = {}
for k in ["z", "a", "m", "b"]:
    d[k] = len(d)
print(list(d), d)
del d["a"]
d["a"] = 99
print(list(d.items()))
d2 = {k: v for k, v in sorted(d.items())}
print(d2, list(d2.values()))
print({1: 1, True: 2, 1.0: 3}, {"x": 1} == {"x": 1.0})
