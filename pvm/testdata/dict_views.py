d = {"a": 1, "b": 2, "c": 3}
k, v, it = d.keys(), d.values(), d.items()
print(len(k), "a" in k, 2 in v, ("b", 2) in list(it), list(k), list(v))
d["d"] = 4
print(list(k), list(v), len(it))
for key in list(d):
    if d[key] % 2 == 0:
        del d[key]
print(d)
try:
    for key in d:
        d["zz"] = 0
except RuntimeError as e:
    print("RuntimeError:", e)
print(sorted(d.items(), key=lambda kv: kv[1], reverse=True))
e = {}
e.update([("x", 1)], y=2)
e |= {"z": 3}
print(e, {**e} == e, e.copy() is e)
