d = {"a": 1, "b": 2}
d["c"] = 3
print(d, len(d), d["a"], d.get("z"), d.get("z", 0), "a" in d, "z" not in d)
print(list(d.keys()), list(d.values()), list(d.items()))
for k, v in d.items():
    print(k, v)
del d["b"]
d["b"] = 20
print(d, d.pop("a"), d.pop("zz", "dflt"), d)
print(d.setdefault("x", 5), d.setdefault("x", 6), d)
d.update({"y": 1}, z=2)
print(d, d.popitem(), d)
e = dict(a=1, b=2)
f = dict([("x", 1), ("y", 2)])
print(e, f, dict(e), e == {"b": 2, "a": 1}, e != f)
print({k: v * 2 for k, v in e.items()}, dict.fromkeys("ab", 0))
g = {1: "int", 1.0: "float?", True: "bool?"}
print(g)
print({**e, **f, "z": 0}, e | f)
counts = {}
for w in "the cat the hat the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts, sorted(counts, key=counts.get, reverse=True))
print(d.keys(), d.values(), d.items())
h = {}
h[(1, "a")] = 1
h[frozenset([1])] = 2
print(h)
try:
    d["missing"]
except KeyError as ex:
    print("KeyError", ex, repr(ex))
